// Drawing of the trace-prediction engine: the ranking of assignments (bars of predicted time),
// the best assignment's per-rank timeline as a trace viewer draws it, each link's fit
// a0 + a1*N over its samples, and predicted against measured times. Only this file touches a 2D
// context for the trace engine.
import { PALETTE, FONT_SMALL, setupCanvas, ticks, drawAxis, drawTitle, formatTick, jobColor } from './common.js';

/** Timeline segment kinds, in the order of the `kind` codes of the bounded view (trace-data.js). */
export const SEGMENT_KINDS = [
  { id: 'compute', label: 'computation', color: '#0072B2' },
  { id: 'send', label: 'send', color: '#009E73' },
  { id: 'recv', label: 'receive', color: '#E69F00' },
  { id: 'wait', label: 'blocked, waiting for the partner', color: '#CC79A7' },
  { id: 'sleep', label: 'sleep', color: '#999999' },
];
export const BEST_COLOR = '#0072B2';     // the assignment predicted best
export const MEASURED_COLOR = '#1F2328'; // measured times (ticks, points)
export const MEASURED_BEST_COLOR = '#E69F00';
const BAR_COLOR = '#9DB7CF';

/** Time tick labels: `formatTick` with the unit after the axis label. */
const timeLabel = (unit) => (unit ? `time (${unit})` : 'time');

/**
 * Assignments as horizontal bars of predicted time, best first (rows top to bottom), a measured
 * time as a black tick on its bar when given. `items` = [{label, predicted, measured}] in rank
 * order; `best` = index of the predicted best (drawn in BEST_COLOR), `measuredBest` the index of
 * the measured best (its label in MEASURED_BEST_COLOR). Returns {X, rowY} for hit tests.
 */
export function drawRanking(canvas, { width, items, best = 0, measuredBest = -1, unit, title }) {
  const ROW = items.length > 60 ? 8 : items.length > 30 ? 12 : 18;
  const M = { left: 150, right: 16, top: title ? 26 : 8, bottom: 40 };
  const height = M.top + M.bottom + Math.max(1, items.length) * ROW;
  const ctx = setupCanvas(canvas, width, height);
  const w = width - M.left - M.right;
  let tMax = 0;
  for (const it of items) tMax = Math.max(tMax, it.predicted, Number.isFinite(it.measured) ? it.measured : 0);
  if (!(tMax > 0)) tMax = 1;
  const X = (t) => M.left + (t / tMax) * w;
  const rowY = (i) => M.top + i * ROW;
  if (title) drawTitle(ctx, title, 4, 4, width - 8);
  ctx.strokeStyle = '#EEF0F2'; ctx.lineWidth = 1;
  const xt = ticks(0, tMax, 6);
  ctx.beginPath();
  for (const v of xt) { const p = Math.round(X(v)) + 0.5; ctx.moveTo(p, M.top); ctx.lineTo(p, M.top + items.length * ROW); }
  ctx.stroke();
  ctx.font = FONT_SMALL; ctx.textBaseline = 'middle'; ctx.textAlign = 'right';
  items.forEach((it, i) => {
    const y = rowY(i), bh = Math.max(2, ROW - (ROW > 10 ? 4 : 2));
    ctx.fillStyle = i === best ? BEST_COLOR : BAR_COLOR;
    ctx.fillRect(M.left, y + (ROW - bh) / 2, Math.max(1, X(it.predicted) - M.left), bh);
    if (Number.isFinite(it.measured)) {
      ctx.fillStyle = MEASURED_COLOR;
      ctx.fillRect(Math.round(X(it.measured)) - 1, y, 2, ROW);
    }
    if (ROW >= 12) {
      ctx.fillStyle = i === measuredBest ? MEASURED_BEST_COLOR : PALETTE.text;
      let t = it.label;
      while (t.length > 1 && ctx.measureText(t).width > M.left - 10) t = t.slice(0, -2) + '…';
      ctx.fillText(t, M.left - 6, y + ROW / 2);
    }
  });
  drawAxis(ctx, { side: 'bottom', at: M.top + items.length * ROW, from: M.left, to: M.left + w, values: xt, pos: X, label: `predicted ${timeLabel(unit)}` });
  return { X, rowY, height };
}

/** Plot background of the timeline (a column no segment touches). */
export const TIMELINE_BACKGROUND = '#F6F7F8';

