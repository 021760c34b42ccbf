// Drawing of one allocation run: a mesh as a grid of routers and nodes, a tree by levels, in two
// layers: jobs (each node in its job's colour) and contention (a heat map of how many running jobs
// cross each router and link). Meshes with cells of at least DETAIL_CELL px are drawn as shapes
// (links, node squares, routers); smaller meshes, up to 512 x 512, are written pixel by pixel into
// one ImageData at the device resolution, so the cost is one pass over the pixels, not a shape
// per node.
import { PALETTE, FONT_SMALL, OWNED_IDLE_TINT, tint, setupCanvas, drawAxis, drawTitle, ticks, heatColor } from './common.js';

const TITLE_H = 26;          // px, band for the policy label
const MAX_CELL = 56;         // px, largest mesh cell
const MAX_PLOT_H = 560;      // px, tallest mesh plot
const DETAIL_CELL = 14;      // px, cells at least this big show routers and links
const MAX_LEAF_SPACING = 40; // px

/** Colour index per node: 0 idle, then for job colour c: 1 + 2c (busy) and 2 + 2c (owned, idle). */
function colorTable() {
  const out = [PALETTE.idle];
  for (const c of PALETTE.jobs) out.push(c, tint(c, OWNED_IDLE_TINT));
  return out;
}
const COLORS = colorTable();
function colorKey(owner, ownedIdle) {
  return owner < 0 ? 0 : 1 + 2 * (owner % PALETTE.jobs.length) + (ownedIdle ? 1 : 0);
}

export function layoutFor(topo, availWidth) {
  return topo.kind === 'tree' ? treeLayout(topo, availWidth) : meshLayout(topo, availWidth);
}

function meshLayout(topo, availWidth) {
  const W = topo.width, H = topo.height;
  const ML = 46, MR = 10, MT = TITLE_H + 30, MB = 10;
  let cell = Math.min(MAX_CELL, (availWidth - ML - MR) / W, MAX_PLOT_H / H);
  // Whole pixels per cell whenever a cell is at least one pixel, so every cell has the same size.
  if (cell >= 1) cell = Math.floor(cell);
  cell = Math.max(cell, 0.25);
  return {
    kind: 'mesh', W, H, cell, ox: ML, oy: MT,
    width: Math.ceil(ML + W * cell + MR), height: Math.ceil(MT + H * cell + MB),
    detailed: cell >= DETAIL_CELL,
  };
}

function treeLayout(topo, availWidth) {
  const L = topo.levelSizes.length, N = topo.nodes;
  const ML = 54, MR = 12;
  let spacing = Math.min(MAX_LEAF_SPACING, (availWidth - ML - MR) / N);
  const offsets = [], spans = [];
  let off = 0;
  for (let l = 0; l < L; l++) { offsets.push(off); off += topo.levelSizes[l]; }
  // per router: first leaf, leaf count and parent (an imported tree gives them; a regular tree's
  // follow from its arities); leafSwitch: each leaf's switch
  const first = new Float64Array(topo.routers), count = new Float64Array(topo.routers);
  const parent = new Int32Array(topo.routers), leafSwitch = new Int32Array(N);
  if (topo.switches) {
    topo.switches.forEach((s, u) => { first[u] = s.firstNode; count[u] = s.nodeCount; parent[u] = s.parent; });
  } else {
    const arities = topo.arities;
    for (let l = 0; l < L; l++) spans.push(arities.slice(l).reduce((a, b) => a * b, 1));
    for (let l = 0; l < L; l++) {
      for (let j = 0; j < topo.levelSizes[l]; j++) {
        const u = offsets[l] + j;
        first[u] = j * spans[l]; count[u] = spans[l];
        parent[u] = l === 0 ? 0 : offsets[l - 1] + Math.floor(j / arities[l - 1]);
      }
    }
  }
  for (let u = offsets[L - 1]; u < topo.routers; u++) {
    for (let v = first[u]; v < first[u] + count[u]; v++) leafSwitch[v] = u;
  }
  const gap = Math.min(64, Math.max(34, 300 / L));
  const top = TITLE_H + 14;
  const leafY = top + L * gap;
  const leafSize = Math.max(1, Math.min(16, spacing * 0.8));
  const strip = spacing < 3;
  // Leaves are at least 10 px tall so job colours stay readable when many leaves share the width.
  const leafH = strip ? 18 : Math.max(leafSize, Math.min(16, 10));
  return {
    kind: 'tree', L, N, spacing, offsets, gap, top, leafY, leafSize, leafH, strip,
    first, count, parent, leafSwitch, switchNames: topo.switches ? topo.switches.map((s) => s.name) : null,
    nodeNames: topo.nodeNames || null,
    routers: topo.routers, ox: ML,
    width: Math.ceil(ML + N * spacing + MR), height: Math.ceil(leafY + leafH / 2 + 44),
  };
}

