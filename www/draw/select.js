// Drawings of the selection engine: the predicted time T(P) as stacked terms, the reservation
// protocol as a timeline (lanes, messages as arrows, a cursor), and the all-to-all layouts as bars.
// Everything is drawn in CSS pixels on canvases sized by setupCanvas (devicePixelRatio).
import { PALETTE, FONT, FONT_SMALL, setupCanvas, drawAxis, drawTitle, ticks, formatTick, jobColor, tint } from './common.js';

/** The four stacked terms, bottom to top (Okabe–Ito colours). */
export const TERMS = [
  { key: 'ts', label: 'Ts: loading', color: '#56B4E9' },
  { key: 'tc', label: 'Tc: communication', color: '#E69F00' },
  { key: 'tr', label: 'Tr: collection', color: '#009E73' },
  { key: 'to', label: 'To/(1 − η): compute, paced by the most loaded', color: '#0072B2' },
];
export const CHOSEN_COLOR = '#000000';
export const BAND_COLOR = '#6B7280';
export const LOST_COLOR = PALETTE.contended;

const CURVE_MARGIN = { left: 64, right: 16, top: 28, bottom: 40 }; // px
/** Bars are drawn for up to this many P; beyond, stacked areas. */
const MAX_BARS = 160;
/** The y axis stops at this multiple of the best time, so the minimum stays readable. */
const Y_CLIP_FACTOR = 4;
/** Vertices per pixel column of the stacked areas (the total T(P) line keeps every point). */
const AREA_POINTS_PER_PX = 8;

/** Time in the formulas' unit (ms) as text: seconds from 1000 ms. */
export function formatMs(v) {
  if (!Number.isFinite(v)) return '—';
  if (Math.abs(v) >= 1000) return `${(v / 1000).toPrecision(4)} s`;
  return `${v.toPrecision(4)} ms`;
}

/** The value of the top of the stack at index i: T, or its terms' sum. */
function stackTop(c, i) {
  return c.ts[i] + c.tc[i] + c.tr[i] + c.to[i] * c.pace[i];
}

/**
 * The T(P) chart. `c` is the bounded curve (typed arrays, index P - 1); `marks` {best, all,
 * minUpper, minRegret} are P values (or undefined). Returns {yMax, clipped, x(P), y(v)}.
 */
