// Drawing of moldable schedules: Gantt charts (machines across, time down, one colour per job)
// and the GA's convergence curve. Only this file touches a 2D context for the moldable engine.
import { PALETTE, FONT_SMALL, setupCanvas, ticks, drawAxis, drawTitle, jobColor, formatTick } from './common.js';

export const BOUND_COLOR = '#E8001C';    // lower bound line (red dashes)
export const OPTIMUM_COLOR = '#1F2328';  // known optimum H (black dots)
const M = { left: 52, right: 10, top: 44, bottom: 10 };
/** Below this many jobs, each job rectangle gets a thin white outline. */
const OUTLINE_JOBS = 3000;

/**
 * A schedule as a Gantt chart on `canvas` (width x height CSS px): x = machines 0..n, y = time
 * 0..tMax downward (tMax shared by the panels side by side). `schedule` comes from
 * moldable-data.js scheduleArrays. Returns {X, Y} (machine and time to CSS px) and their
 * inverses {machineAt, timeAt} for hit tests.
 */
export function drawGantt(canvas, { width, height, n, tMax, schedule, lowerBound, optimum, title }) {
  const ctx = setupCanvas(canvas, width, height);
  const w = width - M.left - M.right, h = height - M.top - M.bottom;
  const X = (m) => M.left + (m / n) * w;
  const Y = (t) => M.top + (tMax > 0 ? (t / tMax) * h : 0);
  if (title) drawTitle(ctx, title, M.left, 2, w);
  ctx.fillStyle = '#F6F7F8';
  ctx.fillRect(M.left, M.top, w, h);
  // batch by colour: one fillStyle per job colour
  const byColor = new Map();
  for (let i = 0; i < schedule.length; i++) {
    const c = jobColor(schedule.job[i]);
    if (!byColor.has(c)) byColor.set(c, []);
    byColor.get(c).push(i);
  }
  const outline = schedule.length <= OUTLINE_JOBS;
  for (const [color, list] of byColor) {
    ctx.fillStyle = color;
    for (const i of list) {
      const y0 = Y(schedule.start[i]), y1 = Y(schedule.end[i]);
      for (let k = schedule.runOffset[i]; k < schedule.runOffset[i + 1]; k++) {
        const x0 = X(schedule.runFirst[k]), x1 = X(schedule.runFirst[k] + schedule.runCount[k]);
        ctx.fillRect(x0, y0, Math.max(0.5, x1 - x0), Math.max(0.5, y1 - y0));
      }
    }
  }
  if (outline) {
    ctx.strokeStyle = '#FFFFFF'; ctx.lineWidth = 0.5;
    ctx.beginPath();
    for (let i = 0; i < schedule.length; i++) {
      const y0 = Y(schedule.start[i]), y1 = Y(schedule.end[i]);
      for (let k = schedule.runOffset[i]; k < schedule.runOffset[i + 1]; k++) {
        const x0 = X(schedule.runFirst[k]), x1 = X(schedule.runFirst[k] + schedule.runCount[k]);
        if (x1 - x0 > 3 && y1 - y0 > 3) ctx.rect(x0, y0, x1 - x0, y1 - y0);
      }
    }
    ctx.stroke();
  }
  const hline = (t, color, dash) => {
    if (!(t > 0) || t > tMax) return;
    ctx.save();
    ctx.strokeStyle = color; ctx.lineWidth = 1.5; ctx.setLineDash(dash);
    ctx.beginPath(); ctx.moveTo(M.left, Math.round(Y(t)) + 0.5); ctx.lineTo(M.left + w, Math.round(Y(t)) + 0.5); ctx.stroke();
    ctx.restore();
  };
  hline(lowerBound, BOUND_COLOR, [5, 3]);
  if (optimum) hline(optimum, OPTIMUM_COLOR, [1, 2]);
  drawAxis(ctx, { side: 'top', at: M.top, from: M.left, to: M.left + w, values: ticks(0, n, 4, true), pos: X, label: 'machine' });
  drawAxis(ctx, { side: 'left', at: M.left, from: M.top, to: M.top + h, values: ticks(0, tMax, 6), pos: Y, label: 'time', labelAt: 10 });
  const machineAt = (px) => ((px - M.left) / w) * n;
  const timeAt = (py) => (h > 0 ? ((py - M.top) / h) * tMax : 0);
  return { X, Y, machineAt, timeAt };
}

