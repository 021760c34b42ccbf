// A study's charts, from the chart model's snapshot (study/model.js): one metric against the
// first axis, one line (numeric axis) or one bar (categorical axis, or no axis) per series (the
// group labels, e.g. the policy), the 95 % confidence interval of the mean as a shaded band or an
// error bar; with a second axis, small multiples, one panel per value of the second axis, on a
// shared y scale. Each canvas carries what it drew (data-kind, data-series, data-drawn and
// data-marks: [[series, x index, px, py], ...] in CSS pixels) for tests and tools.
import { PALETTE, FONT_SMALL, setupCanvas, ticks, formatTick, drawAxis, drawTitle, drawLegend, tint, jobColor } from './common.js';
import { el } from '../dom.js';

const CHART_HEIGHT_PX = 260;
const PANEL_MIN_WIDTH_PX = 260;
const MAX_PANELS = 24;       // small multiples beyond this many values of the second axis are not drawn
const MAX_SERIES = 12;       // one colour each (the palette's job colours); further series are left to the table
const LOG_RATIO = 50;        // a positive numeric axis spanning this factor or more is drawn on a log scale
const BAND_ALPHA = 0.22;
const M = { left: 56, right: 14, top: 26, bottom: 40 };
const X_INSET_PX = 12;       // the first and last values of a numeric axis stand this far inside the frame

/** Per container: the canvases of the last drawing, reused while the layout stays (no DOM churn as points arrive). */
const layouts = new WeakMap();

const label = (v) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
export const seriesColor = (s) => jobColor(s);

/**
 * Draws `snap` for metric `m` into `container` (its children replaced). Returns the canvases
 * (legend first) for PNG export.
 */