/** Centre of router `id` in CSS pixels. */
export function routerCenter(layout, id) {
  if (layout.kind === 'mesh') {
    const x = id % layout.W, y = Math.floor(id / layout.W);
    return [layout.ox + (x + 0.5) * layout.cell, layout.oy + (y + 0.5) * layout.cell];
  }
  const l = treeLevelOf(layout, id);
  return [treeRouterX(layout, id), layout.top + l * layout.gap];
}

/** Centre of compute node `id` in CSS pixels. */
export function nodeCenter(layout, id) {
  if (layout.kind === 'mesh') return routerCenter(layout, id);
  return [layout.ox + (id + 0.5) * layout.spacing, layout.leafY];
}

function treeLevelOf(layout, routerId) {
  let l = layout.L - 1;
  while (l > 0 && layout.offsets[l] > routerId) l--;
  return l;
}
function treeRouterX(layout, u) {
  return layout.ox + (layout.first[u] + layout.count[u] / 2) * layout.spacing;
}

/** What is under (x, y): {type: 'node', id} or {type: 'router', id, level}, or null. */
export function hitTest(layout, x, y) {
  if (layout.kind === 'mesh') {
    const cx = Math.floor((x - layout.ox) / layout.cell), cy = Math.floor((y - layout.oy) / layout.cell);
    if (cx < 0 || cy < 0 || cx >= layout.W || cy >= layout.H) return null;
    return { type: 'node', id: cy * layout.W + cx, x: cx, y: cy };
  }
  const i = Math.floor((x - layout.ox) / layout.spacing);
  if (Math.abs(y - layout.leafY) <= Math.max(layout.leafH, 14) / 2 + 3) {
    return i >= 0 && i < layout.N ? { type: 'node', id: i } : null;
  }
  const l = Math.round((y - layout.top) / layout.gap);
  if (l < 0 || l >= layout.L || Math.abs(y - (layout.top + l * layout.gap)) > 10) return null;
  if (i < 0 || i >= layout.N) return null;
  let id = layout.leafSwitch[i];
  for (let k = layout.L - 1; k > l; k--) id = layout.parent[id];
  const out = { type: 'router', id, level: l, index: id - layout.offsets[l] };
  if (layout.switchNames) out.name = layout.switchNames[id];
  return out;
}

/**
 * Draws one run. `scene`: {title, owner: Int32Array (job index per node, -1 idle),
 * ownedIdle: Uint8Array (1 = reserved but unused), contendedRouters: [ids], contendedLinks: [ids],
 * heat: {routers: Uint16Array, links: Uint16Array} (running jobs crossing each) or null,
 * layers: {jobs, contention}}.
 *
 * Contention layer alone: every router and link a running job crosses, coloured by how many cross
 * it. With the jobs layer: only contended routers and links (as the report lists them), drawn as
 * insets that leave each node's job colour visible around them. The report's contended lists are
 * the truth for "two or more": a contended id is drawn at least in the "2" colour, another at most
 * in the "1" colour, whatever the recomputed counts say.
 */
export function drawAllocation(canvas, layout, scene) {
  const ctx = setupCanvas(canvas, layout.width, layout.height);
  drawTitle(ctx, scene.title, layout.ox, 6, layout.width - layout.ox - 8);
  const heat = heatOf(scene, layout);
  if (layout.kind === 'mesh') drawMesh(ctx, layout, scene, heat);
  else drawTree(ctx, layout, scene, heat);
  return ctx;
}