export function drawCurve(canvas, { width, height, curve: c, marks = {}, title }) {
  const ctx = setupCanvas(canvas, width, height);
  const M = CURVE_MARGIN;
  const w = width - M.left - M.right, h = height - M.top - M.bottom;
  const n = c.length;
  // the axis runs to the last P (Q): a live preview keeps fewer points than P values
  const pMax = n ? c.p[n - 1] : 1;
  if (title) drawTitle(ctx, title, M.left, 6, w);
  let tMax = 0, best = Infinity;
  for (let i = 0; i < n; i++) {
    if (!c.allowed[i]) continue;
    const top = Math.max(stackTop(c, i), c.hasBand && Number.isFinite(c.tHi[i]) ? c.tHi[i] : 0);
    if (Number.isFinite(top)) tMax = Math.max(tMax, top);
    if (Number.isFinite(c.t[i])) best = Math.min(best, c.t[i]);
  }
  const clipped = Number.isFinite(best) && best > 0 && tMax > Y_CLIP_FACTOR * best;
  const yMax = clipped ? Y_CLIP_FACTOR * best : tMax > 0 ? tMax * 1.05 : 1;
  const X = (p) => M.left + ((p - 0.5) / Math.max(1, pMax)) * w;
  const Y = (v) => M.top + h - (Math.min(v, yMax) / yMax) * h;
  const band = w / Math.max(1, pMax);
  // grid
  const yt = ticks(0, yMax, 5);
  ctx.strokeStyle = '#EEF0F2'; ctx.lineWidth = 1; ctx.beginPath();
  for (const v of yt) { const p = Math.round(Y(v)) + 0.5; ctx.moveTo(M.left, p); ctx.lineTo(M.left + w, p); }
  ctx.stroke();
  if (pMax <= MAX_BARS) {
    const bw = Math.max(1, band * 0.8);
    for (let i = 0; i < n; i++) {
      const x = X(c.p[i]) - bw / 2;
      if (!c.allowed[i] || !Number.isFinite(stackTop(c, i))) {
        ctx.fillStyle = PALETTE.muted; ctx.font = FONT_SMALL; ctx.textAlign = 'center'; ctx.textBaseline = 'bottom';
        ctx.fillText('×', x + bw / 2, M.top + h - 2);
        continue;
      }
      let base = 0;
      for (const term of TERMS) {
        const v = term.key === 'to' ? c.to[i] * c.pace[i] : c[term.key][i];
        if (!(v > 0)) continue;
        ctx.fillStyle = term.color;
        const y0 = Y(base), y1 = Y(base + v);
        ctx.fillRect(x, y1, bw, y0 - y1);
        base += v;
      }
      if (base > yMax) { // clipped bar: a break mark at the top
        ctx.fillStyle = PALETTE.background; ctx.fillRect(x, M.top + 4, bw, 3);
      }
    }
  } else {
    // Stacked areas over the allowed P (joined across P the model forbids, e.g. non-squares):
    // each term's top line filled down to the previous one, through at most AREA_POINTS_PER_PX
    // points per pixel column (10,000 P over 1,000 px draw all 10,000 vertices; a live preview's thinned curve is never thinned again).
    const ok = [];
    for (let i = 0; i < n; i++) if (c.allowed[i] && Number.isFinite(stackTop(c, i))) ok.push(i);
    const step = Math.max(1, Math.floor(ok.length / (AREA_POINTS_PER_PX * w)));
    const idx = [];
    for (let k = 0; k < ok.length; k += step) idx.push(ok[k]);
    if (ok.length && idx[idx.length - 1] !== ok[ok.length - 1]) idx.push(ok[ok.length - 1]);
    const m = idx.length;
    let lower = new Float64Array(m);
    for (const term of TERMS) {
      const upper = new Float64Array(m);
      for (let k = 0; k < m; k++) { const i = idx[k]; upper[k] = lower[k] + (term.key === 'to' ? c.to[i] * c.pace[i] : c[term.key][i]); }
      if (m) {
        ctx.fillStyle = term.color;
        ctx.beginPath();
        ctx.moveTo(X(c.p[idx[0]]), Y(upper[0]));
        for (let k = 1; k < m; k++) ctx.lineTo(X(c.p[idx[k]]), Y(upper[k]));
        for (let k = m - 1; k >= 0; k--) ctx.lineTo(X(c.p[idx[k]]), Y(lower[k]));
        ctx.closePath();
        ctx.fill();
      }
      lower = upper;
    }
  }
  // the uncertainty band: whiskers (bars) or a shaded ribbon (areas)
  if (c.hasBand) {
    ctx.strokeStyle = BAND_COLOR; ctx.fillStyle = 'rgba(107,114,128,0.25)'; ctx.lineWidth = 1.5;
    if (pMax <= MAX_BARS) {
      ctx.beginPath();
      for (let i = 0; i < n; i++) {
        if (!c.allowed[i] || !Number.isFinite(c.tLo[i]) || !Number.isFinite(c.tHi[i])) continue;
        const x = Math.round(X(c.p[i])) + 0.5, q = Math.max(2, band * 0.2);
        ctx.moveTo(x, Y(c.tLo[i])); ctx.lineTo(x, Y(c.tHi[i]));
        ctx.moveTo(x - q, Y(c.tHi[i])); ctx.lineTo(x + q, Y(c.tHi[i]));
        ctx.moveTo(x - q, Y(c.tLo[i])); ctx.lineTo(x + q, Y(c.tLo[i]));
      }
      ctx.stroke();
    } else {
      ctx.beginPath();
      const idx = [];
      for (let i = 0; i < n; i++) if (c.allowed[i] && Number.isFinite(c.tLo[i]) && Number.isFinite(c.tHi[i])) idx.push(i);
      idx.forEach((i, k) => (k ? ctx.lineTo(X(c.p[i]), Y(c.tHi[i])) : ctx.moveTo(X(c.p[i]), Y(c.tHi[i]))));
      for (let k = idx.length - 1; k >= 0; k--) ctx.lineTo(X(c.p[idx[k]]), Y(c.tLo[idx[k]]));
      ctx.closePath(); ctx.fill();
    }
  }
  // the total T(P) as a line over the allowed points
  ctx.strokeStyle = PALETTE.text; ctx.lineWidth = 1.25; ctx.beginPath();
  let pen = false;
  for (let i = 0; i < n; i++) {
    const ok = c.allowed[i] && Number.isFinite(c.t[i]);
    if (!ok) { pen = false; continue; }
    if (pen) ctx.lineTo(X(c.p[i]), Y(c.t[i])); else ctx.moveTo(X(c.p[i]), Y(c.t[i]));
    pen = true;
  }
  ctx.stroke();
  // marks: the chosen P, every station, the choices under the band
  const mark = (p, text, color, dash, row) => {
    if (!(p >= 1 && p <= pMax)) return;
    const x = Math.round(X(p)) + 0.5;
    ctx.save();
    ctx.strokeStyle = color; ctx.lineWidth = dash ? 1 : 2; ctx.setLineDash(dash ? [4, 3] : []);
    ctx.beginPath(); ctx.moveTo(x, M.top); ctx.lineTo(x, M.top + h); ctx.stroke();
    ctx.fillStyle = color; ctx.font = FONT_SMALL; ctx.textBaseline = 'top';
    ctx.textAlign = x > M.left + w - 80 ? 'right' : 'left';
    ctx.fillText(text, x + (ctx.textAlign === 'left' ? 4 : -4), M.top + 2 + 13 * row);
    ctx.restore();
  };
  if (marks.best) {
    const i = marks.best - 1;
    if (pMax <= MAX_BARS && Number.isFinite(c.t[i])) {
      const bw = Math.max(1, band * 0.8);
      ctx.strokeStyle = CHOSEN_COLOR; ctx.lineWidth = 2.5;
      ctx.strokeRect(X(marks.best) - bw / 2 - 1.5, Y(c.t[i]) - 1.5, bw + 3, Y(0) - Y(c.t[i]) + 1.5);
    }
    mark(marks.best, `chosen P = ${marks.best}`, CHOSEN_COLOR, false, 0);
  }
  if (marks.all && marks.all !== marks.best) mark(marks.all, `all ${marks.all}`, PALETTE.muted, true, 1);
  if (marks.minUpper && marks.minUpper !== marks.best) mark(marks.minUpper, `best under the band: ${marks.minUpper}`, BAND_COLOR, true, 2);
  const pt = ticks(1, Math.max(1, pMax), Math.min(10, pMax), true).filter((v) => v >= 1);
  drawAxis(ctx, { side: 'left', at: M.left, from: M.top, to: M.top + h, values: yt, pos: Y, label: 'T(P) (ms)', format: formatTick, labelAt: 14 });
  drawAxis(ctx, { side: 'bottom', at: M.top + h, from: M.left, to: M.left + w, values: pt, pos: X, label: 'P, stations used (least loaded first)' });
  if (clipped) {
    ctx.fillStyle = PALETTE.muted; ctx.font = FONT_SMALL; ctx.textAlign = 'right'; ctx.textBaseline = 'top';
    ctx.fillText(`axis cut at ${Y_CLIP_FACTOR}x the best time`, M.left + w, 8);
  }
  return { yMax, clipped, x: X, y: Y };
}

