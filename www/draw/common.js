// Canvas helpers shared by every engine's drawing. Only files under draw/ touch a 2D context.

// Okabe–Ito and Paul Tol colours, readable with the common colour-vision deficiencies.
// Reds are kept out of the job colours: red means "contended" everywhere.
export const PALETTE = {
  jobs: ['#0072B2', '#E69F00', '#56B4E9', '#009E73', '#F0E442', '#CC79A7',
         '#332288', '#44AA99', '#999933', '#88CCEE', '#AA4499', '#DDCC77'],
  idle: '#E3E6EA',
  contended: '#E8001C',
  link: '#A7AFB8',
  router: '#525C66',
  axis: '#4A4F55',
  text: '#1F2328',
  muted: '#6B7280',
  background: '#FFFFFF',
  line: '#0072B2',
};

/**
 * Contention heat map: how many running jobs' traffic crosses a router or link, in bins doubling
 * in width (so 2 jobs and 40 jobs both read) on ColorBrewer's sequential Reds (light to dark,
 * readable in grey). Bin 1 is "in use, not shared" (light blue, drawn only in the contention
 * layer); 2 and more is contended, in reds, which job colours avoid.
 */
export const HEAT_BINS = [
  { min: 1, max: 1, color: '#BCD4E6', label: '1' },
  { min: 2, max: 2, color: '#FCBBA1', label: '2' },
  { min: 3, max: 4, color: '#FC9272', label: '3–4' },
  { min: 5, max: 8, color: '#FB6A4A', label: '5–8' },
  { min: 9, max: 16, color: '#EF3B2C', label: '9–16' },
  { min: 17, max: 32, color: '#CB181D', label: '17–32' },
  { min: 33, max: Infinity, color: '#99000D', label: '33+' },
];

/** Heat colour of a count of jobs (null for 0). */
export function heatColor(count) {
  if (!(count >= 1)) return null;
  for (const b of HEAT_BINS) if (count <= b.max) return b.color;
  return HEAT_BINS[HEAT_BINS.length - 1].color;
}

/** Share of white mixed into a job colour for nodes a job owns but leaves idle. */
export const OWNED_IDLE_TINT = 0.6;

export const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
export const FONT_BOLD = '600 13px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
export const FONT_SMALL = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** Colour of job `i` (colours cycle when there are more jobs than colours). */
export function jobColor(i) {
  return PALETTE.jobs[((i % PALETTE.jobs.length) + PALETTE.jobs.length) % PALETTE.jobs.length];
}

/** A lighter tint of a `#rrggbb` colour, `amount` in [0, 1] towards white. */
export function tint(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c) => Math.round(c + (255 - c) * amount);
  const r = mix((n >> 16) & 255), g = mix((n >> 8) & 255), b = mix(n & 255);
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** Sizes `canvas` to cssWidth × cssHeight CSS pixels at the device pixel ratio; returns a context drawing in CSS pixels. */
export function setupCanvas(canvas, cssWidth, cssHeight) {
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(cssWidth * dpr));
  canvas.height = Math.max(1, Math.round(cssHeight * dpr));
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = PALETTE.background;
  ctx.fillRect(0, 0, cssWidth, cssHeight);
  return ctx;
}

