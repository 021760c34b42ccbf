// The partitioning engine's view: one panel per method side by side (the graph in part colours
// with cut edges in red, or the part-to-part graph of a big graph), balance bars under each, a
// legend, the methods table, and the part-file export of a chosen method.
import { el, formatValue, formatCount, tooltipElement, showTooltip } from '../dom.js';
import { PALETTE } from '../draw/common.js';
import { drawLegend } from '../draw/common.js';
import { panelLayout, drawPartition, drawQuotient, drawBalance, partColor, vertexBox, vertexRadius, maxDiscRadius } from '../draw/partition.js';
import { MAX_SEGMENTS } from './partition-data.js';

const MIN_FIGURE_W = 220;   // px, narrower panels wrap to the next row
const MAX_FIGURE_W = 560;   // px
const FIGURE_GAP = 20;      // px
const BALANCE_H = 130;      // px
const LEGEND_PARTS = 16;    // parts listed one by one in the legend; more are shown as a strip
/** Up to this many vertices over all panels a redraw is one task; beyond, one panel per frame. */
const SYNC_VERTEX_PANELS = 60_000;

/** The second CSV button of the page exports the parts table. */
export const SECOND_CSV = { label: 'Parts CSV', title: 'Each part\'s target and weight under every method' };

const ROWS = [
  ['edgeCut', 'Edge cut', 'sum of the weights of edges whose ends are in different parts'],
  ['cutEdges', 'Cut edges', 'edges whose ends are in different parts'],
  ['commVolume', 'Communication volume', 'sum over vertices of vsize times the number of other parts among its neighbours\' parts'],
  ['imbalance', 'Imbalance', 'max over parts of weight / target weight (1 is perfect)'],
  ['balanced', 'Within tolerance', 'imbalance <= 1 + ufactor/1000'],
  ['boundaryVertices', 'Boundary vertices', 'vertices with a neighbour in another part'],
  ['emptyParts', 'Empty parts', 'parts without a vertex'],
  ['levels', 'Levels', 'vertex counts of the multilevel hierarchy, finest first'],
];

export function panelWidth(avail, n) {
  const perRow = Math.max(1, Math.min(n, Math.floor((avail + FIGURE_GAP) / (MIN_FIGURE_W + FIGURE_GAP))));
  return Math.max(1, Math.min(MAX_FIGURE_W, Math.floor((avail - FIGURE_GAP * (perRow - 1)) / perRow)));
}

function legendEntries(report) {
  const k = report.k;
  const entries = [];
  if (k <= LEGEND_PARTS) for (let p = 0; p < k; p++) entries.push({ label: `part ${p}`, color: partColor(p) });
  else entries.push({ label: `parts 0–${k - 1} (colours repeat after 12)`, colors: Array.from({ length: 12 }, (_, p) => partColor(p)) });
  if (report.drawing.kind === 'quotient') {
    entries.push({ label: 'disc area: part weight', color: PALETTE.muted });
    entries.push({ label: 'line width: cut weight between two parts', color: PALETTE.contended, line: true });
    entries.push({ label: 'heaviest spanning tree: the backbone of the cut', color: PALETTE.text, line: true, lineWidth: 1.5 });
  } else {
    entries.push({ label: 'cut edge', color: PALETTE.contended, line: true });
    entries.push({ label: 'edge inside a part', color: '#C3C9D0', line: true, lineWidth: 1 });
  }
  entries.push({ label: 'target weight', color: PALETTE.text, line: true, lineWidth: 2 });
  entries.push({ label: 'largest allowed', color: PALETTE.contended, line: true, lineWidth: 1 });
  return entries;
}

function caption(report, run, drawn) {
  const parts = [`cut ${formatCount(run.edgeCut)}`, `volume ${formatCount(run.commVolume)}`, `imbalance ${formatValue(run.imbalance)}`];
  if (!run.part) parts.push('part vector left out of the report (see omitted.parts)');
  if (drawn && drawn.cutDrawn < drawn.cutTotal) parts.push(`${formatCount(drawn.cutDrawn)} of ${formatCount(drawn.cutTotal)} drawn cut edges shown`);
  if (drawn && drawn.edgesDrawn === 0 && report.drawing.edges.length / 2 > drawn.cutTotal) parts.push('uncut edges not drawn (too many)');
  return parts.join(' · ');
}