/** Per id, the count drawn (0 = not drawn) for routers and links, following the rule above. */
function heatOf(scene, layout) {
  const layers = scene.layers || { jobs: true, contention: true };
  const nR = layout.routers ?? layout.W * layout.H;
  const nL = layout.kind === 'mesh' ? layout.H * (layout.W - 1) + layout.W * (layout.H - 1) : layout.routers - 1 + layout.N;
  const routers = new Uint16Array(nR), links = new Uint16Array(nL);
  if (!layers.contention) return { routers, links, any: false };
  const cr = scene.contendedRouters, cl = scene.contendedLinks;
  const hr = scene.heat?.routers, hl = scene.heat?.links;
  if (!layers.jobs && hr) {
    for (let i = 0; i < nR; i++) routers[i] = Math.min(1, hr[i]);
    for (let i = 0; i < nL; i++) links[i] = Math.min(1, hl[i]);
  }
  for (const id of cr) routers[id] = Math.max(2, hr ? hr[id] : 2);
  for (const id of cl) links[id] = Math.max(2, hl ? hl[id] : 2);
  return { routers, links, any: true };
}

/** Fills horizontal runs of equal colour, one fillStyle per colour. `rect(run)` gives the rectangle. */
function fillRuns(ctx, runsByColor) {
  runsByColor.forEach((runs, key) => {
    if (!runs.length) return;
    ctx.fillStyle = COLORS[key];
    for (let i = 0; i < runs.length; i += 4) ctx.fillRect(runs[i], runs[i + 1], runs[i + 2], runs[i + 3]);
  });
}

const rgba = (hex) => {
  const n = parseInt(hex.slice(1), 16);
  return (255 << 24) | ((n & 255) << 16) | (n & 0xff00) | ((n >> 16) & 255); // little-endian RGBA
};
const mix = (a, b) => {
  const c = (s) => ((a >> s) & 255) + ((b >> s) & 255) >> 1;
  return (255 << 24) | (c(16) << 16) | (c(8) << 8) | c(0);
};
const COLORS_RGBA = COLORS.map(rgba);
/** Heat colour as RGBA by count (counts past the table share the last bin's colour). */
const HEAT_RGBA = Uint32Array.from({ length: 65 }, (_, c) => (c ? rgba(heatColor(c)) : 0));
const heatRgba = (c) => HEAT_RGBA[c < 64 ? c : 64];
const WHITE = rgba(PALETTE.background);

function drawMesh(ctx, lay, scene, heat) {
  const { W, H, cell, ox, oy } = lay;
  const xt = ticks(0, W - 1, Math.max(2, (W * cell) / 48), true);
  const yt = ticks(0, H - 1, Math.max(2, (H * cell) / 36), true);
  drawAxis(ctx, { side: 'top', at: oy - 4, from: ox, to: ox + W * cell, values: xt, pos: (v) => ox + (v + 0.5) * cell, label: 'x →' });
  drawAxis(ctx, { side: 'left', at: ox - 4, from: oy, to: oy + H * cell, values: yt, pos: (v) => oy + (v + 0.5) * cell, label: 'y ↓', labelAt: 12 });
  if (lay.detailed) drawMeshShapes(ctx, lay, scene, heat);
  else drawMeshImage(ctx, lay, scene, heat);
}

/** Key into COLORS of node `i` in the jobs layer (idle when the layer is off). */
function nodeKey(scene, i) {
  return scene.layers && !scene.layers.jobs ? 0 : colorKey(scene.owner[i], scene.ownedIdle[i]);
}