/** A "nice" tick step (1, 2 or 5 × 10^k) giving about `target` ticks over `range`. */
export function niceStep(range, target) {
  if (!(range > 0)) return 1;
  const raw = range / Math.max(1, target);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/** Tick values from min to max (inclusive) with a nice step; `integer` forces whole steps. */
export function ticks(min, max, target, integer = false) {
  let step = niceStep(max - min, target);
  if (integer) step = Math.max(1, Math.round(step));
  const out = [];
  const start = Math.ceil(min / step - 1e-9) * step;
  for (let v = start; v <= max + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

export function formatTick(v) {
  if (Math.abs(v) >= 10000) return v.toExponential(1).replace('e+', 'e');
  return String(Number(v.toPrecision(4)));
}

/**
 * Draws an axis: a base line with ticks and labels.
 * `side` is 'top' | 'bottom' | 'left'; `pos(v)` maps a value to a CSS pixel along the axis;
 * `at` is the fixed coordinate of the base line; `from`/`to` its extent.
 */
export function drawAxis(ctx, { side, at, from, to, values, pos, label, format = formatTick, labelAt }) {
  ctx.save();
  ctx.strokeStyle = PALETTE.axis;
  ctx.fillStyle = PALETTE.axis;
  ctx.lineWidth = 1;
  ctx.font = FONT_SMALL;
  ctx.beginPath();
  if (side === 'left') {
    ctx.moveTo(at + 0.5, from); ctx.lineTo(at + 0.5, to);
    for (const v of values) { const p = Math.round(pos(v)) + 0.5; ctx.moveTo(at, p); ctx.lineTo(at - 4, p); }
  } else {
    const dir = side === 'top' ? -1 : 1;
    ctx.moveTo(from, at + 0.5); ctx.lineTo(to, at + 0.5);
    for (const v of values) { const p = Math.round(pos(v)) + 0.5; ctx.moveTo(p, at); ctx.lineTo(p, at + 4 * dir); }
  }
  ctx.stroke();
  if (side === 'left') {
    ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    for (const v of values) ctx.fillText(format(v), at - 6, pos(v));
  } else {
    ctx.textAlign = 'center';
    ctx.textBaseline = side === 'top' ? 'bottom' : 'top';
    for (const v of values) ctx.fillText(format(v), pos(v), side === 'top' ? at - 5 : at + 5);
  }
  if (label) {
    ctx.font = FONT;
    ctx.fillStyle = PALETTE.muted;
    if (side === 'left') {
      ctx.save();
      ctx.translate(labelAt ?? at - 30, (from + to) / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'center'; ctx.textBaseline = 'bottom';
      ctx.fillText(label, 0, 0);
      ctx.restore();
    } else {
      ctx.textAlign = 'right';
      ctx.textBaseline = side === 'top' ? 'bottom' : 'top';
      ctx.fillText(label, to, side === 'top' ? at - 18 : at + 18);
    }
  }
  ctx.restore();
}

/** Draws a title in the top band of a canvas, truncated with an ellipsis to `maxWidth`. */
export function drawTitle(ctx, text, x, y, maxWidth) {
  ctx.save();
  ctx.font = FONT_BOLD;
  ctx.fillStyle = PALETTE.text;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  let t = text;
  while (t.length > 1 && ctx.measureText(t).width > maxWidth) t = t.slice(0, -2) + '…';
  ctx.fillText(t, x, y);
  ctx.restore();
}

/**
 * Legend entries: {label, color} for a filled swatch, {label, colors: [...]} for a strip,
 * {label, color, outline: true} for a highlighted (thick) swatch, {label, color, hatch: base},
 * {label, heading: true} for text introducing the entries after it.
 * Lays entries out in rows within `width`; returns the height used.
 */
export function measureLegend(entries, width) {
  return layoutLegend(null, entries, width).height;
}

export function drawLegend(canvas, entries, width) {
  const { height } = layoutLegend(null, entries, width);
  const ctx = setupCanvas(canvas, width, height);
  layoutLegend(ctx, entries, width);
}

function layoutLegend(ctx, entries, width) {
  const ROW = 20, SW = 14, GAP = 18;
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = FONT;
  let x = 0, y = 2;
  for (const e of entries) {
    const swatchW = e.heading ? -6 : e.colors ? SW * Math.min(e.colors.length, 6) : SW;
    const w = swatchW + 6 + measure.measureText(e.label).width;
    if (x > 0 && x + w > width) { x = 0; y += ROW; }
    if (ctx) {
      if (e.heading) {
        // a label introducing the entries after it, no swatch
      } else if (e.colors) {
        e.colors.slice(0, 6).forEach((c, i) => { ctx.fillStyle = c; ctx.fillRect(x + i * SW, y + 2, SW, SW); });
      } else if (e.line) {
        ctx.strokeStyle = e.color; ctx.lineWidth = e.lineWidth || 3;
        ctx.beginPath(); ctx.moveTo(x, y + 9); ctx.lineTo(x + SW, y + 9); ctx.stroke();
      } else {
        ctx.fillStyle = e.color; ctx.fillRect(x, y + 2, SW, SW);
        if (e.border) { ctx.strokeStyle = e.border; ctx.lineWidth = 1; ctx.strokeRect(x + 0.5, y + 2.5, SW - 1, SW - 1); }
      }
      ctx.fillStyle = PALETTE.text; ctx.font = FONT; ctx.textBaseline = 'middle'; ctx.textAlign = 'left';
      ctx.fillText(e.label, x + swatchW + 6, y + 9);
    }
    x += w + GAP;
  }
  return { height: y + ROW };
}

/**
 * A small line chart: `series` = [{x: [...], y: [...], color}], value axes from the options.
 * `marker` draws a vertical line at that x. Returns a mapping used for hover.
 */
export function drawLineChart(canvas, { width, height, xMax, yMax = 1, series, xLabel, yLabel, yFormat, marker, title }) {
  const ctx = setupCanvas(canvas, width, height);
  const M = { left: 46, right: 12, top: title ? 24 : 10, bottom: 34 };
  const w = width - M.left - M.right, h = height - M.top - M.bottom;
  const X = (v) => M.left + (xMax > 0 ? (v / xMax) * w : 0);
  const Y = (v) => M.top + h - (v / yMax) * h;
  if (title) drawTitle(ctx, title, M.left, 4, w);
  ctx.strokeStyle = '#EEF0F2'; ctx.lineWidth = 1;
  const yt = ticks(0, yMax, 4);
  ctx.beginPath();
  for (const v of yt) { const p = Math.round(Y(v)) + 0.5; ctx.moveTo(M.left, p); ctx.lineTo(M.left + w, p); }
  ctx.stroke();
  for (const s of series) {
    ctx.strokeStyle = s.color || PALETTE.line; ctx.lineWidth = 1.5;
    ctx.beginPath();
    s.x.forEach((xv, i) => { const px = X(xv), py = Y(s.y[i]); if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py); });
    ctx.stroke();
  }
  if (marker !== undefined && marker !== null) {
    ctx.strokeStyle = PALETTE.text; ctx.lineWidth = 1; ctx.setLineDash([3, 3]);
    ctx.beginPath(); ctx.moveTo(Math.round(X(marker)) + 0.5, M.top); ctx.lineTo(Math.round(X(marker)) + 0.5, M.top + h); ctx.stroke();
    ctx.setLineDash([]);
  }
  drawAxis(ctx, { side: 'left', at: M.left, from: M.top, to: M.top + h, values: yt, pos: Y, label: yLabel, format: yFormat || formatTick, labelAt: 12 });
  drawAxis(ctx, { side: 'bottom', at: M.top + h, from: M.left, to: M.left + w, values: ticks(0, xMax || 1, 5), pos: X, label: xLabel });
}

/** Places canvases side by side (wrapping at `maxWidth`) on one canvas, for PNG export. */
export function composeCanvases(rows, gap = 16) {
  // rows: [[canvas, ...], ...] drawn top to bottom.
  const dpr = window.devicePixelRatio || 1;
  let width = 0, height = 0;
  const sizes = rows.map((row) => {
    const w = row.reduce((a, c) => a + c.width, 0) + gap * dpr * Math.max(0, row.length - 1);
    const h = Math.max(0, ...row.map((c) => c.height));
    width = Math.max(width, w); height += h;
    return h;
  });
  height += gap * dpr * Math.max(0, rows.length - 1);
  const out = document.createElement('canvas');
  out.width = Math.max(1, width + 2 * gap * dpr); out.height = Math.max(1, height + 2 * gap * dpr);
  const ctx = out.getContext('2d');
  ctx.fillStyle = PALETTE.background;
  ctx.fillRect(0, 0, out.width, out.height);
  let y = gap * dpr;
  rows.forEach((row, r) => {
    let x = gap * dpr;
    for (const c of row) { ctx.drawImage(c, x, y); x += c.width + gap * dpr; }
    y += sizes[r] + gap * dpr;
  });
  return out;
}