// ---- the protocol timeline ----------------------------------------------------------------------

const TL_MARGIN = { left: 56, right: 14, top: 24, bottom: 34 }; // px
const LANE_H = 18; // px per lane
const MAX_HEADS = 3000; // arrows with heads; beyond, plain lines

/**
 * The sequence diagram, time left to right: one lane per initiator (I0, I1, ...) then one per shown
 * station; holds as bars in the job's colour; messages as lines from sender to receiver, in the
 * sender's job colour, lost ones dashed red ending in ×; local events as marks. Only what happened
 * up to `cursor` is drawn (messages in flight are cut at the cursor).
 * `lanes`: {initiators, stations: [station ids shown], laneOf(station) → lane index or -1 (other),
 * other: whether an "other stations" lane closes the list}.
 */
export function drawTimeline(canvas, { width, r, lanes, tMin = 0, tMax, cursor, kinds }) {
  const L = lanes.initiators + lanes.stations.length + (lanes.other ? 1 : 0);
  const M = TL_MARGIN;
  const height = M.top + M.bottom + L * LANE_H;
  const ctx = setupCanvas(canvas, width, height);
  const w = width - M.left - M.right;
  const span = Math.max(1e-9, tMax - tMin);
  const X = (t) => M.left + (Math.max(tMin, Math.min(t, tMax)) - tMin) / span * w;
  const laneY = (k) => M.top + k * LANE_H + LANE_H / 2;
  const stationLane = (s) => { const k = lanes.laneOf(s); return k < 0 ? L - 1 : lanes.initiators + k; };
  drawTitle(ctx, 'Reservation protocol: messages over logical time', M.left, 4, w);
  // lane labels and rules
  ctx.font = FONT_SMALL; ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  for (let k = 0; k < L; k++) {
    const isInit = k < lanes.initiators;
    const label = isInit ? `I${k}` : k - lanes.initiators < lanes.stations.length ? `S${lanes.stations[k - lanes.initiators]}` : 'other';
    ctx.fillStyle = isInit ? jobColor(k) : PALETTE.text;
    ctx.fillText(label, M.left - 6, laneY(k));
    ctx.fillStyle = k % 2 ? '#F7F8F9' : PALETTE.background;
    ctx.fillRect(M.left, M.top + k * LANE_H, w, LANE_H);
  }
  ctx.strokeStyle = PALETTE.axis; ctx.lineWidth = 1; ctx.beginPath();
  const sep = M.top + lanes.initiators * LANE_H + 0.5;
  ctx.moveTo(M.left, sep); ctx.lineTo(M.left + w, sep); ctx.stroke();
  // holds: the station's lane carries a bar in the holder's colour while id = tid
  const hd = r.hold;
  for (let i = 0; i < hd.length; i++) {
    if (hd.from[i] > cursor || hd.to[i] < tMin) continue;
    const to = Number.isFinite(hd.to[i]) ? Math.min(hd.to[i], cursor) : cursor;
    const y = laneY(stationLane(hd.station[i]));
    ctx.fillStyle = tint(jobColor(hd.tid[i]), 0.35);
    ctx.fillRect(X(hd.from[i]), y - 5, Math.max(1, X(to) - X(hd.from[i])), 10);
  }
  // messages, batched by colour
  const tr = r.trace;
  let delaySum = 0, delayN = 0;
  for (let i = 0; i < tr.length; i++) if (!tr.local[i] && Number.isFinite(tr.arrive[i])) { delaySum += tr.arrive[i] - tr.time[i]; delayN++; }
  const lostLen = delayN ? delaySum / delayN / 2 : span / 100;
  const byColor = new Map();
  let drawn = 0;
  const lost = [];
  for (let i = 0; i < tr.length; i++) {
    if (tr.local[i] || tr.time[i] > cursor || tr.arrive[i] < tMin) continue;
    const sLane = stationLane(tr.station[i]), iLane = tr.tid[i];
    const [fromLane, toLane] = tr.toStation[i] ? [iLane, sLane] : [sLane, iLane];
    if (tr.lost[i]) { lost.push([tr.time[i], fromLane, toLane]); continue; }
    const t1 = tr.arrive[i];
    const f = t1 > cursor ? (cursor - tr.time[i]) / Math.max(1e-9, t1 - tr.time[i]) : 1;
    const x0 = X(tr.time[i]), y0 = laneY(fromLane);
    const x1 = x0 + (X(t1) - x0) * f, y1 = y0 + (laneY(toLane) - y0) * f;
    const color = jobColor(tr.tid[i]);
    if (!byColor.has(color)) byColor.set(color, []);
    byColor.get(color).push(x0, y0, x1, y1, f === 1 ? 1 : 0);
    drawn++;
  }
  const heads = drawn <= MAX_HEADS;
  ctx.lineWidth = 1;
  for (const [color, seg] of byColor) {
    ctx.strokeStyle = color; ctx.fillStyle = color; ctx.beginPath();
    for (let k = 0; k < seg.length; k += 5) { ctx.moveTo(seg[k], seg[k + 1]); ctx.lineTo(seg[k + 2], seg[k + 3]); }
    ctx.stroke();
    if (heads) {
      ctx.beginPath();
      for (let k = 0; k < seg.length; k += 5) {
        if (!seg[k + 4]) continue;
        const a = Math.atan2(seg[k + 3] - seg[k + 1], seg[k + 2] - seg[k]);
        const x = seg[k + 2], y = seg[k + 3];
        ctx.moveTo(x, y);
        ctx.lineTo(x - 5 * Math.cos(a - 0.45), y - 5 * Math.sin(a - 0.45));
        ctx.lineTo(x - 5 * Math.cos(a + 0.45), y - 5 * Math.sin(a + 0.45));
        ctx.closePath();
      }
      ctx.fill();
    }
  }
  // lost messages: dashed red, halfway towards the receiver, ending in ×
  if (lost.length) {
    ctx.strokeStyle = LOST_COLOR; ctx.lineWidth = 1.25; ctx.setLineDash([3, 2]); ctx.beginPath();
    const ends = [];
    for (const [t, a, b] of lost) {
      if (t + lostLen < tMin) continue;
      const x0 = X(t), y0 = laneY(a), x1 = X(t + lostLen), y1 = (y0 + laneY(b)) / 2;
      ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ends.push(x1, y1);
    }
    ctx.stroke(); ctx.setLineDash([]); ctx.beginPath();
    for (let k = 0; k < ends.length; k += 2) {
      const x = ends[k], y = ends[k + 1];
      ctx.moveTo(x - 3, y - 3); ctx.lineTo(x + 3, y + 3); ctx.moveTo(x + 3, y - 3); ctx.lineTo(x - 3, y + 3);
    }
    ctx.stroke();
  }
  // local events: run ▶, done ■, starved / tooFew / abort in red, expire ◆ on the station
  ctx.font = FONT_SMALL; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
  const GLYPH = { run: '▶', done: '■', starved: '✕', tooFew: '↺', abort: '!', expire: '◆', start: '•', retry: '↻' };
  const RED = new Set(['starved', 'tooFew', 'abort', 'expire']);
  for (let i = 0; i < tr.length; i++) {
    if (!tr.local[i] || tr.time[i] > cursor || tr.time[i] < tMin) continue;
    const k = kinds[tr.kind[i]];
    const lane = tr.station[i] >= 0 ? stationLane(tr.station[i]) : tr.tid[i];
    ctx.fillStyle = RED.has(k) ? LOST_COLOR : tr.tid[i] >= 0 ? jobColor(tr.tid[i]) : PALETTE.text;
    ctx.fillText(GLYPH[k] || '·', X(tr.time[i]), laneY(lane));
  }
  // the cursor and the time axis
  const cx = Math.round(X(cursor)) + 0.5;
  ctx.strokeStyle = PALETTE.text; ctx.setLineDash([4, 3]); ctx.beginPath();
  ctx.moveTo(cx, M.top); ctx.lineTo(cx, M.top + L * LANE_H); ctx.stroke(); ctx.setLineDash([]);
  drawAxis(ctx, { side: 'bottom', at: M.top + L * LANE_H, from: M.left, to: M.left + w, values: ticks(tMin, Math.max(tMin + 1, tMax), 8, true), pos: X, label: 'logical time (ticks)' });
  return { height };
}