export function drawStudy(container, snap, m, width) {
  const axes = snap.axes;
  const x = axes[0] || { path: '(base scenario)', values: ['base'], numeric: false };
  const second = axes[1] || null;
  // axes after the second: the charts show their first value (the table has them all)
  const chosen = snap.cells.filter((c) => c.m === m && c.n > 0 && c.s < MAX_SERIES && c.a.slice(2).every((j) => j === 0));
  // a metric with no negative value (a time, a ratio): intervals drawn from 0 up, not below it
  // (two replicates' t interval often reaches below 0; the table keeps the interval as computed)
  const nonNegative = chosen.length > 0 && chosen.every((c) => typeof c.min === 'number' && c.min >= 0);
  const clipped = nonNegative && chosen.some((c) => typeof c.ciLow === 'number' && c.ciLow < 0);
  const cells = clipped ? chosen.map((c) => (c.ciLow < 0 ? { ...c, ciLow: 0 } : c)) : chosen;
  const series = snap.series.slice(0, MAX_SERIES).map((s, i) => (s === '' ? (snap.series.length === 1 ? snap.metrics[m] : `series ${i}`) : s));
  const panels = second ? second.values.slice(0, MAX_PANELS).map((v, j) => ({ title: `${second.path} = ${label(v)}`, j })) : [{ title: '', j: null }];
  const line = x.numeric && x.values.length >= 2;

  let lo = Infinity, hi = -Infinity;
  for (const c of cells) {
    for (const v of [c.mean, c.ciLow, c.ciHigh]) if (typeof v === 'number' && Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  }
  if (!(lo <= hi)) { lo = 0; hi = 1; }
  if (!line || lo > 0) lo = Math.min(lo, 0);
  if (hi === lo) hi = lo + 1;
  const pad = (hi - lo) * 0.05;
  const yLo = lo < 0 ? lo - pad : lo, yHi = hi + pad;

  const total = Math.max(320, width);
  const entries = [
    ...series.map((s, i) => ({ label: s, color: seriesColor(i), line })),
    cells.some((c) => c.n >= 2)
      ? { label: `${line ? 'shaded' : 'whiskers'}: 95 % confidence interval of the mean${clipped ? ' (cut at 0: no value is negative)' : ''}`, color: tint(PALETTE.axis, 0.7) }
      : { label: 'no confidence interval: one replicate each', color: tint(PALETTE.axis, 0.7) },
  ];
  const cols = panels.length > 1 ? Math.max(1, Math.floor(total / PANEL_MIN_WIDTH_PX)) : 1;
  const pw = panels.length > 1 ? Math.floor(total / Math.min(cols, panels.length)) - 8 : total;
  const notes = [];
  if (second && second.values.length > MAX_PANELS) notes.push(`The first ${MAX_PANELS} values of ${second.path} are drawn (of ${second.values.length}).`);
  if (snap.series.length > MAX_SERIES) notes.push(`The first ${MAX_SERIES} of ${snap.series.length} series (${snap.groups.join(' / ')}) are drawn; the table has them all.`);
  if (axes.length > 2) notes.push(`The charts show the first value of ${axes.slice(2).map((a) => a.path).join(', ')}; the table has them all.`);
  // the same layout as last time: draw into the same canvases
  const key = JSON.stringify([panels.length, pw, total, entries.map((e) => e.label), line, notes]);
  let lay = layouts.get(container);
  if (!lay || lay.key !== key || lay.legend.parentNode !== container) {
    const legend = el('canvas', { class: 'study-legend', 'data-testid': 'study-legend' });
    drawLegend(legend, entries, total);
    legend.setAttribute('aria-label', `Legend: ${entries.map((e) => e.label).join('; ')}`);
    const charts = panels.map(() => el('canvas', { class: 'study-chart', 'data-testid': 'study-chart' }));
    const grid = el('div', { class: panels.length > 1 ? 'study-grid' : 'study-single' }, ...charts);
    container.replaceChildren(legend, grid, ...notes.map((text) => el('p', { class: 'note', text })));
    lay = { key, legend, charts };
    layouts.set(container, lay);
  }
  panels.forEach((p, k) => {
    const mine = cells.filter((c) => p.j === null || c.a[1] === p.j);
    drawPanel(lay.charts[k], { width: pw, x, line, cells: mine, series, yLo, yHi, title: p.title, yLabel: snap.metrics[m] });
  });
  return [lay.legend, ...lay.charts];
}

function drawPanel(canvas, { width, x, line, cells, series, yLo, yHi, title, yLabel }) {
  const ctx = setupCanvas(canvas, width, CHART_HEIGHT_PX);
  const w = width - M.left - M.right, h = CHART_HEIGHT_PX - M.top - M.bottom;
  const Y = (v) => M.top + h - ((v - yLo) / (yHi - yLo)) * h;
  if (title) drawTitle(ctx, title, M.left, 4, w);
  const yt = ticks(yLo, yHi, 5);
  ctx.strokeStyle = '#EEF0F2'; ctx.lineWidth = 1;
  ctx.beginPath();
  for (const v of yt) { const p = Math.round(Y(v)) + 0.5; ctx.moveTo(M.left, p); ctx.lineTo(M.left + w, p); }
  ctx.stroke();
  const marks = [];
  const bySeries = new Map(); // series → x index → cell
  for (const c of cells) {
    if (!bySeries.has(c.s)) bySeries.set(c.s, new Map());
    bySeries.get(c.s).set(c.a[0] ?? 0, c);
  }
  if (line) {
    const vals = x.values;
    const pos = vals.every((v) => v > 0);
    const vmin = Math.min(...vals), vmax = Math.max(...vals);
    const log = pos && vmax / vmin >= LOG_RATIO;
    const f = log ? Math.log : (v) => v;
    const X = (v) => M.left + X_INSET_PX + (vmax === vmin ? (w - 2 * X_INSET_PX) / 2 : ((f(v) - f(vmin)) / (f(vmax) - f(vmin))) * (w - 2 * X_INSET_PX));
    for (const [s, at] of [...bySeries].sort((p, q) => p[0] - q[0])) {
      const pts = [...at].map(([j, c]) => ({ j, v: vals[j], c })).sort((p, q) => p.v - q.v);
      const color = seriesColor(s);
      const band = pts.filter((p) => typeof p.c.ciLow === 'number' && typeof p.c.ciHigh === 'number');
      if (band.length) {
        ctx.globalAlpha = BAND_ALPHA; ctx.fillStyle = color;
        ctx.beginPath();
        band.forEach((p, k) => { if (k) ctx.lineTo(X(p.v), Y(p.c.ciHigh)); else ctx.moveTo(X(p.v), Y(p.c.ciHigh)); });
        for (let k = band.length - 1; k >= 0; k--) ctx.lineTo(X(band[k].v), Y(band[k].c.ciLow));
        ctx.closePath(); ctx.fill();
        if (band.length === 1) ctx.fillRect(X(band[0].v) - 3, Y(band[0].c.ciHigh), 6, Y(band[0].c.ciLow) - Y(band[0].c.ciHigh));
        ctx.globalAlpha = 1;
      }
      ctx.strokeStyle = color; ctx.lineWidth = 2;
      ctx.beginPath();
      pts.forEach((p, k) => { if (k) ctx.lineTo(X(p.v), Y(p.c.mean)); else ctx.moveTo(X(p.v), Y(p.c.mean)); });
      ctx.stroke();
      ctx.fillStyle = color;
      for (const p of pts) {
        ctx.beginPath(); ctx.arc(X(p.v), Y(p.c.mean), 3.5, 0, 2 * Math.PI); ctx.fill();
        marks.push([s, p.j, Math.round(X(p.v) * 10) / 10, Math.round(Y(p.c.mean) * 10) / 10]);
      }
    }
    const xt = log ? vals.slice().sort((a, b) => a - b).filter((v, k, a) => a.length <= 8 || k % Math.ceil(a.length / 8) === 0) : ticks(vmin, vmax, 6).filter((v) => v >= vmin && v <= vmax);
    drawAxis(ctx, { side: 'bottom', at: M.top + h, from: M.left, to: M.left + w, values: xt, pos: X, label: x.path + (log ? ' (log scale)' : '') });
  } else {
    const n = Math.max(1, x.values.length);
    const band = w / n;
    const S = Math.max(1, series.length);
    const bw = Math.max(2, Math.min(40, (band * 0.8) / S));
    const base = Y(Math.max(yLo, Math.min(0, yHi)));
    for (const [s, at] of bySeries) {
      const color = seriesColor(s);
      for (const [j, c] of at) {
        const cx = M.left + band * (j + 0.5) + (s - (S - 1) / 2) * bw;
        const top = Y(c.mean);
        ctx.fillStyle = color;
        ctx.fillRect(cx - bw / 2 + 0.5, Math.min(top, base), bw - 1, Math.max(1, Math.abs(base - top)));
        if (typeof c.ciLow === 'number' && typeof c.ciHigh === 'number') {
          ctx.strokeStyle = PALETTE.text; ctx.lineWidth = 1;
          const cap = Math.min(6, bw / 2);
          ctx.beginPath();
          ctx.moveTo(cx, Y(c.ciLow)); ctx.lineTo(cx, Y(c.ciHigh));
          ctx.moveTo(cx - cap, Y(c.ciLow)); ctx.lineTo(cx + cap, Y(c.ciLow));
          ctx.moveTo(cx - cap, Y(c.ciHigh)); ctx.lineTo(cx + cap, Y(c.ciHigh));
          ctx.stroke();
        }
        // left of the whisker, halfway up the bar
        marks.push([s, j, Math.round((cx - bw / 4) * 10) / 10, Math.round(((top + base) / 2) * 10) / 10]);
      }
    }
    ctx.save();
    ctx.font = FONT_SMALL; ctx.fillStyle = PALETTE.axis; ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    ctx.strokeStyle = PALETTE.axis; ctx.beginPath(); ctx.moveTo(M.left, M.top + h + 0.5); ctx.lineTo(M.left + w, M.top + h + 0.5); ctx.stroke();
    x.values.forEach((v, j) => {
      let t = label(v);
      while (t.length > 1 && ctx.measureText(t).width > band - 4) t = t.slice(0, -2) + '…';
      ctx.fillText(t, M.left + band * (j + 0.5), M.top + h + 5);
    });
    ctx.fillStyle = PALETTE.muted; ctx.textAlign = 'right';
    ctx.fillText(x.path, M.left + w, M.top + h + 20);
    ctx.restore();
  }
  drawAxis(ctx, { side: 'left', at: M.left, from: M.top, to: M.top + h, values: yt, pos: Y, label: shortMetric(yLabel), format: formatTick, labelAt: 12 });
  canvas.dataset.kind = line ? 'line' : 'bars';
  canvas.dataset.series = String(bySeries.size);
  canvas.dataset.drawn = String(marks.length);
  canvas.dataset.marks = JSON.stringify(marks);
  canvas.dataset.yRange = JSON.stringify([yLo, yHi]);
}

/** `report.runs[*].summary.meanWait` → `meanWait` for an axis label (the full path is in the menu). */
function shortMetric(text) {
  const last = String(text).split('.').pop();
  return last.replace(/\[.*$/, '') || String(text);
}