function drawMeshShapes(ctx, lay, scene, heat) {
  const { W, H, cell, ox, oy } = lay;
  const runs = COLORS.map(() => []);
  const hLinks = H * (W - 1);
  const linkEnds = (id) => {
    if (id < hLinks) { const y = Math.floor(id / (W - 1)), x = id % (W - 1); return [x, y, x + 1, y]; }
    const v = id - hLinks, y = Math.floor(v / W), x = v % W;
    return [x, y, x, y + 1];
  };
  const cx = (x) => ox + (x + 0.5) * cell, cy = (y) => oy + (y + 0.5) * cell;
  // Links first (behind), then node squares, then routers on top.
  ctx.strokeStyle = PALETTE.link;
  ctx.lineWidth = Math.max(1, cell * 0.06);
  ctx.beginPath();
  for (let y = 0; y < H; y++) { ctx.moveTo(cx(0), cy(y)); ctx.lineTo(cx(W - 1), cy(y)); }
  for (let x = 0; x < W; x++) { ctx.moveTo(cx(x), cy(0)); ctx.lineTo(cx(x), cy(H - 1)); }
  ctx.stroke();
  // Heat on links: a band along the link (thicker when contended), behind the node squares so it
  // shows in the gaps between them and never over a job's colour.
  for (let id = 0; id < heat.links.length; id++) {
    const c = heat.links[id];
    if (!c) continue;
    const [x0, y0, x1, y1] = linkEnds(id);
    const t = c >= 2 ? Math.max(3, cell * 0.16) : Math.max(2, cell * 0.1);
    ctx.fillStyle = heatColor(c);
    if (y0 === y1) ctx.fillRect(cx(x0), cy(y0) - t / 2, cell, t);
    else ctx.fillRect(cx(x0) - t / 2, cy(y0), t, cell);
  }
  const s = cell * 0.64, pad = (cell - s) / 2;
  for (let i = 0; i < W * H; i++) runs[nodeKey(scene, i)].push(ox + (i % W) * cell + pad, oy + Math.floor(i / W) * cell + pad, s, s);
  fillRuns(ctx, runs);
  const r = Math.max(3, cell * 0.18);
  ctx.fillStyle = PALETTE.router;
  for (let i = 0; i < W * H; i++) if (!heat.routers[i]) ctx.fillRect(cx(i % W) - r / 2, cy(Math.floor(i / W)) - r / 2, r, r);
  // Routers in the heat map: a little larger than plain routers, with a thin white rim, leaving
  // most of the node square in its job's colour.
  const rs = Math.max(5, cell * 0.24);
  for (let i = 0; i < W * H; i++) {
    const c = heat.routers[i];
    if (!c) continue;
    const x = cx(i % W), y = cy(Math.floor(i / W));
    ctx.fillStyle = PALETTE.background; ctx.fillRect(x - rs / 2 - 1, y - rs / 2 - 1, rs + 2, rs + 2);
    ctx.fillStyle = heatColor(c); ctx.fillRect(x - rs / 2, y - rs / 2, rs, rs);
  }
}

/**
 * Small cells, written into one ImageData at device pixels. A cell of k >= 1 device pixels:
 * k >= 6 leaves a 1 px gap; a contended router with the jobs layer on is an inset square in the
 * cell's middle (k >= 3) or, when cells are too small for an inset, the job colour mixed half and
 * half with the heat colour. Cells under a pixel (meshes wider than the panel): each pixel shows
 * the hottest router it covers and, for jobs, the last busy node in it.
 */
