// The moldable engine's view: one Gantt chart per method side by side on the same time scale
// (machines across, time down, one colour per job), the lower bound and known optimum as lines,
// the GA's convergence curve (live while the GA runs: `partial`), the source's delta metrics,
// and the methods table. Hovering a Gantt chart names the job under the pointer: its variant,
// start, end and machines.
import { el, formatValue, formatCount, tooltipElement, showTooltip } from '../dom.js';
import { drawLegend, jobColor } from '../draw/common.js';
import { drawGantt, drawConvergence, ganttHit, BOUND_COLOR, OPTIMUM_COLOR } from '../draw/moldable.js';
import { scheduleArrays } from './moldable-data.js';

const MIN_FIGURE_W = 220;  // px
const MAX_FIGURE_W = 420;  // px
const FIGURE_GAP = 20;     // px
const GANTT_H = 420;       // px
const CURVE_H = 240;       // px
const MAX_CURVE_W = 900;   // px
const ROWS_SHOWN = 200;

/** The second CSV button exports every job of every schedule. */
export const SECOND_CSV = { label: 'Schedule CSV', title: 'Every job of every schedule: variant, start, end, machines' };

const pct = (v) => (typeof v === 'number' && Number.isFinite(v) ? `${(v * 100).toFixed(1)} %` : '—');
const num = (v) => (typeof v === 'number' ? formatValue(v) : '—');

export function panelWidth(avail, n) {
  const perRow = Math.max(1, Math.min(n, Math.floor((avail + FIGURE_GAP) / (MIN_FIGURE_W + FIGURE_GAP))));
  return Math.max(MIN_FIGURE_W, Math.min(MAX_FIGURE_W, Math.floor((avail - FIGURE_GAP * (perRow - 1)) / perRow)));
}

function legendEntries(report) {
  const entries = [{ label: report.jobs <= 12 ? 'jobs' : 'jobs (colours repeat after 12)', colors: Array.from({ length: 12 }, (_, i) => jobColor(i)) },
    { label: `lower bound ${num(report.lowerBound.value)}`, color: BOUND_COLOR, line: true, lineWidth: 2 }];
  if (report.optimum) entries.push({ label: `optimum H = ${num(report.optimum)}`, color: OPTIMUM_COLOR, line: true, lineWidth: 2 });
  return entries;
}

function caption(report, m) {
  const parts = [`makespan ${num(m.makespan)}`, `${formatValue(m.ratioToBound)} x bound`];
  if (m.ratioToOptimum !== null && m.ratioToOptimum !== undefined) parts.push(`${formatValue(m.ratioToOptimum)} x H`);
  parts.push(`utilization ${pct(m.utilization)}`, `weight ${formatValue(m.meanRelativeWeight)}`);
  parts.push(m.valid === 'ok' ? 'valid' : `INVALID: ${m.valid}`);
  return parts.join(' · ');
}

/** Machine runs as text: `0–3 8 12–15`. */
function runsText(s, i) {
  const runs = [];
  for (let k = s.runOffset[i]; k < s.runOffset[i + 1]; k++) {
    runs.push(s.runCount[k] === 1 ? `${s.runFirst[k]}` : `${s.runFirst[k]}–${s.runFirst[k] + s.runCount[k] - 1}`);
  }
  return runs.length > 8 ? `${runs.slice(0, 8).join(' ')} … (${runs.length} runs)` : runs.join(' ');
}

/** The hover text of schedule row `i` of method `m`. */
function hoverText(report, m, i) {
  const s = m.schedule;
  const name = report.jobNames?.[s.job[i]] ?? `job ${s.job[i]}`;
  const q = report.jobVariants?.[s.job[i]];
  return `${name} · ${m.label} · variant ${s.variant[i] + 1}${q ? ` of ${q}` : ''} (${formatCount(s.ranks[i])} ranks) · `
    + `start ${num(s.start[i])}, end ${num(s.end[i])} · machines ${runsText(s, i)}`;
}

function gaSentence(ga) {
  return `GA (K = ${ga.population}, V = ${ga.cycles}, P = ${ga.crossover}, G = ${ga.parts}, ${ga.decoder} decoder${ga.islands > 1 ? `, ${ga.islands} islands exchanging every ${ga.exchangeEvery} cycles` : ''}; ${formatCount(ga.evaluations)} schedules evaluated): `
    + `δ1 = (T_BFDH − T)/T = ${pct(ga.delta1)}, δ2 = (T_FFDH − T)/T = ${pct(ga.delta2)}, `
    + `δ3 = (T_BFDH_INIT − T)/T = ${pct(ga.delta3)}, δ4 = (T_FFDH_INIT − T)/T = ${pct(ga.delta4)} (the source reports 45 % on average).`;
}

