// Drawing of one allocation run: a mesh as a grid of routers and nodes, a tree by levels.
// Everything is drawn in CSS pixels and batched by colour (fillRect per run of equal colour),
// so a 256 x 256 mesh draws in a few milliseconds.
import { PALETTE, FONT_SMALL, OWNED_IDLE_TINT, tint, setupCanvas, drawAxis, drawTitle, ticks } from './common.js';

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
  if (cell >= 4) cell = Math.floor(cell);
  cell = Math.max(cell, 0.25);
  return {
    kind: 'mesh', W, H, cell, ox: ML, oy: MT,
    width: Math.ceil(ML + W * cell + MR), height: Math.ceil(MT + H * cell + MB),
    detailed: cell >= DETAIL_CELL,
  };
}

function treeLayout(topo, availWidth) {
  const arities = topo.arities, L = arities.length, N = topo.nodes;
  const ML = 54, MR = 12;
  let spacing = Math.min(MAX_LEAF_SPACING, (availWidth - ML - MR) / N);
  const offsets = [], spans = [];
  let off = 0;
  for (let l = 0; l < L; l++) { offsets.push(off); off += topo.levelSizes[l]; }
  for (let l = 0; l < L; l++) spans.push(arities.slice(l).reduce((a, b) => a * b, 1));
  const gap = Math.min(64, Math.max(34, 300 / L));
  const top = TITLE_H + 14;
  const leafY = top + L * gap;
  const leafSize = Math.max(1, Math.min(16, spacing * 0.8));
  const strip = spacing < 3;
  // Leaves are at least 10 px tall so job colours stay readable when many leaves share the width.
  const leafH = strip ? 18 : Math.max(leafSize, Math.min(16, 10));
  return {
    kind: 'tree', L, N, arities, spacing, offsets, spans, gap, top, leafY, leafSize, leafH, strip,
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
  return [treeRouterX(layout, l, id - layout.offsets[l]), layout.top + l * layout.gap];
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
function treeRouterX(layout, l, j) {
  return layout.ox + (j * layout.spans[l] + layout.spans[l] / 2) * layout.spacing;
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
  const j = Math.floor((x - layout.ox) / (layout.spans[l] * layout.spacing));
  const id = layout.offsets[l] + j;
  if (j < 0 || (l + 1 < layout.L ? id >= layout.offsets[l + 1] : id >= layout.routers)) return null;
  return { type: 'router', id, level: l, index: j };
}

/**
 * Draws one run. `scene`: {title, owner: Int32Array (job index per node, -1 idle),
 * ownedIdle: Uint8Array (1 = reserved but unused), contendedRouters: [ids], contendedLinks: [ids]}.
 */
export function drawAllocation(canvas, layout, scene) {
  const ctx = setupCanvas(canvas, layout.width, layout.height);
  drawTitle(ctx, scene.title, layout.ox, 6, layout.width - layout.ox - 8);
  if (layout.kind === 'mesh') drawMesh(ctx, layout, scene);
  else drawTree(ctx, layout, scene);
  return ctx;
}

/** Fills horizontal runs of equal colour, one fillStyle per colour. `rect(run)` gives the rectangle. */
function fillRuns(ctx, runsByColor) {
  runsByColor.forEach((runs, key) => {
    if (!runs.length) return;
    ctx.fillStyle = COLORS[key];
    for (let i = 0; i < runs.length; i += 4) ctx.fillRect(runs[i], runs[i + 1], runs[i + 2], runs[i + 3]);
  });
}

function drawMesh(ctx, lay, scene) {
  const { W, H, cell, ox, oy } = lay;
  const owner = scene.owner, idle = scene.ownedIdle;
  const runs = COLORS.map(() => []);
  const xt = ticks(0, W - 1, Math.max(2, (W * cell) / 48), true);
  const yt = ticks(0, H - 1, Math.max(2, (H * cell) / 36), true);
  drawAxis(ctx, { side: 'top', at: oy - 4, from: ox, to: ox + W * cell, values: xt, pos: (v) => ox + (v + 0.5) * cell, label: 'x →' });
  drawAxis(ctx, { side: 'left', at: ox - 4, from: oy, to: oy + H * cell, values: yt, pos: (v) => oy + (v + 0.5) * cell, label: 'y ↓', labelAt: 12 });

  if (lay.detailed) {
    // Links first (behind), then node squares, then routers on top.
    ctx.strokeStyle = PALETTE.link;
    ctx.lineWidth = Math.max(1, cell * 0.06);
    ctx.beginPath();
    for (let y = 0; y < H; y++) {
      const cy = oy + (y + 0.5) * cell;
      ctx.moveTo(ox + 0.5 * cell, cy); ctx.lineTo(ox + (W - 0.5) * cell, cy);
    }
    for (let x = 0; x < W; x++) {
      const cx = ox + (x + 0.5) * cell;
      ctx.moveTo(cx, oy + 0.5 * cell); ctx.lineTo(cx, oy + (H - 0.5) * cell);
    }
    ctx.stroke();
    const s = cell * 0.64, pad = (cell - s) / 2;
    for (let i = 0; i < W * H; i++) {
      const k = colorKey(owner[i], idle[i]);
      runs[k].push(ox + (i % W) * cell + pad, oy + Math.floor(i / W) * cell + pad, s, s);
    }
    fillRuns(ctx, runs);
    const r = Math.max(3, cell * 0.18);
    ctx.fillStyle = PALETTE.router;
    for (let i = 0; i < W * H; i++) {
      ctx.fillRect(ox + ((i % W) + 0.5) * cell - r / 2, oy + (Math.floor(i / W) + 0.5) * cell - r / 2, r, r);
    }
  } else {
    const gapPx = cell >= 6 ? 1 : 0;
    for (let y = 0; y < H; y++) {
      let x0 = 0;
      const row = y * W;
      let k0 = colorKey(owner[row], idle[row]);
      for (let x = 1; x <= W; x++) {
        const k = x < W ? colorKey(owner[row + x], idle[row + x]) : -1;
        if (k !== k0) {
          runs[k0].push(ox + x0 * cell, oy + y * cell, (x - x0) * cell - gapPx, cell - gapPx);
          x0 = x; k0 = k;
        }
      }
    }
    fillRuns(ctx, runs);
  }

  // Contention on top: thick red links, then red routers with a white rim.
  const hLinks = H * (W - 1);
  const t = lay.detailed ? Math.max(3, cell * 0.16) : Math.max(1, cell * 0.25);
  ctx.fillStyle = PALETTE.contended;
  for (const id of scene.contendedLinks) {
    let x, y, horizontal;
    if (id < hLinks) { y = Math.floor(id / (W - 1)); x = id % (W - 1); horizontal = true; }
    else { const v = id - hLinks; y = Math.floor(v / W); x = v % W; horizontal = false; }
    const cx = ox + (x + 0.5) * cell, cy = oy + (y + 0.5) * cell;
    if (horizontal) ctx.fillRect(cx, cy - t / 2, cell, t);
    else ctx.fillRect(cx - t / 2, cy, t, cell);
  }
  const rs = lay.detailed ? Math.max(6, cell * 0.34) : Math.max(1.5, cell * 0.5);
  for (const id of scene.contendedRouters) {
    const cx = ox + ((id % W) + 0.5) * cell, cy = oy + (Math.floor(id / W) + 0.5) * cell;
    if (lay.detailed) { ctx.fillStyle = '#FFFFFF'; ctx.fillRect(cx - rs / 2 - 1.5, cy - rs / 2 - 1.5, rs + 3, rs + 3); }
    ctx.fillStyle = PALETTE.contended;
    ctx.fillRect(cx - rs / 2, cy - rs / 2, rs, rs);
  }
}

function drawTree(ctx, lay, scene) {
  const { L, N, arities, spacing, offsets, spans, gap, top, leafY, leafSize, leafH, ox } = lay;
  const levelY = (l) => top + l * gap;
  const owner = scene.owner, idle = scene.ownedIdle;

  // Level labels.
  ctx.font = FONT_SMALL; ctx.fillStyle = PALETTE.muted; ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  for (let l = 0; l < L; l++) ctx.fillText(l === 0 ? 'root' : `L${l}`, ox - 10, levelY(l));
  ctx.fillText('nodes', ox - 10, leafY);

  // Links, one path.
  ctx.strokeStyle = PALETTE.link; ctx.lineWidth = 1;
  ctx.beginPath();
  for (let l = 1; l < L; l++) {
    for (let j = 0; j < (offsets[l + 1] ?? lay.routers) - offsets[l]; j++) {
      const p = Math.floor(j / arities[l - 1]);
      ctx.moveTo(treeRouterX(lay, l, j), levelY(l)); ctx.lineTo(treeRouterX(lay, l - 1, p), levelY(l - 1));
    }
  }
  const perSwitch = arities[L - 1];
  if (spacing >= 3) {
    for (let i = 0; i < N; i++) {
      ctx.moveTo(ox + (i + 0.5) * spacing, leafY - leafH / 2);
      ctx.lineTo(treeRouterX(lay, L - 1, Math.floor(i / perSwitch)), levelY(L - 1));
    }
  }
  ctx.stroke();

  // Leaves (compute nodes), merged into runs of equal colour.
  const runs = COLORS.map(() => []);
  const w = lay.strip ? spacing : leafSize;
  const pad = (spacing - w) / 2;
  let i0 = 0, k0 = colorKey(owner[0], idle[0]);
  for (let i = 1; i <= N; i++) {
    const k = i < N ? colorKey(owner[i], idle[i]) : -1;
    if (k !== k0 || !lay.strip) {
      runs[k0].push(ox + i0 * spacing + pad, leafY - leafH / 2, (i - i0) * spacing - 2 * pad, leafH);
      i0 = i; k0 = k;
    }
  }
  fillRuns(ctx, runs);

  // Routers.
  const contended = new Set(scene.contendedRouters);
  ctx.fillStyle = PALETTE.router;
  for (let l = 0; l < L; l++) {
    const rs = Math.max(2, Math.min(10, spans[l] * spacing * 0.5));
    const count = (offsets[l + 1] ?? lay.routers) - offsets[l];
    for (let j = 0; j < count; j++) {
      if (contended.has(offsets[l] + j)) continue;
      ctx.fillRect(treeRouterX(lay, l, j) - rs / 2, levelY(l) - rs / 2, rs, rs);
    }
  }

  // Contended links and routers.
  ctx.strokeStyle = PALETTE.contended; ctx.lineWidth = 3.5;
  ctx.beginPath();
  for (const id of scene.contendedLinks) {
    if (id < lay.routers - 1) {
      const u = id + 1, l = treeLevelOf(lay, u), j = u - offsets[l];
      ctx.moveTo(treeRouterX(lay, l, j), levelY(l));
      ctx.lineTo(treeRouterX(lay, l - 1, Math.floor(j / arities[l - 1])), levelY(l - 1));
    } else {
      const i = id - (lay.routers - 1);
      ctx.moveTo(ox + (i + 0.5) * spacing, leafY - leafH / 2);
      ctx.lineTo(treeRouterX(lay, L - 1, Math.floor(i / perSwitch)), levelY(L - 1));
    }
  }
  ctx.stroke();
  for (const id of contended) {
    const l = treeLevelOf(lay, id);
    const rs = Math.max(7, Math.min(14, spans[l] * spacing * 0.6));
    const x = treeRouterX(lay, l, id - offsets[l]), y = levelY(l);
    ctx.fillStyle = '#FFFFFF'; ctx.fillRect(x - rs / 2 - 1.5, y - rs / 2 - 1.5, rs + 3, rs + 3);
    ctx.fillStyle = PALETTE.contended; ctx.fillRect(x - rs / 2, y - rs / 2, rs, rs);
  }

  const axisY = leafY + leafH / 2 + 6;
  drawAxis(ctx, {
    side: 'bottom', at: axisY, from: ox, to: ox + N * spacing,
    values: ticks(0, N - 1, Math.max(2, (N * spacing) / 60), true), pos: (v) => ox + (v + 0.5) * spacing, label: 'node index',
  });
}

/** A point inside node `id`'s coloured area that nothing else covers (used by tests and tooltips). */
export function nodeSample(layout, id) {
  if (layout.kind === 'mesh') {
    const [x, y] = routerCenter(layout, id);
    return layout.detailed ? [x + layout.cell * 0.25, y + layout.cell * 0.25] : [x, y];
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
    const u = id + 1, l = treeLevelOf(layout, u), j = u - layout.offsets[l];
    a = routerCenter(layout, u);
    b = [treeRouterX(layout, l - 1, Math.floor(j / layout.arities[l - 1])), layout.top + (l - 1) * layout.gap];
  } else {
    const i = id - (layout.routers - 1);
    a = [layout.ox + (i + 0.5) * layout.spacing, layout.leafY - layout.leafH / 2];
    b = [treeRouterX(layout, layout.L - 1, Math.floor(i / layout.arities[layout.L - 1])), layout.top + (layout.L - 1) * layout.gap];
  }
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}
