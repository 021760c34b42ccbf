// Drawing of the placement engine: the machine (tori and meshes as grids, 3D as z-slices side by
// side; trees by levels, hosts at the bottom), each host coloured by the position of the task it
// runs, task-graph edges coloured by hop count, a heat map of link load, the ratio bar chart, and
// a messages job's end times (each message's, each round's).
// Grids with small cells are written pixel by pixel into one ImageData (a 4,096-node map is one
// pass over its pixels), then links and edges as one path per colour.
import { PALETTE, setupCanvas, drawTitle, drawAxis, ticks, jobColor, FONT_SMALL } from './common.js';

export const SLICE_GAP = 6;     // px between z-slices
export const MIN_CELL = 1;      // px
export const MAX_CELL = 28;     // px
export const TITLE_H = 20;      // px
export const TREE_H = 260;      // px
export const HOST_H = 10;       // px, a host's cell on a tree drawing, below its centre's y
export const SWITCH_HIT = 5;    // px, half the side of the square around a tree's switch that names it
export const MAX_EDGES_DRAWN = 20_000;
export const DENSE_POINTS = 2000; // more points per series: written as pixels, not paths
export const IDLE = '#E3E6EA';
export const BUSY = '#8A939C';  // hosts of experiment 2's background jobs

/** Task position colour: a blue-to-yellow ramp (cividis-like, readable in grey), t in [0, 1]. */
const RAMP = [[0, 34, 78], [59, 73, 108], [112, 111, 115], [165, 154, 112], [222, 202, 87], [253, 234, 69]];
export function taskColor(t) {
  const x = Math.max(0, Math.min(1, t)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i;
  return RAMP[i].map((c, k) => Math.round(c + (RAMP[i + 1][k] - c) * f));
}
const rgb = (c) => `rgb(${c[0]},${c[1]},${c[2]})`;
export const TASK_FIRST = rgb(taskColor(0));
export const TASK_LAST = rgb(taskColor(1));

/** Hop-count colours of task-graph edges: 1, 2, 3-4, 5-8, 9+. */
export const HOP_BINS = [
  { max: 1, color: '#009E73', label: '1 hop' },
  { max: 2, color: '#56B4E9', label: '2' },
  { max: 4, color: '#E69F00', label: '3–4' },
  { max: 8, color: '#D55E00', label: '5–8' },
  { max: Infinity, color: '#7A0403', label: '9+' },
];
export function hopBin(h) { return HOP_BINS.findIndex((b) => h <= b.max); }

/** Link load heat: share of the busiest link's bytes (ColorBrewer Reds). */
export const LOAD_BINS = [
  { max: 0.1, color: '#FEE0D2', label: '≤ 10 %' },
  { max: 0.25, color: '#FCBBA1', label: '≤ 25 %' },
  { max: 0.5, color: '#FB6A4A', label: '≤ 50 %' },
  { max: 0.75, color: '#DE2D26', label: '≤ 75 %' },
  { max: Infinity, color: '#99000D', label: '≤ 100 % of the busiest link' },
];
export function loadBin(f) { return LOAD_BINS.findIndex((b) => f <= b.max); }

/**
 * Geometry of a grid machine drawn in `width` CSS px: slices laid out in columns, each `x × y`
 * cells of side `cell`. Returns {kind: 'grid', dims, cell, cols, rows, width, height,
 * cellOf(h) → [left, top, z], center(h) → [px, py]}.
 */
export function gridLayout(dims, width) {
  const [X, Y, Z] = dims;
  // the arrangement of slices giving the biggest cells within a square of side `width`
  let best = null;
  for (let cols = 1; cols <= Z; cols++) {
    const rows = Math.ceil(Z / cols);
    const cellW = Math.floor((width - SLICE_GAP * (cols - 1)) / (cols * X));
    const cellH = Math.floor((width - SLICE_GAP * (rows - 1)) / (rows * Y));
    const c = Math.max(MIN_CELL, Math.min(MAX_CELL, cellW, cellH));
    if (!best || c > best.cell) best = { cols, cell: c };
  }
  best.rows = Math.ceil(Z / best.cols);
  const { cols, rows, cell } = best;
  const sw = cell * X, sh = cell * Y;
  const w = cols * sw + SLICE_GAP * (cols - 1);
  const h = rows * sh + SLICE_GAP * (rows - 1);
  const origin = (z) => [(z % cols) * (sw + SLICE_GAP), TITLE_H + Math.floor(z / cols) * (sh + SLICE_GAP)];
  const cellOf = (hh) => {
    const x = hh % X, y = Math.floor(hh / X) % Y, z = Math.floor(hh / (X * Y));
    const [ox, oy] = origin(z);
    return [ox + x * cell, oy + y * cell, z];
  };
  return {
    kind: 'grid', dims: [X, Y, Z], cell, cols, rows, width: w, height: TITLE_H + h,
    cellOf,
    center: (hh) => { const [px, py] = cellOf(hh); return [px + cell / 2, py + cell / 2]; },
  };
}

/**
 * Geometry of a network seen through its routes (`system.groups`: a dragonfly's nodes per router,
 * routers per chassis, chassis per group, groups; a torus's sides; a file's zones), drawn as
 * nested blocks: the levels alternate between x and y (the lowest along x), and the blocks of
 * every level from the third up are set apart by a gap that grows with the level, so a
 * dragonfly's groups are bands and its chassis blocks. One level alone is a near-square grid.
 * Returns {kind: 'net', hosts, levels (the groups, one level alone made two), axis, gap, cells,
 * gaps (what hitTest inverts), cell, width, height, cellOf, center} (as gridLayout).
 */
export function netLayout(system, width) {
  let g = system.groups.slice();
  if (g.length === 1) { const c = Math.ceil(Math.sqrt(g[0])); g = [c, Math.ceil(g[0] / c)]; }
  // per level: its axis, the cells of one block of it along each axis, and its gap
  const axis = g.map((_, l) => l % 2);
  const gap = g.map((_, l) => (l < 2 ? 0 : 2 * (l - 1)));
  // size[l] = [w, h] in cells and gaps (px added later) of one block of level l
  const cells = [[1, 1]];
  const gaps = [[0, 0]];
  for (let l = 0; l < g.length; l++) {
    const [cw, ch] = cells[l], [gw, gh] = gaps[l];
    if (axis[l] === 0) { cells.push([cw * g[l], ch]); gaps.push([gw * g[l] + gap[l] * (g[l] - 1), gh]); }
    else { cells.push([cw, ch * g[l]]); gaps.push([gw, gh * g[l] + gap[l] * (g[l] - 1)]); }
  }
  const [W, H] = cells[g.length], [GW, GH] = gaps[g.length];
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((width - GW) / W), Math.floor((width - GH) / H)));
  const cellOf = (hh) => {
    let px = 0, py = TITLE_H, r = hh;
    for (let l = 0; l < g.length; l++) {
      const k = r % g[l]; r = Math.floor(r / g[l]);
      const [cw, ch] = cells[l], [gw, gh] = gaps[l];
      if (axis[l] === 0) px += k * (cw * cell + gw + gap[l]);
      else py += k * (ch * cell + gh + gap[l]);
    }
    return [px, py, 0];
  };
  return {
    kind: 'net', hosts: system.hosts, levels: g, axis, gap, cells, gaps,
    cell, cols: 1, rows: 1, width: W * cell + GW, height: TITLE_H + H * cell + GH,
    cellOf,
    center: (hh) => { const [px, py] = cellOf(hh); return [px + cell / 2, py + cell / 2]; },
  };
}

