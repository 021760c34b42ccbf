// Drawing of a partitioned graph: vertices in their part's colour at the report's coordinates (or
// force layout), cut edges highlighted in red; the part-to-part graph of big graphs (parts as
// discs sized by weight, edges as lines as thick as their cut weight); balance bars with targets.
import { PALETTE, FONT_SMALL, jobColor, setupCanvas, drawTitle, drawAxis, ticks } from './common.js';

export const DRAW_SCALE = 10_000;     // the report's coordinates run from 0 to this
const MARGIN = { left: 8, right: 8, top: 24, bottom: 8 };   // px
const MAX_PANEL_ASPECT = 1.4;          // panel height / width at most
const CUT_COLOR = PALETTE.contended;
const EDGE_COLOR = '#C3C9D0';
const MAX_DISC_R = 28;                 // px, the heaviest part's disc
const MAX_QUOTIENT_LINE = 8;           // px, the heaviest part-to-part edge
const PIXEL_VERTICES = 5_000;          // more vertices than this are written as pixels

/** Colour of part `p` (the job palette: colour-blind safe, no reds; colours repeat past 12). */
export const partColor = (p) => jobColor(p);

/** The extent of a drawing's coordinates: {maxX, maxY} (at least 1). */
export function extent(xy) {
  let maxX = 1, maxY = 1;
  for (let i = 0; i < xy.length; i += 2) { if (xy[i] > maxX) maxX = xy[i]; if (xy[i + 1] > maxY) maxY = xy[i + 1]; }
  return { maxX, maxY };
}

/**
 * Panel geometry for `width` CSS px: {width, height, x(v), y(v), scale}, where x/y map the
 * report's whole-number coordinates to pixels (one scale for both axes), `pad` px inside the
 * margins (room for the discs of a part-to-part drawing).
 */
export function panelLayout(xy, width, pad = 0) {
  const { maxX, maxY } = extent(xy);
  const w = width - MARGIN.left - MARGIN.right - 2 * pad;
  const scale = Math.min(w / maxX, (w * MAX_PANEL_ASPECT) / maxY);
  const height = Math.ceil(MARGIN.top + MARGIN.bottom + 2 * pad + maxY * scale);
  const x0 = MARGIN.left + pad + (w - maxX * scale) / 2;
  const y0 = MARGIN.top + pad;
  return { width, height, scale, x: (v) => x0 + v * scale, y: (v) => y0 + v * scale };
}

/** Radius of the heaviest part's disc in a part-to-part drawing `width` px wide with `k` parts. */
export function maxDiscRadius(width, k) {
  return Math.max(2, Math.min(MAX_DISC_R, width / (2 * Math.sqrt(Math.max(1, k)))));
}

/** Half the side of a vertex's square, CSS px: a quarter of the mean spacing, from 0.75 to 4. */
export function vertexRadius(layout, n) {
  return Math.max(0.75, Math.min(4, (layout.scale * DRAW_SCALE) / Math.sqrt(Math.max(1, n)) / 4));
}

/** A vertex's square snapped to whole CSS px (crisp, no blur): [left, top, side]. */
export function vertexBox(layout, xy, v, r) {
  const size = Math.max(1, Math.round(2 * r));
  return [Math.round(layout.x(xy[2 * v]) - size / 2), Math.round(layout.y(xy[2 * v + 1]) - size / 2), size];
}

/**
 * Draws one method's partition: `scene` = {xy, edges, cut, part, title, maxSegments}. Uncut edges
 * are drawn only when all drawn edges fit in `maxSegments`; cut edges always, thinned evenly when
 * there are more than `maxSegments` of them. Returns {cutDrawn, cutTotal, edgesDrawn}.
 */