function drawMeshImage(ctx, lay, scene, heat) {
  const { W, H, cell, ox, oy } = lay;
  const dpr = window.devicePixelRatio || 1;
  const k = cell * dpr;
  const outW = Math.max(1, Math.round(W * k)), outH = Math.max(1, Math.round(H * k));
  const img = ctx.createImageData(outW, outH);
  const buf = new Uint32Array(img.data.buffer);
  const jobsOn = !scene.layers || scene.layers.jobs;
  const colorOf = (i) => {
    const base = COLORS_RGBA[nodeKey(scene, i)];
    const c = heat.routers[i];
    if (!c) return base;
    const h = heatRgba(c);
    return jobsOn ? mix(base, h) : h;
  };
  if (k >= 1) {
    const kk = Math.round(k);
    const gap = kk >= 6 ? 1 : 0;
    const inner = kk - gap;
    const s = Math.max(1, Math.floor(kk * 0.5)), o = Math.floor((inner - s) / 2);
    const insets = jobsOn && kk >= 3;
    for (let py = 0; py < outH; py++) {
      const y = Math.floor(py / kk), fy = py - y * kk;
      for (let px = 0; px < outW; px++) {
        const x = Math.floor(px / kk), fx = px - x * kk;
        const i = y * W + x;
        let c;
        if (fx >= inner || fy >= inner) c = WHITE;
        else if (insets) {
          const inInset = fx >= o && fx < o + s && fy >= o && fy < o + s;
          c = inInset && heat.routers[i] ? heatRgba(heat.routers[i]) : COLORS_RGBA[nodeKey(scene, i)];
        } else c = colorOf(i);
        buf[py * outW + px] = c;
      }
    }
  } else {
    const best = new Int32Array(outW * outH).fill(-1);
    for (let i = 0; i < W * H; i++) {
      const p = Math.min(outH - 1, Math.floor(Math.floor(i / W) * k)) * outW + Math.min(outW - 1, Math.floor((i % W) * k));
      const b = best[p];
      // Hottest router wins; at equal heat a busy node beats an idle one.
      if (b < 0 || heat.routers[i] > heat.routers[b] || (heat.routers[i] === heat.routers[b] && scene.owner[i] >= 0)) best[p] = i;
    }
    for (let p = 0; p < best.length; p++) buf[p] = best[p] < 0 ? WHITE : colorOf(best[p]);
  }
  ctx.putImageData(img, Math.round(ox * dpr), Math.round(oy * dpr));
}