/**
 * The schedule row under machine `x` at time `t` (fractional, as machineAt/timeAt give them), or
 * -1: the job running then on that machine. `O(jobs + runs)` per call.
 */
export function ganttHit(schedule, x, t) {
  if (!(x >= 0) || !(t >= 0)) return -1;
  for (let i = 0; i < schedule.length; i++) {
    if (t < schedule.start[i] || t >= schedule.end[i]) continue;
    for (let k = schedule.runOffset[i]; k < schedule.runOffset[i + 1]; k++) {
      if (x >= schedule.runFirst[k] && x < schedule.runFirst[k] + schedule.runCount[k]) return i;
    }
  }
  return -1;
}

/**
 * The GA's best makespan per cycle (`curve[v]`, v = 0 the initial population), the y axis from
 * just under the lowest value shown (the lower bound when given) to the highest.
 */
export function drawConvergence(canvas, { width, height, curve, cycles, lowerBound, optimum, title }) {
  const ctx = setupCanvas(canvas, width, height);
  const C = { left: 60, right: 12, top: title ? 24 : 10, bottom: 34 };
  const w = width - C.left - C.right, h = height - C.top - C.bottom;
  let lo = Infinity, hi = -Infinity;
  for (const v of curve) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (lowerBound > 0) lo = Math.min(lo, lowerBound);
  if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
  if (hi <= lo) hi = lo + 1;
  const pad = (hi - lo) * 0.05;
  lo = Math.max(0, lo - pad); hi += pad;
  const xMax = Math.max(1, cycles);
  const X = (v) => C.left + (v / xMax) * w;
  const Y = (t) => C.top + h - ((t - lo) / (hi - lo)) * h;
  if (title) drawTitle(ctx, title, C.left, 4, w);
  const yt = ticks(lo, hi, 4);
  ctx.strokeStyle = '#EEF0F2'; ctx.lineWidth = 1;
  ctx.beginPath();
  for (const v of yt) { const p = Math.round(Y(v)) + 0.5; ctx.moveTo(C.left, p); ctx.lineTo(C.left + w, p); }
  ctx.stroke();
  const hline = (t, color, dash) => {
    if (!(t >= lo && t <= hi)) return;
    ctx.save(); ctx.strokeStyle = color; ctx.lineWidth = 1.5; ctx.setLineDash(dash);
    ctx.beginPath(); ctx.moveTo(C.left, Math.round(Y(t)) + 0.5); ctx.lineTo(C.left + w, Math.round(Y(t)) + 0.5); ctx.stroke();
    ctx.restore();
  };
  hline(lowerBound, BOUND_COLOR, [5, 3]);
  if (optimum) hline(optimum, OPTIMUM_COLOR, [1, 2]);
  ctx.strokeStyle = PALETTE.line; ctx.lineWidth = 2;
  ctx.beginPath();
  for (let v = 0; v < curve.length; v++) {
    // a step curve: the best holds until the next improvement
    if (v === 0) ctx.moveTo(X(0), Y(curve[0]));
    else { ctx.lineTo(X(v), Y(curve[v - 1])); ctx.lineTo(X(v), Y(curve[v])); }
  }
  ctx.stroke();
  drawAxis(ctx, { side: 'left', at: C.left, from: C.top, to: C.top + h, values: yt, pos: Y, label: 'best makespan', format: formatTick, labelAt: 12 });
  drawAxis(ctx, { side: 'bottom', at: C.top + h, from: C.left, to: C.left + w, values: ticks(0, xMax, 5, true), pos: X, label: 'cycle' });
  ctx.font = FONT_SMALL;
}