/**
 * Geometry of a tree drawn by levels: hosts on the bottom row (cells HOST_H px high below their
 * centre's y), the switches of each level above, evenly spread. Returns {kind: 'tree', width,
 * height, cell, hosts, rowY(level) (0 = hosts, l + 1 = switch level l), switchesAt (per switch
 * level, its switch ids left to right), center(v) (a host, or switch v - hosts)}.
 */
export function treeLayout(system, width) {
  const hosts = system.hosts;
  const levels = Math.max(0, ...system.switchLevel) + 1;
  const count = new Array(levels).fill(0);
  const pos = new Uint32Array(system.switchLevel.length);
  const switchesAt = count.map(() => []);
  system.switchLevel.forEach((l, i) => { pos[i] = count[l]++; switchesAt[l].push(i); });
  const rowH = (TREE_H - TITLE_H - 16) / levels;
  const yOf = (lvl) => TITLE_H + 8 + (levels - lvl) * rowH; // lvl 0 = hosts at the bottom
  const cell = Math.max(1, Math.min(MAX_CELL, Math.floor(width / hosts)));
  const center = (v) => {
    if (v < hosts) return [(v + 0.5) * (width / hosts), yOf(0)];
    const s = v - hosts, l = system.switchLevel[s];
    return [(pos[s] + 0.5) * (width / count[l]), yOf(l + 1)];
  };
  return { kind: 'tree', width, height: TREE_H, cell, center, hosts, rowY: yOf, switchesAt };
}