/** Draws the report into `host`; returns a handle {canvases, destroy, ...}. */
export function draw(host, envelope) {
  const report = envelope.report;
  const runs = report.runs;
  const d = report.drawing;
  const quotient = d.kind === 'quotient';
  host.replaceChildren();
  const g = report.graph;
  const info = el('p', { class: 'note', 'data-testid': 'graph-info',
    text: `${g.kind}: ${formatCount(g.vertices)} vertices, ${formatCount(g.edges)} edges, ${formatCount(g.components)} component(s)`
      + `${g.isolated ? `, ${formatCount(g.isolated)} isolated` : ''}; k = ${report.k}, ${report.objective === 'volume' ? 'communication volume' : 'edge cut'} objective, imbalance up to ${formatValue(report.maxImbalance)}`
      + (quotient ? '; too big to draw vertex by vertex: each panel shows the part-to-part graph' : d.kind === 'layout' ? '; drawn with a force-directed layout' : '')
      + (report.omitted.edges ? `; ${formatCount(report.omitted.edges)} edges not drawn` : '') });
  // part-file export of one method
  const methodSelect = el('select', { 'data-testid': 'part-method', 'aria-label': 'method of the part file' },
    runs.map((r) => el('option', { value: r.method, text: r.label, disabled: !r.part })));
  const exportBtn = el('button', { type: 'button', class: 'secondary', text: 'Export part file', 'data-testid': 'export-part',
    title: 'one part id per line, vertex 1 first, as gpmetis writes GRAPH.part.K' });
  exportBtn.addEventListener('click', () => {
    host.dispatchEvent(new CustomEvent('export', { bubbles: true, detail: { name: `part-${methodSelect.value}` } }));
  });
  host.append(info, el('div', { class: 'layers' }, el('span', { class: 'muted', text: 'Part file' }), methodSelect, exportBtn));
  const figuresRow = el('div', { class: 'figures' });
  const legendCanvas = el('canvas', { 'data-testid': 'legend', class: 'legend' });
  host.append(figuresRow, legendCanvas);
  const figs = runs.map((run, i) => {
    const canvas = el('canvas', { 'data-testid': 'canvas', dataset: { run: String(i), method: run.method } });
    const cap = el('div', { class: 'caption', 'data-testid': 'part-caption' });
    const balance = el('canvas', { 'data-testid': 'balance', class: 'util-chart' });
    figuresRow.append(el('figure', { class: 'figure' }, canvas, cap, balance));
    return { run, canvas, cap, balance, drawn: null };
  });
  const total = g.totalVertexWeight;
  const targets = report.targets.map((t) => t * total);
  const tooltip = tooltipElement('part-tooltip');
  let lastWidth = 0, rafId = 0, pass = null, layouts = null;
  const sync = quotient || (d.xy.length / 2) * runs.length <= SYNC_VERTEX_PANELS;

  function prepare() {
    const avail = Math.max(MIN_FIGURE_W, host.clientWidth || 800);
    if (!layouts || avail !== lastWidth) {
      const w = panelWidth(avail, runs.length);
      layouts = runs.map((r) => (quotient
        ? panelLayout(r.quotient?.xy ?? new Uint16Array(0), w, maxDiscRadius(w, report.k))
        : panelLayout(d.xy, w)));
      lastWidth = avail;
    }
  }
  function drawFigure(f, i) {
    const layout = layouts[i];
    f.canvas.parentElement.style.width = `${layout.width}px`;
    if (quotient) {
      const q = f.run.quotient || { xy: new Uint16Array(0), edges: [] };
      drawQuotient(f.canvas, layout, { xy: q.xy, edges: q.edges, tree: q.tree, weights: f.run.partWeights, title: f.run.label });
      f.drawn = null;
    } else {
      f.drawn = drawPartition(f.canvas, layout, { xy: d.xy, edges: d.edges, cut: f.run.cut, part: f.run.part, title: f.run.label, maxSegments: MAX_SEGMENTS });
    }
    f.cap.textContent = caption(report, f.run, f.drawn);
    drawBalance(f.balance, { width: layout.width, height: BALANCE_H, weights: f.run.partWeights, targets,
      maxImbalance: report.maxImbalance, title: 'Part weights' });
  }
  function drawLegendNow() {
    const entries = legendEntries(report);
    drawLegend(legendCanvas, entries, Math.min(figuresRow.clientWidth || lastWidth, 900));
    legendCanvas.setAttribute('aria-label', `Legend: ${entries.map((e) => e.label).join('; ')}`);
  }
  function drawAll() {
    if (rafId) cancelAnimationFrame(rafId);
    rafId = 0; pass = null;
    prepare();
    figs.forEach(drawFigure);
    drawLegendNow();
  }
  /** Big graphs: one panel per animation frame, so the page answers between panels. */
  function drawStep() {
    rafId = 0;
    if (!pass) return;
    if (pass.next === 0) prepare();
    drawFigure(figs[pass.next], pass.next);
    pass.next++;
    if (pass.next < figs.length) { rafId = requestAnimationFrame(drawStep); return; }
    drawLegendNow();
    pass = null;
  }
  const schedule = () => {
    if (sync) { if (!rafId) rafId = requestAnimationFrame(drawAll); return; }
    pass = { next: 0 };
    if (!rafId) rafId = requestAnimationFrame(drawStep);
  };
  /** What is under the pointer in run `i`'s panel: a vertex (nearest within a few px) or a part's disc. */
  function hitText(i, px, py) {
    const layout = layouts?.[i];
    const run = runs[i];
    if (!layout) return null;
    const partLine = (p) => `part ${p}: weight ${formatCount(run.partWeights[p])} (target ${formatValue(targets[p])})`;
    if (quotient) {
      const q = run.quotient;
      if (!q) return null;
      const maxR = maxDiscRadius(layout.width, report.k);
      let maxPart = 1;
      for (const w of run.partWeights) maxPart = Math.max(maxPart, w);
      let best = -1, bestD = Infinity;
      for (let p = 0; p < q.xy.length / 2; p++) {
        const dx = layout.x(q.xy[2 * p]) - px, dy = layout.y(q.xy[2 * p + 1]) - py, dd = dx * dx + dy * dy;
        const r = Math.max(4, maxR * Math.sqrt(run.partWeights[p] / maxPart));
        if (dd <= r * r && dd < bestD) { best = p; bestD = dd; }
      }
      if (best < 0) return null;
      let cut = 0, neighbours = 0;
      for (let e = 0; e < q.edges.length; e += 3) if (q.edges[e] === best || q.edges[e + 1] === best) { cut += q.edges[e + 2]; neighbours++; }
      return `${partLine(best)} · cut ${formatCount(cut)} to ${formatCount(neighbours)} part(s)${q.omittedEdges ? ' listed' : ''}`;
    }
    const n = d.xy.length / 2;
    const reach = Math.max(6, 2 * vertexRadius(layout, n));
    let best = -1, bestD = reach * reach;
    for (let v = 0; v < n; v++) {
      const dx = layout.x(d.xy[2 * v]) - px, dy = layout.y(d.xy[2 * v + 1]) - py, dd = dx * dx + dy * dy;
      if (dd < bestD) { best = v; bestD = dd; }
    }
    if (best < 0) return null;
    const p = run.part ? run.part[best] : null;
    return `vertex ${best + 1} (line ${best + 1} of the graph file) · ${p === null ? 'part not in the report' : partLine(p)}`;
  }
  let moveRaf = 0, lastMove = null;
  function handleMove() {
    moveRaf = 0;
    const { i, event } = lastMove;
    const rect = figs[i].canvas.getBoundingClientRect();
    showTooltip(tooltip, event, hitText(i, event.clientX - rect.left, event.clientY - rect.top));
  }
  figs.forEach((f, i) => {
    // one lookup per frame however fast the pointer moves (a linear scan: 250,000 vertices in ~1 ms)
    f.canvas.addEventListener('mousemove', (event) => { lastMove = { i, event }; if (!moveRaf) moveRaf = requestAnimationFrame(handleMove); });
    f.canvas.addEventListener('mouseleave', () => { if (moveRaf) cancelAnimationFrame(moveRaf); moveRaf = 0; tooltip.hidden = true; });
  });
  const observer = new ResizeObserver(() => { if (Math.abs((host.clientWidth || 0) - lastWidth) > 8) { lastWidth = -1; layouts = null; schedule(); } });
  observer.observe(host);
  if (sync) drawAll(); else schedule();
  return {
    canvases: () => [figs.map((f) => f.canvas), figs.map((f) => f.balance), [legendCanvas]],
    /** Panel geometry of run `i` (maps report coordinates to CSS px in its canvas). */
    layout: (i) => layouts?.[i] ?? null,
    /** Vertex `v`'s square in run `i`'s panel, CSS px: [left, top, side] (vertex drawings only). */
    vertexBox: (i, v) => (layouts?.[i] && !quotient ? vertexBox(layouts[i], d.xy, v, vertexRadius(layouts[i], d.xy.length / 2)) : null),
    /** What run `i`'s panel drew: {cutDrawn, cutTotal, edgesDrawn} (null for part-to-part graphs). */
    drawn: (i) => figs[i]?.drawn ?? null,
    destroy() {
      observer.disconnect();
      if (rafId) cancelAnimationFrame(rafId);
      if (moveRaf) cancelAnimationFrame(moveRaf);
      tooltip.remove();
    },
  };
}