function drawTree(ctx, lay, scene, heat) {
  const { L, N, spacing, offsets, gap, top, leafY, leafSize, leafH, ox, count, parent, leafSwitch } = lay;
  const levelY = (l) => top + l * gap;

  // Level labels.
  ctx.font = FONT_SMALL; ctx.fillStyle = PALETTE.muted; ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  for (let l = 0; l < L; l++) ctx.fillText(l === 0 ? 'root' : `L${l}`, ox - 10, levelY(l));
  ctx.fillText('nodes', ox - 10, leafY);

  const linkPath = (id) => {
    if (id < lay.routers - 1) {
      const u = id + 1, l = treeLevelOf(lay, u);
      ctx.moveTo(treeRouterX(lay, u), levelY(l));
      ctx.lineTo(treeRouterX(lay, parent[u]), levelY(l - 1));
    } else {
      const i = id - (lay.routers - 1);
      ctx.moveTo(ox + (i + 0.5) * spacing, leafY - leafH / 2);
      ctx.lineTo(treeRouterX(lay, leafSwitch[i]), levelY(L - 1));
    }
  };
  // Links, one path (leaf links only when leaves are far enough apart to tell them apart).
  ctx.strokeStyle = PALETTE.link; ctx.lineWidth = 1;
  ctx.beginPath();
  for (let id = 0; id < lay.routers - 1; id++) linkPath(id);
  if (spacing >= 3) for (let i = 0; i < N; i++) linkPath(lay.routers - 1 + i);
  ctx.stroke();

  // Leaves (compute nodes): under a device pixel each, written into one strip of pixels where
  // each pixel shows a busy leaf it covers (else idle); otherwise runs of equal colour.
  const dpr = window.devicePixelRatio || 1;
  if (spacing * dpr < 1) {
    const outW = Math.max(1, Math.round(N * spacing * dpr)), outH = Math.max(1, Math.round(leafH * dpr));
    const pick = new Int32Array(outW).fill(-1);
    for (let i = 0; i < N; i++) {
      const p = Math.min(outW - 1, Math.floor(i * spacing * dpr));
      if (pick[p] < 0 || (scene.owner[pick[p]] < 0 && scene.owner[i] >= 0)) pick[p] = i;
    }
    const img = ctx.createImageData(outW, outH);
    const buf = new Uint32Array(img.data.buffer);
    for (let p = 0; p < outW; p++) {
      const c = pick[p] < 0 ? COLORS_RGBA[0] : COLORS_RGBA[nodeKey(scene, pick[p])];
      for (let y = 0; y < outH; y++) buf[y * outW + p] = c;
    }
    ctx.putImageData(img, Math.round(ox * dpr), Math.round((leafY - leafH / 2) * dpr));
  } else {
    const runs = COLORS.map(() => []);
    const w = lay.strip ? spacing : leafSize;
    const pad = (spacing - w) / 2;
    let i0 = 0, k0 = nodeKey(scene, 0);
    for (let i = 1; i <= N; i++) {
      const k = i < N ? nodeKey(scene, i) : -1;
      if (k !== k0 || !lay.strip) {
        runs[k0].push(ox + i0 * spacing + pad, leafY - leafH / 2, (i - i0) * spacing - 2 * pad, leafH);
        i0 = i; k0 = k;
      }
    }
    fillRuns(ctx, runs);
  }

  // Routers not in the heat map.
  ctx.fillStyle = PALETTE.router;
  for (let l = 0; l < L; l++) {
    const end = offsets[l + 1] ?? lay.routers;
    for (let u = offsets[l]; u < end; u++) {
      if (heat.routers[u]) continue;
      const rs = Math.max(2, Math.min(10, count[u] * spacing * 0.5));
      ctx.fillRect(treeRouterX(lay, u) - rs / 2, levelY(l) - rs / 2, rs, rs);
    }
  }
  // An imported tree's switch names, above each switch wide enough for its name.
  if (lay.switchNames) {
    ctx.font = FONT_SMALL; ctx.fillStyle = PALETTE.muted; ctx.textAlign = 'center'; ctx.textBaseline = 'bottom';
    for (let u = 0; u < lay.routers; u++) {
      const name = lay.switchNames[u];
      if (name && ctx.measureText(name).width + 4 <= count[u] * spacing) {
        ctx.fillText(name, treeRouterX(lay, u), levelY(treeLevelOf(lay, u)) - 7);
      }
    }
  }

  // Heat: links by colour (thicker when contended), then routers with a white rim.
  const byColor = new Map();
  heat.links.forEach((c, id) => {
    if (!c) return;
    const key = heatColor(c);
    if (!byColor.has(key)) byColor.set(key, { ids: [], width: c >= 2 ? 3.5 : 2 });
    byColor.get(key).ids.push(id);
  });
  for (const [color, { ids, width }] of byColor) {
    ctx.strokeStyle = color; ctx.lineWidth = width;
    ctx.beginPath();
    for (const id of ids) linkPath(id);
    ctx.stroke();
  }
  heat.routers.forEach((c, id) => {
    if (!c) return;
    const l = treeLevelOf(lay, id);
    const rs = Math.max(7, Math.min(14, count[id] * spacing * 0.6));
    const x = treeRouterX(lay, id), y = levelY(l);
    ctx.fillStyle = PALETTE.background; ctx.fillRect(x - rs / 2 - 1.5, y - rs / 2 - 1.5, rs + 3, rs + 3);
    ctx.fillStyle = heatColor(c); ctx.fillRect(x - rs / 2, y - rs / 2, rs, rs);
  });

  const axisY = leafY + leafH / 2 + 6;
  drawAxis(ctx, {
    side: 'bottom', at: axisY, from: ox, to: ox + N * spacing,
    values: ticks(0, N - 1, Math.max(2, (N * spacing) / 60), true), pos: (v) => ox + (v + 0.5) * spacing,
    label: lay.nodeNames ? `node index (${lay.nodeNames[0]} … ${lay.nodeNames[N - 1]})` : 'node index',
  });
}

/** A point inside node `id`'s coloured area that nothing else covers (used by tests and tooltips). */
export function nodeSample(layout, id) {
  if (layout.kind === 'mesh') {
    const [x, y] = routerCenter(layout, id);
    if (layout.detailed) return [x + layout.cell * 0.25, y + layout.cell * 0.25];
    // A cell's first pixel: never under a contended router's inset nor in the gap.
    if (layout.cell >= 1) return [x - layout.cell / 2 + 0.5, y - layout.cell / 2 + 0.5];
    return [x, y];
  }
  return [layout.ox + (id + 0.5) * layout.spacing, layout.leafY + layout.leafH / 4];
}