/**
 * What is under (x, y), CSS px in a placement panel of `layout`: {type: 'host', id} (a host's
 * cell), {type: 'switch', id, level} (a tree's switch, within SWITCH_HIT px), or null.
 */
export function hitTest(layout, x, y) {
  if (layout.kind === 'grid') return gridHit(layout, x, y);
  if (layout.kind === 'net') return netHit(layout, x, y);
  return treeHit(layout, x, y);
}

/** hitTest on a grid drawing: the slice, then the cell within it (null in the gaps). */
function gridHit(layout, x, y) {
  const { cell, cols, dims: [X, Y, Z] } = layout;
  const sw = cell * X, sh = cell * Y;
  const col = Math.floor(x / (sw + SLICE_GAP)), row = Math.floor((y - TITLE_H) / (sh + SLICE_GAP));
  const z = row * cols + col;
  if (col < 0 || row < 0 || col >= cols || z >= Z) return null;
  const lx = x - col * (sw + SLICE_GAP), ly = y - TITLE_H - row * (sh + SLICE_GAP);
  if (lx >= sw || ly >= sh) return null;
  return { type: 'host', id: (z * Y + Math.floor(ly / cell)) * X + Math.floor(lx / cell) };
}

/** hitTest on a drawing by groups: from the top level down, the block under the point (null in a gap). */
function netHit(layout, x, y) {
  const { levels, axis, gap, cells, gaps, cell } = layout;
  const p = [x, y - TITLE_H];
  let id = 0;
  for (let l = levels.length - 1; l >= 0; l--) {
    const a = axis[l];
    const size = cells[l][a] * cell + gaps[l][a];  // one block of the level below
    const step = size + gap[l];
    const k = Math.floor(p[a] / step);
    if (k < 0 || k >= levels[l] || p[a] - k * step >= size) return null;
    p[a] -= k * step;
    id = id * levels[l] + k;
  }
  if (p[0] < 0 || p[1] < 0 || p[0] >= cell || p[1] >= cell || id >= layout.hosts) return null;
  return { type: 'host', id };
}

/** hitTest on a tree drawing: the hosts' row, else the switch nearest on the row of a level. */
function treeHit(layout, x, y) {
  if (x < 0 || x >= layout.width) return null;
  const y0 = layout.rowY(0);
  if (y >= y0 && y <= y0 + HOST_H) {
    const id = Math.floor(x / (layout.width / layout.hosts));
    return id < layout.hosts ? { type: 'host', id } : null;
  }
  for (let l = 0; l < layout.switchesAt.length; l++) {
    if (Math.abs(y - layout.rowY(l + 1)) > SWITCH_HIT) continue;
    const ids = layout.switchesAt[l];
    if (!ids.length) continue;
    const k = Math.floor(x / (layout.width / ids.length));
    const [cx] = layout.center(layout.hosts + ids[k]);
    if (Math.abs(x - cx) <= SWITCH_HIT) return { type: 'switch', id: ids[k], level: l };
  }
  return null;
}

/** A point (CSS px) inside host `h`'s cell of `layout`, where hitTest finds it. */
export function hostPoint(layout, h) {
  const [x, y] = layout.center(h);
  return layout.kind === 'tree' ? [x, y + HOST_H / 2] : [x, y];
}