export function drawPartition(canvas, layout, scene) {
  const { xy, edges, cut, part, title, maxSegments } = scene;
  const ctx = setupCanvas(canvas, layout.width, layout.height);
  drawTitle(ctx, title, MARGIN.left, 4, layout.width - 16);
  const n = xy.length / 2;
  const m = edges.length / 2;
  let cutTotal = 0;
  for (let e = 0; e < cut.length; e++) cutTotal += cut[e];
  const X = layout.x, Y = layout.y;
  const lineW = Math.max(0.4, Math.min(1.5, layout.scale * DRAW_SCALE / Math.sqrt(Math.max(1, n)) / 8));
  let edgesDrawn = 0;
  if (m <= maxSegments) {
    ctx.strokeStyle = EDGE_COLOR; ctx.lineWidth = lineW;
    ctx.beginPath();
    for (let e = 0; e < m; e++) {
      if (cut[e]) continue;
      const u = edges[2 * e], v = edges[2 * e + 1];
      ctx.moveTo(X(xy[2 * u]), Y(xy[2 * u + 1])); ctx.lineTo(X(xy[2 * v]), Y(xy[2 * v + 1]));
      edgesDrawn++;
    }
    ctx.stroke();
  }
  // vertices: squares of side 2r, one path per colour; on big graphs written straight into the
  // pixels (one pass, no path of 100,000 rectangles)
  const r = vertexRadius(layout, n);
  if (n > PIXEL_VERTICES) drawVertexPixels(canvas, ctx, layout, xy, part, r);
  else {
    const byColor = new Map();
    for (let v = 0; v < n; v++) {
      const c = part ? partColor(part[v]) : PALETTE.idle;
      let list = byColor.get(c);
      if (!list) { list = []; byColor.set(c, list); }
      list.push(v);
    }
    for (const [color, list] of byColor) {
      ctx.fillStyle = color;
      ctx.beginPath();
      for (const v of list) { const [bx, by, size] = vertexBox(layout, xy, v, r); ctx.rect(bx, by, size, size); }
      ctx.fill();
    }
  }
  // cut edges on top
  const step = cutTotal > maxSegments ? cutTotal / maxSegments : 1;
  let cutDrawn = 0;
  ctx.strokeStyle = CUT_COLOR; ctx.lineWidth = Math.max(1, lineW * 1.4);
  ctx.beginPath();
  let next = 0, seen = 0;
  for (let e = 0; e < m; e++) {
    if (!cut[e]) continue;
    if (seen++ < next) continue;
    next += step;
    const u = edges[2 * e], v = edges[2 * e + 1];
    ctx.moveTo(X(xy[2 * u]), Y(xy[2 * u + 1])); ctx.lineTo(X(xy[2 * v]), Y(xy[2 * v + 1]));
    cutDrawn++;
  }
  ctx.stroke();
  return { cutDrawn, cutTotal, edgesDrawn };
}

/** Vertex squares written into the canvas's pixels (device pixels, over what is drawn so far). */
function drawVertexPixels(canvas, ctx, layout, xy, part, r) {
  const W = canvas.width, H = canvas.height;
  const ratio = W / layout.width;
  const img = ctx.getImageData(0, 0, W, H);
  const px = new Uint32Array(img.data.buffer);
  // ABGR words of the part colours (little-endian, as every browser we target)
  const words = Array.from({ length: 12 }, (_, p) => {
    const c = parseInt(partColor(p).slice(1), 16);
    return (0xff000000 | ((c & 0xff) << 16) | (c & 0xff00) | ((c >> 16) & 0xff)) >>> 0;
  });
  const idle = parseInt(PALETTE.idle.slice(1), 16);
  const idleWord = (0xff000000 | ((idle & 0xff) << 16) | (idle & 0xff00) | ((idle >> 16) & 0xff)) >>> 0;
  const n = xy.length / 2;
  for (let v = 0; v < n; v++) {
    const [bx, by, size] = vertexBox(layout, xy, v, r);
    const word = part ? words[part[v] % 12] : idleWord;
    const x0 = Math.max(0, Math.round(bx * ratio)), x1 = Math.min(W, Math.round((bx + size) * ratio));
    const y0 = Math.max(0, Math.round(by * ratio)), y1 = Math.min(H, Math.round((by + size) * ratio));
    for (let y = y0; y < y1; y++) px.fill(word, y * W + x0, y * W + x1);
  }
  ctx.putImageData(img, 0, 0);
}

/**
 * Draws a part-to-part graph: `scene` = {xy (per part), edges (p, q, w triples), weights, title}.
 * Disc area is proportional to the part's weight; line width to the pair's cut weight.
 */