/** Midpoint of link `id` (numbering of docs/format.md). */
export function linkMidpoint(layout, id) {
  if (layout.kind === 'mesh') {
    const { W, H } = layout;
    const hLinks = H * (W - 1);
    let a, b;
    if (id < hLinks) { const y = Math.floor(id / (W - 1)), x = id % (W - 1); a = y * W + x; b = a + 1; }
    else { const v = id - hLinks; a = v; b = v + W; }
    const [ax, ay] = routerCenter(layout, a), [bx, by] = routerCenter(layout, b);
    return [(ax + bx) / 2, (ay + by) / 2];
  }
  let a, b;
  if (id < layout.routers - 1) {
    const u = id + 1;
    a = routerCenter(layout, u);
    b = routerCenter(layout, layout.parent[u]);
  } else {
    const i = id - (layout.routers - 1);
    a = [layout.ox + (i + 0.5) * layout.spacing, layout.leafY - layout.leafH / 2];
    b = routerCenter(layout, layout.leafSwitch[i]);
  }
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

const RT_MARGIN = { left: 52, right: 12, top: 44, bottom: 46 }; // px
const RT_HEIGHT = 260;        // px
const RT_BASELINE = '#1F2328';

/**
 * Run time under contention: for every NPB kernel, class and size (`rows`, from
 * contentionComparison), one bar per policy of its mean run time divided by the job's baseline
 * (its duration: Table 1's time in the Tianhe example), so 1 is the baseline and a bar above it
 * is the slowdown contention caused. A legend of the policies sits above the plot.
 */
export function drawRunTimeChart(canvas, { width, rows, policies }) {
  const ctx = setupCanvas(canvas, width, RT_HEIGHT);
  const M = RT_MARGIN;
  const w = width - M.left - M.right, h = RT_HEIGHT - M.top - M.bottom;
  const ratio = (r, p) => (r.runTime[p] !== undefined && r.baseline > 0 ? r.runTime[p] / r.baseline : null);
  let yMax = 1;
  for (const r of rows) for (const p of policies) yMax = Math.max(yMax, ratio(r, p.policy) ?? 0);
  const yTop = 1 + Math.max(0.05, (yMax - 1) * 1.1);
  const yMin = Math.max(0, 1 - (yTop - 1) * 0.25);
  const Y = (v) => M.top + h - ((v - yMin) / (yTop - yMin)) * h;
  drawTitle(ctx, 'Run time / baseline per NPB kernel and class', M.left, 4, w);
  // legend
  ctx.font = FONT_SMALL; ctx.textBaseline = 'middle';
  let lx = M.left;
  policies.forEach((p, i) => {
    ctx.fillStyle = PALETTE.jobs[i % PALETTE.jobs.length];
    ctx.fillRect(lx, 26, 10, 10);
    ctx.fillStyle = PALETTE.text; ctx.textAlign = 'left';
    ctx.fillText(p.label, lx + 14, 31);
    lx += 22 + ctx.measureText(p.label).width;
  });
  drawAxis(ctx, { side: 'left', at: M.left, from: M.top, to: M.top + h, values: ticks(yMin, yTop, 4), pos: Y, label: 'run time / baseline', labelAt: 14 });
  const group = w / Math.max(1, rows.length);
  const bar = Math.max(1, (group * 0.8) / Math.max(1, policies.length));
  rows.forEach((r, g) => {
    const x0 = M.left + g * group + group * 0.1;
    policies.forEach((p, i) => {
      const v = ratio(r, p.policy);
      if (v === null) return;
      ctx.fillStyle = PALETTE.jobs[i % PALETTE.jobs.length];
      const top = Y(Math.min(v, yTop));
      ctx.fillRect(x0 + i * bar, top, Math.max(1, bar - 1), Y(yMin) - top);
    });
    ctx.save();
    ctx.translate(M.left + g * group + group / 2, M.top + h + 6);
    ctx.rotate(-Math.PI / 4);
    ctx.fillStyle = PALETTE.text; ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    ctx.fillText(`${r.kernel}.${r.class}`, 0, 0);
    ctx.restore();
  });
  // the baseline
  ctx.strokeStyle = RT_BASELINE; ctx.setLineDash([4, 3]); ctx.beginPath();
  ctx.moveTo(M.left, Math.round(Y(1)) + 0.5); ctx.lineTo(M.left + w, Math.round(Y(1)) + 0.5); ctx.stroke();
  ctx.setLineDash([]);
}