// ---- all-to-all layouts ---------------------------------------------------------------------------

const BAR_H = 16; // px
const RANK_GAP = 26; // px

/** Horizontal bars of the estimated all-to-all time of each layout (fastest first) and first-fit. */
export function drawLayoutBars(canvas, { width, ranks, perRank = 8 }) {
  const rows = ranks.map((r) => [...r.layouts.slice(0, perRank).map((l) => ({ ...l, firstFit: false })), { ...r.firstFit, firstFit: true }]);
  const M = { left: 90, right: 80, top: 24, bottom: 34 };
  const height = M.top + M.bottom + rows.reduce((a, rs) => a + rs.length * BAR_H + RANK_GAP, 0);
  const ctx = setupCanvas(canvas, width, height);
  const w = width - M.left - M.right;
  const tMax = Math.max(1e-9, ...rows.flat().map((l) => l.time));
  const X = (v) => M.left + (v / tMax) * w;
  drawTitle(ctx, 'All-to-all: estimated time per layout (nodes x processes per node)', 8, 4, width - 16);
  let y = M.top;
  ctx.font = FONT_SMALL; ctx.textBaseline = 'middle';
  ranks.forEach((r, k) => {
    ctx.fillStyle = PALETTE.text; ctx.font = FONT; ctx.textAlign = 'left';
    ctx.fillText(`rank ${r.rank}: best ${r.layouts[0]?.label ?? '—'}, ${r.gainPercent.toFixed(1)} % faster than first-fit`, 8, y + 8);
    y += 18;
    ctx.font = FONT_SMALL;
    rows[k].forEach((l, i) => {
      ctx.fillStyle = l.firstFit ? PALETTE.contended : i === 0 ? '#009E73' : PALETTE.line;
      ctx.fillRect(M.left, y + 2, Math.max(1, X(l.time) - M.left), BAR_H - 4);
      ctx.fillStyle = PALETTE.text; ctx.textAlign = 'right';
      ctx.fillText(l.firstFit ? `first-fit ${l.label === 'first-fit' ? '' : l.label}`.trim() : l.label, M.left - 6, y + BAR_H / 2);
      ctx.textAlign = 'left';
      ctx.fillText(`${formatTick(l.time)} µs`, X(l.time) + 4, y + BAR_H / 2);
      y += BAR_H;
    });
    y += RANK_GAP - 18;
  });
  drawAxis(ctx, { side: 'bottom', at: y, from: M.left, to: M.left + w, values: ticks(0, tMax, 6), pos: X, label: 'estimated time (µs)' });
  return { height };
}