export function drawQuotient(canvas, layout, scene) {
  const { xy, edges, tree = [], weights, title } = scene;
  const ctx = setupCanvas(canvas, layout.width, layout.height);
  drawTitle(ctx, title, MARGIN.left, 4, layout.width - 16);
  const k = xy.length / 2;
  const X = layout.x, Y = layout.y;
  let maxW = 1;
  for (let i = 2; i < edges.length; i += 3) maxW = Math.max(maxW, edges[i]);
  const maxR = maxDiscRadius(layout.width, k);
  let maxPart = 1;
  for (const w of weights) maxPart = Math.max(maxPart, w);
  ctx.strokeStyle = CUT_COLOR;
  ctx.globalAlpha = 0.6;
  for (let i = 0; i < edges.length; i += 3) {
    const p = edges[i], q = edges[i + 1];
    ctx.lineWidth = Math.max(0.5, (MAX_QUOTIENT_LINE * edges[i + 2]) / maxW);
    ctx.beginPath(); ctx.moveTo(X(xy[2 * p]), Y(xy[2 * p + 1])); ctx.lineTo(X(xy[2 * q]), Y(xy[2 * q + 1])); ctx.stroke();
  }
  ctx.globalAlpha = 1;
  // the heaviest spanning tree (the report's `tree`) on top: the part-to-part links that carry most
  ctx.strokeStyle = PALETTE.text; ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let i = 0; i < tree.length; i += 3) {
    const p = tree[i], q = tree[i + 1];
    ctx.moveTo(X(xy[2 * p]), Y(xy[2 * p + 1])); ctx.lineTo(X(xy[2 * q]), Y(xy[2 * q + 1]));
  }
  ctx.stroke();
  ctx.font = FONT_SMALL; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
  for (let p = 0; p < k; p++) {
    const rad = Math.max(1.5, maxR * Math.sqrt(weights[p] / maxPart));
    ctx.fillStyle = partColor(p);
    ctx.beginPath(); ctx.arc(X(xy[2 * p]), Y(xy[2 * p + 1]), rad, 0, 2 * Math.PI); ctx.fill();
    ctx.strokeStyle = PALETTE.background; ctx.lineWidth = 1; ctx.stroke();
    if (k <= 32 && rad >= 8) { ctx.fillStyle = PALETTE.background; ctx.fillText(String(p), X(xy[2 * p]), Y(xy[2 * p + 1])); }
  }
}

/**
 * Balance bars: one bar per part (its weight, in its colour), a black tick at the part's target
 * weight and a dashed line at the largest allowed weight, `(1 + ufactor/1000)` times the target.
 * `scene` = {weights, targets (weights), maxImbalance, title}.
 */
export function drawBalance(canvas, { width, height, weights, targets, maxImbalance, title }) {
  const ctx = setupCanvas(canvas, width, height);
  const M = { left: 54, right: 10, top: 22, bottom: 30 };
  const w = width - M.left - M.right, h = height - M.top - M.bottom;
  drawTitle(ctx, title, M.left, 3, w);
  const k = weights.length;
  let yMax = 1;
  for (let p = 0; p < k; p++) yMax = Math.max(yMax, weights[p], targets[p] * maxImbalance);
  yMax *= 1.05;
  const Y = (v) => M.top + h - (v / yMax) * h;
  const bw = w / Math.max(1, k);
  for (let p = 0; p < k; p++) {
    ctx.fillStyle = partColor(p);
    const top = Y(weights[p]);
    ctx.fillRect(M.left + p * bw + (bw > 3 ? 0.5 : 0), top, Math.max(0.5, bw - (bw > 3 ? 1 : 0)), M.top + h - top);
  }
  ctx.strokeStyle = PALETTE.text; ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let p = 0; p < k; p++) { const y = Math.round(Y(targets[p])) + 0.5; ctx.moveTo(M.left + p * bw, y); ctx.lineTo(M.left + (p + 1) * bw, y); }
  ctx.stroke();
  ctx.setLineDash([3, 3]); ctx.lineWidth = 1; ctx.strokeStyle = CUT_COLOR;
  ctx.beginPath();
  for (let p = 0; p < k; p++) { const y = Math.round(Y(targets[p] * maxImbalance)) + 0.5; ctx.moveTo(M.left + p * bw, y); ctx.lineTo(M.left + (p + 1) * bw, y); }
  ctx.stroke();
  ctx.setLineDash([]);
  drawAxis(ctx, { side: 'left', at: M.left, from: M.top, to: M.top + h, values: ticks(0, yMax, 4), pos: Y, label: 'weight', labelAt: 12 });
  const xt = ticks(0, Math.max(0, k - 1), Math.min(k, 8), true);
  drawAxis(ctx, { side: 'bottom', at: M.top + h, from: M.left, to: M.left + w, values: xt, pos: (p) => M.left + (p + 0.5) * bw, label: 'part' });
}