/**
 * Draws one strategy's placement: `scene` = {system, hosts (task → host, Uint32Array), busy (the
 * background jobs' hosts: a Set, or a Map to their job), edges (Uint32Array u,v pairs), edgeHops
 * (Uint8Array), linkBytes (Float64Array), layers: {tasks, edges, heat}, title}. Returns {layout,
 * edgesDrawn}.
 */
export function drawPlacement(canvas, width, scene) {
  const sys = scene.system;
  // a network seen through its routes is drawn as a grid of its groups
  const grid = !!sys.dims || !!sys.groups;
  const layout = sys.groups ? netLayout(sys, width) : grid ? gridLayout(sys.dims, width) : treeLayout(sys, width);
  const ctx = setupCanvas(canvas, Math.max(layout.width, 120), layout.height);
  drawTitle(ctx, scene.title, 0, 2, layout.width);
  const n = sys.hosts;
  const taskOf = new Int32Array(n).fill(-1);
  const hosts = scene.hosts || new Uint32Array(0);
  for (let t = 0; t < hosts.length; t++) taskOf[hosts[t]] = t;
  const tasks = Math.max(1, hosts.length - 1);
  const hostColor = (h) => {
    if (scene.layers.tasks && taskOf[h] >= 0) return taskColor(taskOf[h] / tasks);
    if (taskOf[h] >= 0) return [190, 200, 214];
    if (scene.busy && scene.busy.has(h)) return [138, 147, 156];
    return [227, 230, 234];
  };
  if (grid) {
    // hosts: one ImageData for the whole map
    const dpr = window.devicePixelRatio || 1;
    const c = layout.cell;
    const img = ctx.createImageData(Math.max(1, Math.round(layout.width * dpr)), Math.max(1, Math.round((layout.height - TITLE_H) * dpr)));
    const data = img.data;
    const inset = c >= 4 ? 1 : 0;
    for (let h = 0; h < n; h++) {
      const col = hostColor(h);
      const [px, py] = layout.cellOf(h);
      const x0 = Math.round((px + inset) * dpr), y0 = Math.round((py - TITLE_H + inset) * dpr);
      const x1 = Math.round((px + c - inset) * dpr), y1 = Math.round((py - TITLE_H + c - inset) * dpr);
      for (let y = y0; y < Math.max(y1, y0 + 1); y++) {
        let o = (y * img.width + x0) * 4;
        for (let x = x0; x < Math.max(x1, x0 + 1); x++, o += 4) {
          data[o] = col[0]; data[o + 1] = col[1]; data[o + 2] = col[2]; data[o + 3] = 255;
        }
      }
    }
    ctx.putImageData(img, 0, Math.round(TITLE_H * dpr));
  }
  // links: heat map (grid: between neighbouring cells, wrap links as stubs; tree: every link)
  const ends = sys.linkEnds;
  const bytes = scene.linkBytes;
  if (scene.layers.heat && bytes && bytes.length) {
    let max = 0;
    for (let l = 0; l < bytes.length; l++) if (bytes[l] > max) max = bytes[l];
    if (max > 0) {
      const paths = LOAD_BINS.map(() => new Path2D());
      for (let l = 0; l < bytes.length; l++) {
        let load = bytes[l];
        const a = ends[2 * l], b = ends[2 * l + 1];
        // a tree draws a link's two directions on one line: once, in the busier one's colour
        if (!grid && l + 1 < bytes.length && ends[2 * l + 2] === b && ends[2 * l + 3] === a) load = Math.max(load, bytes[++l]);
        if (!(load > 0)) continue;
        const bin = paths[loadBin(load / max)];
        const [ax, ay] = layout.center(a);
        let [bx, by] = layout.center(b);
        if (grid) {
          const d = Math.abs(ax - bx) + Math.abs(ay - by);
          if (d > layout.cell * 1.5) { bx = ax + Math.sign(bx - ax) * layout.cell * 0.45; by = ay + Math.sign(by - ay) * layout.cell * 0.45; }
          // the two directions of a link side by side
          const off = a < b ? -0.15 : 0.15;
          const ox = ay === by ? 0 : off * layout.cell, oy = ax === bx ? 0 : off * layout.cell;
          bin.moveTo(ax + ox, ay + oy);
          bin.lineTo(bx + ox, by + oy);
        } else {
          bin.moveTo(ax, ay);
          bin.lineTo(bx, by);
        }
      }
      ctx.lineWidth = grid ? Math.max(1, layout.cell * 0.22) : 1.5;
      LOAD_BINS.forEach((b, i) => { ctx.strokeStyle = b.color; ctx.stroke(paths[i]); });
    }
  } else if (!grid) {
    ctx.strokeStyle = '#D5DAE0'; ctx.lineWidth = 0.5;
    ctx.beginPath();
    for (let l = 0; l < ends.length / 2; l += 2) {
      const [ax, ay] = layout.center(ends[2 * l]); const [bx, by] = layout.center(ends[2 * l + 1]);
      ctx.moveTo(ax, ay); ctx.lineTo(bx, by);
    }
    ctx.stroke();
  }
  if (!grid) {
    // switches as small squares, hosts as cells on the bottom row
    ctx.fillStyle = PALETTE.router;
    for (let v = n; v < sys.hosts + sys.switches; v++) { const [x, y] = layout.center(v); ctx.fillRect(x - 1.5, y - 1.5, 3, 3); }
    const w = Math.max(1, layout.width / n);
    if (w > 3) {
      for (let h = 0; h < n; h++) {
        const [x, y] = layout.center(h);
        ctx.fillStyle = rgb(hostColor(h));
        ctx.fillRect(x - w / 2 + 0.5, y, w - 1, HOST_H);
      }
    } else {
      // hosts narrower than 3 px tile the row: one ImageData, each device pixel column the
      // colour of the host under its centre (4,096 fill styles parsed cost tens of ms)
      const dpr = window.devicePixelRatio || 1;
      const y = layout.center(0)[1];
      const img = ctx.createImageData(Math.max(1, Math.round(layout.width * dpr)), Math.max(1, Math.round(HOST_H * dpr)));
      const data = img.data, stride = img.width * 4;
      for (let px = 0; px < img.width; px++) {
        const col = hostColor(Math.min(n - 1, Math.floor(((px + 0.5) / dpr) * n / layout.width)));
        data[4 * px] = col[0]; data[4 * px + 1] = col[1]; data[4 * px + 2] = col[2]; data[4 * px + 3] = 255;
      }
      for (let r = 1; r < img.height; r++) data.copyWithin(r * stride, 0, stride);
      // through a scratch canvas: putImageData on this one would rasterize the links first
      const row = new OffscreenCanvas(img.width, img.height);
      row.getContext('2d').putImageData(img, 0, 0);
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(row, 0, Math.round(y * dpr));
      ctx.restore();
    }
  }
  // task-graph edges by hop count (a sample of at most MAX_EDGES_DRAWN, evenly spread)
  let edgesDrawn = 0;
  if (scene.layers.edges && scene.edges && scene.edgeHops && scene.edgeHops.length) {
    const m = scene.edgeHops.length;
    const step = Math.max(1, Math.ceil(m / MAX_EDGES_DRAWN));
    const paths = HOP_BINS.map(() => new Path2D());
    for (let e = 0; e < m; e += step) {
      const [ax, ay] = layout.center(hosts[scene.edges[2 * e]]);
      const [bx, by] = layout.center(hosts[scene.edges[2 * e + 1]]);
      const p = paths[hopBin(scene.edgeHops[e])];
      if (grid) { p.moveTo(ax, ay); p.lineTo(bx, by); }
      else { const my = Math.min(ay, by) - 14 - 6 * scene.edgeHops[e]; p.moveTo(ax, ay); p.quadraticCurveTo((ax + bx) / 2, my, bx, by); }
      edgesDrawn++;
    }
    ctx.lineWidth = 1;
    ctx.globalAlpha = 0.8;
    HOP_BINS.forEach((b, i) => { ctx.strokeStyle = b.color; ctx.stroke(paths[i]); });
    ctx.globalAlpha = 1;
  }
  if (grid && !sys.groups && sys.dims[2] > 1 && layout.cell >= 6) {
    ctx.fillStyle = PALETTE.muted; ctx.font = FONT_SMALL; ctx.textBaseline = 'top';
    for (let z = 0; z < sys.dims[2]; z++) {
      const [px, py] = layout.cellOf(z * sys.dims[0] * sys.dims[1]);
      if (z < 1 || layout.cell * sys.dims[0] > 40) ctx.fillText(`z=${z}`, px + 1, py - 12 > TITLE_H - 4 ? py - 12 : py + 1);
    }
  }
  return { layout, edgesDrawn };
}