/**
 * The per-rank timeline of one replay: a row per rank (rank 0 on top), time across. Each pixel
 * column of a row shows the kind (SEGMENT_KINDS) that covers the largest part of that column's
 * time (ties to the lower kind code), so a long trace reads as a trace viewer's overview and a
 * short one shows every segment; a column no segment touches stays TIMELINE_BACKGROUND.
 * `seg` = {length, rank: Uint32Array, kind: Uint8Array, start: Float64Array, end: Float64Array};
 * `labels[r]` names rank r's row. Returns {X, rowY, rowH, left, columns} (CSS px): column c of
 * the plot spans x = left + c .. left + c + 1 and time c .. c + 1 in units of tMax / columns.
 *
 * # Complexity
 * `O(S + R x C)` for `S` segments, `R` ranks and `C` columns (segments of a rank do not overlap).
 */
export function drawTimeline(canvas, { width, ranks, labels, tMax, seg, unit, title }) {
  const rowH = ranks > 24 ? 10 : ranks > 12 ? 16 : 28;
  const M = { left: 110, right: 16, top: title ? 26 : 8, bottom: 40 };
  const height = M.top + M.bottom + ranks * rowH;
  const ctx = setupCanvas(canvas, width, height);
  const columns = Math.max(1, Math.floor(width - M.left - M.right));
  const span = tMax > 0 ? tMax : 1;
  const X = (t) => M.left + (t / span) * columns;
  const rowY = (r) => M.top + r * rowH;
  if (title) drawTitle(ctx, title, 4, 4, width - 8);
  ctx.fillStyle = TIMELINE_BACKGROUND;
  ctx.fillRect(M.left, M.top, columns, ranks * rowH);
  const K = SEGMENT_KINDS.length;
  const cover = new Float64Array(ranks * columns * K);
  const scale = columns / span;
  for (let i = 0; i < seg.length; i++) {
    const r = seg.rank[i];
    if (r >= ranks) continue;
    const a = Math.max(0, seg.start[i] * scale), b = Math.min(columns, seg.end[i] * scale);
    if (!(b > a)) continue;
    for (let c = Math.floor(a); c < b && c < columns; c++) {
      cover[(r * columns + c) * K + seg.kind[i]] += Math.min(b, c + 1) - Math.max(a, c);
    }
  }
  const pad = rowH > 12 ? 3 : 1;
  for (let r = 0; r < ranks; r++) {
    // runs of columns of one kind, one rectangle each
    let runKind = -1, runStart = 0;
    for (let c = 0; c <= columns; c++) {
      let k = -1;
      if (c < columns) {
        let most = 0;
        for (let q = 0; q < K; q++) {
          const v = cover[(r * columns + c) * K + q];
          if (v > most) { most = v; k = q; }
        }
      }
      if (k !== runKind) {
        if (runKind >= 0) {
          ctx.fillStyle = SEGMENT_KINDS[runKind].color;
          ctx.fillRect(M.left + runStart, rowY(r) + pad, c - runStart, rowH - 2 * pad);
        }
        runKind = k; runStart = c;
      }
    }
  }
  ctx.font = FONT_SMALL; ctx.textBaseline = 'middle'; ctx.textAlign = 'right'; ctx.fillStyle = PALETTE.text;
  for (let r = 0; r < ranks; r++) {
    if (rowH >= 12 || r % 5 === 0) ctx.fillText(labels[r] ?? `rank ${r}`, M.left - 6, rowY(r) + rowH / 2);
  }
  drawAxis(ctx, { side: 'bottom', at: M.top + ranks * rowH, from: M.left, to: M.left + columns, values: ticks(0, span, 7), pos: X, label: timeLabel(unit) });
  return { X, rowY, rowH, left: M.left, columns, height };
}

/** Links drawn as small charts, at most this many (the table lists them all). */
export const MAX_LINK_CHARTS = 16;

/**
 * Each link's samples (points) and its fitted line a0 + a1*N, one small chart per link (message
 * size N across, time up), `links` = [{label, a0, a1, n: Float64Array, t: Float64Array}], shown
 * in a grid `cols` wide. Returns the height used.
 */