/** Draws the report into `host`; returns a handle {canvases, destroy}. */
export function draw(host, envelope) {
  const report = envelope.report;
  host.replaceChildren();
  const lb = report.lowerBound;
  host.append(el('p', { class: 'note', 'data-testid': 'moldable-info',
    text: `${formatCount(report.machines)} machines, ${formatCount(report.jobs)} jobs (${formatCount(report.moldableJobs)} moldable, ${formatCount(report.variants)} variants; from ${report.source})`
      + `${report.efficiency !== null && report.efficiency !== undefined ? `, efficiency constraint w = ${report.efficiency}` : ''}. `
      + `Lower bound ${num(lb.value)} (area ${num(lb.area)}, longest job ${num(lb.longest)})${report.optimum ? `; optimum H = ${num(report.optimum)}` : ''}.`
      + `${report.speedup ? ` Speedup model: ${report.speedup}.` : ''}` }));
  const swfBtn = el('button', { type: 'button', class: 'secondary', text: 'Export SWF', 'data-testid': 'export-swf',
    title: 'the GA schedule (or the last method\'s) in the Standard Workload Format' });
  swfBtn.addEventListener('click', () => host.dispatchEvent(new CustomEvent('export', { bubbles: true, detail: { name: 'swf' } })));
  host.append(el('div', { class: 'layers' }, swfBtn));
  const row = el('div', { class: 'figures' });
  const legend = el('canvas', { 'data-testid': 'legend', class: 'legend' });
  host.append(row, legend);
  const figs = report.methods.map((m) => {
    const canvas = el('canvas', { 'data-testid': 'canvas', dataset: { method: m.method, makespan: String(m.makespan), valid: m.valid } });
    const cap = el('div', { class: 'caption', 'data-testid': 'moldable-caption', text: caption(report, m) });
    row.append(el('figure', { class: 'figure' }, canvas, cap));
    return { m, canvas, cap };
  });
  let curveCanvas = null;
  if (report.ga) {
    curveCanvas = el('canvas', { 'data-testid': 'ga-curve' });
    host.append(el('section', { 'data-testid': 'moldable-ga' }, el('p', { 'data-testid': 'ga-deltas', text: gaSentence(report.ga) }), curveCanvas));
  }
  const tMax = Math.max(...report.methods.map((m) => m.makespan), lb.value, report.optimum || 0);
  const tooltip = tooltipElement('gantt-tooltip');
  for (const f of figs) {
    f.canvas.addEventListener('mousemove', (event) => {
      const r = f.canvas.getBoundingClientRect();
      const i = f.map ? ganttHit(f.m.schedule, f.map.machineAt(event.clientX - r.left), f.map.timeAt(event.clientY - r.top)) : -1;
      showTooltip(tooltip, event, i < 0 ? '' : hoverText(report, f.m, i));
    });
    f.canvas.addEventListener('mouseleave', () => { tooltip.hidden = true; });
  }
  let lastWidth = 0;
  function drawAll() {
    const avail = Math.max(MIN_FIGURE_W, host.clientWidth || 800);
    lastWidth = avail;
    const w = panelWidth(avail, figs.length);
    for (const f of figs) {
      f.canvas.parentElement.style.width = `${w}px`;
      f.map = drawGantt(f.canvas, { width: w, height: GANTT_H, n: report.machines, tMax, schedule: f.m.schedule, lowerBound: lb.value, optimum: report.optimum, title: f.m.label });
    }
    drawLegend(legend, legendEntries(report), Math.min(avail, MAX_CURVE_W));
    if (curveCanvas) {
      drawConvergence(curveCanvas, { width: Math.min(avail, MAX_CURVE_W), height: CURVE_H, curve: report.ga.curve, cycles: report.ga.cycles,
        lowerBound: lb.value, optimum: report.optimum, title: 'GA: best makespan per cycle' });
    }
  }
  const observer = new ResizeObserver(() => { if (Math.abs((host.clientWidth || 800) - lastWidth) > 8) drawAll(); });
  observer.observe(host);
  drawAll();
  return {
    canvases: () => [figs.map((f) => f.canvas), [legend], curveCanvas && [curveCanvas]].filter(Boolean),
    /** CSS px (in its canvas) of the middle of row `i`'s first machine run in `method`'s chart (tests). */
    ganttPoint(method, i) {
      const f = figs.find((x) => x.m.method === method);
      const s = f.m.schedule, k = s.runOffset[i];
      return { x: f.map.X(s.runFirst[k] + s.runCount[k] / 2), y: f.map.Y((s.start[i] + s.end[i]) / 2) };
    },
    destroy() { observer.disconnect(); tooltip.remove(); },
  };
}