/**
 * Grouped bars of the averaged ratio table: per row (job kind and message size) one bar per
 * strategy (time / Advanced's), the source's figure as a black tick on the bar, a line at 1.
 */
export function drawRatioBars(canvas, { width, height, rows, strategies, labels }) {
  const ctx = setupCanvas(canvas, width, height);
  const M = { left: 46, right: 12, top: 26, bottom: 40 };
  const w = width - M.left - M.right, h = height - M.top - M.bottom;
  drawTitle(ctx, 'Time / Advanced\'s time, mean over job sizes (black ticks: the source)', M.left, 4, w);
  let yMax = 1.2;
  for (const r of rows) for (let s = 0; s < strategies.length; s++) {
    yMax = Math.max(yMax, r.ratios[s] ?? 0, r.source[s] ?? 0);
  }
  yMax *= 1.05;
  const Y = (v) => M.top + h - (v / yMax) * h;
  const groupW = w / Math.max(1, rows.length);
  const barW = Math.max(2, (groupW - 10) / Math.max(1, strategies.length));
  const yt = ticks(0, yMax, 5);
  ctx.strokeStyle = '#EEF0F2'; ctx.lineWidth = 1; ctx.beginPath();
  for (const v of yt) { const p = Math.round(Y(v)) + 0.5; ctx.moveTo(M.left, p); ctx.lineTo(M.left + w, p); }
  ctx.stroke();
  const bars = [];
  rows.forEach((r, g) => {
    const x0 = M.left + g * groupW + 5;
    strategies.forEach((s, k) => {
      const v = r.ratios[k];
      const x = x0 + k * barW;
      if (v !== null && v !== undefined) {
        ctx.fillStyle = jobColor(k);
        ctx.fillRect(x, Y(v), barW - 1, M.top + h - Y(v));
        bars.push({ row: g, strategy: s, value: v, x, y: Y(v) });
      }
      const src = r.source[k];
      if (src !== null && src !== undefined) {
        ctx.fillStyle = PALETTE.text;
        ctx.fillRect(x - 1, Math.round(Y(src)) - 1, barW + 1, 3);
      }
    });
    ctx.fillStyle = PALETTE.text; ctx.font = FONT_SMALL; ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    ctx.fillText(labels[g], M.left + g * groupW + groupW / 2, M.top + h + 4, groupW - 2);
  });
  ctx.textAlign = 'left';
  ctx.strokeStyle = PALETTE.contended; ctx.setLineDash([4, 3]); ctx.beginPath();
  ctx.moveTo(M.left, Math.round(Y(1)) + 0.5); ctx.lineTo(M.left + w, Math.round(Y(1)) + 0.5); ctx.stroke(); ctx.setLineDash([]);
  drawAxis(ctx, { side: 'left', at: M.left, from: M.top, to: M.top + h, values: yt, pos: Y, label: 'ratio', labelAt: 12 });
  return { bars };
}