/** The methods table: rows = figures, columns = methods (and each part's weight, folded). */
export function table(host, envelope) {
  const report = envelope.report;
  const runs = report.runs;
  host.replaceChildren();
  const head = el('tr', {}, el('th', { scope: 'col', text: 'Figure' }), runs.map((r) => el('th', { scope: 'col', text: r.label })));
  const body = ROWS.map(([k, label, help]) => el('tr', {},
    el('th', { scope: 'row', text: label, title: `${k}: ${help}` }),
    runs.map((r, i) => {
      const v = k === 'levels' ? (r.levels.length > 1 ? `${r.levels.length}: ${r.levels.join(' → ')}` : '1 (no coarsening)') : r[k];
      return el('td', { text: typeof v === 'string' ? v : formatValue(v), dataset: { metric: k, run: String(i), value: JSON.stringify(r[k] ?? null) } });
    })));
  // each method's wall-clock time, measured by the worker around the engine's phases
  const ms = new Map((envelope.phases || []).map((p) => [p.name, p.ms]));
  body.push(el('tr', {},
    el('th', { scope: 'row', text: 'Time (ms)', title: 'wall-clock time of the method in this browser (the engine has no clock)' }),
    runs.map((r, i) => el('td', { text: ms.has(r.method) ? String(Math.round(ms.get(r.method))) : '—', dataset: { metric: 'ms', run: String(i) } }))));
  host.append(el('h3', { text: 'Methods' }),
    el('div', { class: 'table-scroll' }, el('table', { class: 'metrics', 'data-testid': 'metrics-table' }, el('thead', {}, head), el('tbody', {}, body))));
  if (report.omitted.parts.length) {
    host.append(el('p', { class: 'note', 'data-testid': 'omitted-note',
      text: `Part vectors left out of the report to keep it within 32 MiB: ${report.omitted.parts.join(', ')} (their figures are complete).` }));
  }
  const partsHost = el('div', { class: 'table-scroll' });
  const details = el('details', { class: 'jobs-details' }, el('summary', { text: `Parts (${formatCount(report.k)})` }), partsHost);
  details.addEventListener('toggle', () => {
    if (!details.open || partsHost.firstChild) return;
    const total = report.graph.totalVertexWeight;
    const rows = [];
    for (let p = 0; p < Math.min(report.k, 500); p++) {
      const name = el('td', { text: String(p) });
      name.prepend(el('span', { class: 'swatch', style: `background:${partColor(p)}` }));
      rows.push(el('tr', {}, name, el('td', { text: formatValue(report.targets[p] * total) }), runs.map((r) => el('td', { text: formatCount(r.partWeights[p]) }))));
    }
    partsHost.replaceChildren(el('table', { class: 'jobs', 'data-testid': 'parts-table' },
      el('thead', {}, el('tr', {}, el('th', { text: 'part' }), el('th', { text: 'target weight' }), runs.map((r) => el('th', { text: r.method })))),
      el('tbody', {}, rows)));
  });
  host.append(details);
}