/**
 * A partial result of a running GA (posted from inside the engine worker): the best schedule so
 * far and the convergence curve, drawn in a live panel that replaces the drawing. The panel stays
 * when the run is stopped (the best so far) and goes when the final report is drawn. Returns a
 * view handle {canvases, destroy, stopped} (PNG export of the live panel; Stop's caption).
 */
export function partial(host, value) {
  let live = host.querySelector('[data-testid="moldable-live"]');
  if (!live) {
    live = el('section', { 'data-testid': 'moldable-live', class: 'moldable-live' },
      el('p', { class: 'caption', 'data-testid': 'live-caption' }),
      el('div', { class: 'figures' }, el('canvas', { 'data-testid': 'live-gantt' }), el('canvas', { 'data-testid': 'live-curve' })));
    // the drawing on screen belongs to an earlier run: the live panel replaces it
    host.replaceChildren(live);
  }
  const [cap, figures] = live.children;
  const [gantt, curve] = figures.children;
  live.dataset.cycle = String(value.cycle);
  live.dataset.makespan = String(value.makespan);
  const sofar = `best makespan so far ${num(value.makespan)} (lower bound ${num(value.lowerBound)})`;
  cap.textContent = `GA running: cycle ${formatCount(value.cycle)} of ${formatCount(value.cycles)}, ${sofar}. Stop keeps this schedule on screen.`;
  const avail = Math.max(MIN_FIGURE_W, host.clientWidth || 800);
  const w = Math.min(MAX_FIGURE_W, Math.floor(avail / 2) - FIGURE_GAP);
  drawGantt(gantt, { width: Math.max(MIN_FIGURE_W, w), height: CURVE_H + 60, n: value.machines, tMax: Math.max(value.curve[0] ?? value.makespan, value.makespan),
    schedule: scheduleArrays(value.schedule), lowerBound: value.lowerBound, title: 'GA: best so far' });
  drawConvergence(curve, { width: Math.max(MIN_FIGURE_W, w), height: CURVE_H + 60, curve: value.curve, cycles: value.cycles, lowerBound: value.lowerBound, title: 'best makespan per cycle' });
  return {
    canvases: () => [[gantt, curve]],
    destroy() {},
    /** The run was stopped: the caption says where the schedule on screen comes from. */
    stopped() { cap.textContent = `GA stopped at cycle ${formatCount(value.cycle)} of ${formatCount(value.cycles)}: ${sofar}.`; },
  };
}

/** Tables: the methods with every figure, then the first jobs of each schedule. */
export function table(host, envelope) {
  const report = envelope.report;
  host.replaceChildren();
  const cols = ['Method', 'Makespan', 'Makespan / lower bound', 'Makespan / optimum', 'Mean relative weight', 'Utilization', 'Validator'];
  host.append(el('div', { class: 'table-scroll' }, el('table', { class: 'metrics', 'data-testid': 'moldable-table' },
    el('thead', {}, el('tr', {}, cols.map((c) => el('th', { scope: 'col', text: c })))),
    el('tbody', {}, report.methods.map((m) => el('tr', { dataset: { method: m.method } },
      [m.label, num(m.makespan), formatValue(m.ratioToBound), m.ratioToOptimum == null ? '—' : formatValue(m.ratioToOptimum), formatValue(m.meanRelativeWeight), pct(m.utilization), m.valid]
        .map((v) => el('td', { text: v }))))))));
  const names = report.jobNames || [];
  for (const m of report.methods) {
    const s = m.schedule;
    const rows = [];
    for (let i = 0; i < Math.min(s.length, ROWS_SHOWN); i++) {
      const runs = [];
      for (let k = s.runOffset[i]; k < s.runOffset[i + 1] && runs.length < 6; k++) {
        runs.push(s.runCount[k] === 1 ? `${s.runFirst[k]}` : `${s.runFirst[k]}–${s.runFirst[k] + s.runCount[k] - 1}`);
      }
      if (s.runOffset[i + 1] - s.runOffset[i] > 6) runs.push('…');
      rows.push(el('tr', {}, [names[s.job[i]] ?? s.job[i], num(s.start[i]), num(s.end[i]), runs.join(' ')].map((v) => el('td', { text: String(v) }))));
    }
    host.append(el('details', { class: 'jobs-details' }, el('summary', { text: `${m.label}: jobs (${formatCount(s.length)}; the Schedule CSV has them all)` }),
      el('div', { class: 'table-scroll' }, el('table', { class: 'metrics' },
        el('thead', {}, el('tr', {}, ['Job', 'Start', 'End', 'Machines'].map((c) => el('th', { scope: 'col', text: c })))),
        el('tbody', {}, rows)))));
  }
}