/**
 * End times (s) by index: each series one strategy's `values` (value i at x = i + xFrom), drawn
 * as dots (`dots`: a message's end, no order between messages) or as a line with markers (rounds).
 * The time axis is in ms from the job's start. Returns {points: [{series, i, x, y}]} (a sample,
 * for tests).
 */
export function drawEndTimes(canvas, { width, height, series, title, xLabel, xFrom = 0, dots = false }) {
  const ctx = setupCanvas(canvas, width, height);
  const M = { left: 56, right: 14, top: 26, bottom: 40 };
  const w = width - M.left - M.right, h = height - M.top - M.bottom;
  drawTitle(ctx, title, M.left, 4, w);
  const n = Math.max(1, ...series.map((s) => s.values.length));
  let yMax = 0;
  for (const s of series) for (const v of s.values) if (v > yMax) yMax = v;
  yMax = (yMax > 0 ? yMax : 1e-3) * 1e3 * 1.05; // ms
  const xMin = xFrom, xMax = xFrom + n - 1;
  // half a step of room at both ends, so that the first and last points clear the axes
  const X = (v) => M.left + ((v - xMin + 0.5) / (xMax - xMin + 1)) * w;
  const Y = (ms) => M.top + h - (ms / yMax) * h;
  const yt = ticks(0, yMax, 5);
  ctx.strokeStyle = '#EEF0F2'; ctx.lineWidth = 1; ctx.beginPath();
  for (const v of yt) { const p = Math.round(Y(v)) + 0.5; ctx.moveTo(M.left, p); ctx.lineTo(M.left + w, p); }
  ctx.stroke();
  const points = [];
  const r = dots ? 2.5 : 3;
  if (dots && n > DENSE_POINTS) {
    // many messages (up to 100,000 per strategy): each a 2x2-device-pixel dot written into the
    // plot's pixels, one pass over the points, later strategies over earlier ones
    const dpr = window.devicePixelRatio || 1;
    const [px0, py0] = [Math.floor(M.left * dpr), Math.floor(M.top * dpr)];
    const [pw, ph] = [Math.max(1, Math.ceil(w * dpr)), Math.max(1, Math.ceil(h * dpr) + 2)];
    const img = ctx.getImageData(px0, py0, pw, ph);
    series.forEach((s, k) => {
      const [cr, cg, cb] = [1, 3, 5].map((i) => parseInt(s.color.slice(i, i + 2), 16));
      s.values.forEach((v, i) => {
        const x = X(i + xFrom), y = Y(v * 1e3);
        if (points.length < 10_000) points.push({ series: k, i, x, y });
        const qx = Math.round(x * dpr) - px0 - 1, qy = Math.round(y * dpr) - py0 - 1;
        for (let ddy = 0; ddy < 2; ddy++) for (let ddx = 0; ddx < 2; ddx++) {
          const ax = qx + ddx, ay = qy + ddy;
          if (ax < 0 || ay < 0 || ax >= pw || ay >= ph) continue;
          const o = (ay * pw + ax) * 4;
          img.data[o] = cr; img.data[o + 1] = cg; img.data[o + 2] = cb; img.data[o + 3] = 255;
        }
      });
    });
    ctx.putImageData(img, px0, py0);
  }
  series.forEach((s, k) => {
    if (dots && n > DENSE_POINTS) return;
    // strategies at the same x side by side, so that equal times stay visible
    const dx = series.length > 1 && n > 1 ? Math.min(3, w / n / (series.length + 1)) * (k - (series.length - 1) / 2) : 0;
    ctx.fillStyle = s.color; ctx.strokeStyle = s.color; ctx.lineWidth = 1.5;
    if (!dots) {
      ctx.beginPath();
      s.values.forEach((v, i) => { const x = X(i + xFrom) + dx, y = Y(v * 1e3); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
      ctx.stroke();
    }
    ctx.beginPath();
    s.values.forEach((v, i) => {
      const x = X(i + xFrom) + dx, y = Y(v * 1e3);
      ctx.moveTo(x + r, y); ctx.arc(x, y, r, 0, 2 * Math.PI);
      if (points.length < 10_000) points.push({ series: k, i, x, y });
    });
    ctx.fill();
  });
  drawAxis(ctx, { side: 'left', at: M.left, from: M.top, to: M.top + h, values: yt, pos: Y, label: 'end time (ms)', labelAt: 12 });
  drawAxis(ctx, { side: 'bottom', at: M.top + h, from: M.left, to: M.left + w, values: ticks(xMin, xMax, Math.min(10, n), true), pos: X, label: xLabel });
  return { points };
}