export function drawLinkFits(canvas, { width, links, unit }) {
  const shown = links.slice(0, MAX_LINK_CHARTS);
  const cols = Math.max(1, Math.min(shown.length, Math.floor(width / 240)));
  const cw = Math.floor(width / cols), ch = 170;
  const rows = Math.max(1, Math.ceil(shown.length / cols));
  const ctx = setupCanvas(canvas, width, rows * ch);
  shown.forEach((l, i) => {
    const ox = (i % cols) * cw, oy = Math.floor(i / cols) * ch;
    const C = { left: ox + 52, right: ox + cw - 10, top: oy + 22, bottom: oy + ch - 32 };
    let nMax = 0, tMax = 0;
    for (let k = 0; k < l.n.length; k++) { nMax = Math.max(nMax, l.n[k]); tMax = Math.max(tMax, l.t[k]); }
    if (!(nMax > 0)) nMax = 1000;
    tMax = Math.max(tMax, l.a0 + l.a1 * nMax, l.a0);
    if (!(tMax > 0)) tMax = 1;
    const X = (n) => C.left + (n / nMax) * (C.right - C.left);
    const Y = (t) => C.bottom - (t / tMax) * (C.bottom - C.top);
    drawTitle(ctx, `${l.label}: ${formatTick(l.a0)} + ${Number(l.a1.toPrecision(3))}·N`, ox + 6, oy + 3, cw - 12);
    ctx.fillStyle = jobColor(i);
    for (let k = 0; k < l.n.length; k++) ctx.fillRect(X(l.n[k]) - 1.5, Y(l.t[k]) - 1.5, 3, 3);
    ctx.save();
    ctx.beginPath(); ctx.rect(C.left, C.top, C.right - C.left, C.bottom - C.top); ctx.clip();
    ctx.strokeStyle = PALETTE.text; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(X(0), Y(l.a0)); ctx.lineTo(X(nMax), Y(l.a0 + l.a1 * nMax)); ctx.stroke();
    ctx.restore();
    drawAxis(ctx, { side: 'left', at: C.left, from: C.top, to: C.bottom, values: ticks(0, tMax, 3), pos: Y });
    drawAxis(ctx, { side: 'bottom', at: C.bottom, from: C.left, to: C.right, values: ticks(0, nMax, 3), pos: X, label: 'bytes' });
  });
  if (unit) {
    ctx.font = FONT_SMALL; ctx.fillStyle = PALETTE.muted; ctx.textAlign = 'left'; ctx.textBaseline = 'bottom';
    ctx.fillText(`times in ${unit}`, 4, rows * ch - 2);
  }
  return rows * ch;
}

/**
 * Predicted (across) against measured (up) time of every assignment with both, the diagonal
 * dashed; the predicted best ringed in BEST_COLOR, the measured best in MEASURED_BEST_COLOR.
 * `pts` = {predicted: [...], measured: [...]}. Returns {X, Y}.
 */
export function drawScatter(canvas, { width, height, pts, best, measuredBest, unit, title }) {
  const ctx = setupCanvas(canvas, width, height);
  const M = { left: 60, right: 14, top: title ? 26 : 10, bottom: 40 };
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < pts.predicted.length; i++) {
    lo = Math.min(lo, pts.predicted[i], pts.measured[i]);
    hi = Math.max(hi, pts.predicted[i], pts.measured[i]);
  }
  if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
  const pad = (hi - lo) * 0.06 || Math.abs(hi) * 0.1 || 1;
  lo = Math.max(0, lo - pad); hi += pad;
  const w = width - M.left - M.right, h = height - M.top - M.bottom;
  const X = (v) => M.left + ((v - lo) / (hi - lo)) * w;
  const Y = (v) => M.top + h - ((v - lo) / (hi - lo)) * h;
  if (title) drawTitle(ctx, title, 4, 4, width - 8);
  ctx.save();
  ctx.strokeStyle = PALETTE.link; ctx.setLineDash([4, 3]); ctx.lineWidth = 1;
  ctx.beginPath(); ctx.moveTo(X(lo), Y(lo)); ctx.lineTo(X(hi), Y(hi)); ctx.stroke();
  ctx.restore();
  ctx.fillStyle = MEASURED_COLOR;
  for (let i = 0; i < pts.predicted.length; i++) {
    ctx.beginPath(); ctx.arc(X(pts.predicted[i]), Y(pts.measured[i]), 3, 0, 2 * Math.PI); ctx.fill();
  }
  const ring = (i, color) => {
    if (!(i >= 0 && i < pts.predicted.length)) return;
    ctx.strokeStyle = color; ctx.lineWidth = 2.5;
    ctx.beginPath(); ctx.arc(X(pts.predicted[i]), Y(pts.measured[i]), 7, 0, 2 * Math.PI); ctx.stroke();
  };
  ring(measuredBest, MEASURED_BEST_COLOR);
  ring(best, BEST_COLOR);
  drawAxis(ctx, { side: 'left', at: M.left, from: M.top, to: M.top + h, values: ticks(lo, hi, 5), pos: Y, label: `measured ${timeLabel(unit)}`, labelAt: 12 });
  drawAxis(ctx, { side: 'bottom', at: M.top + h, from: M.left, to: M.left + w, values: ticks(lo, hi, 5), pos: X, label: `predicted ${timeLabel(unit)}` });
  return { X, Y };
}
