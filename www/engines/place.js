// The placement engine's view: one panel per strategy side by side for the chosen case (the nodes
// coloured by task position, task-graph edges by hop count, a heat map of link load, switchable
// layers), the ratio table beside the source's figures with a bar chart, a messages job's end
// times (each message's and each round's, per strategy), and the runs table. Hovering a panel
// names the host under the pointer (its index, name or coordinates, its tasks, or the background
// job on it) or a tree's switch.
import { launcherRow, LAUNCHER_FORMATS, SIMGRID_FORMATS } from './launcher.js';
import { el, formatValue, formatCount, tooltipElement, showTooltip } from '../dom.js';
import { drawLegend, jobColor, PALETTE } from '../draw/common.js';
import { drawPlacement, drawRatioBars, drawEndTimes, hitTest, hostPoint, HOP_BINS, LOAD_BINS, TASK_FIRST, TASK_LAST, BUSY, IDLE } from '../draw/place.js';

const MIN_FIGURE_W = 220;  // px, narrower panels wrap to the next row
const MAX_FIGURE_W = 560;  // px
const FIGURE_GAP = 20;     // px
const CHART_H = 300;       // px
const SYNC_HOST_PANELS = 20_000; // hosts x panels drawn in one task; more: one panel per frame
const TASKS_NAMED = 8;     // a host's tasks named in its tooltip; more are counted

/**
 * Form controls for fields the engine's table states as rules on list items: a `messages` job's
 * messages as a table (from, to, bytes, start), and strategy `given`'s placement (host of each
 * task, as a JSON list).
 */
export const FORM_EXTRAS = [
  { path: 'job.messages', label: 'Messages (one way, each round)', kind: 'rows', default: null, showIf: { path: 'job.kind', equals: 'messages' },
    help: 'from and to: tasks from 0; bytes; start: seconds after the round begins (empty: 0). A task to itself is a free loopback.',
    columns: [{ key: 'src', label: 'from' }, { key: 'dst', label: 'to' }, { key: 'bytes', label: 'bytes' }, { key: 'start', label: 'start (s)', optional: true, empty: '0' }] },
  { path: 'placement', label: 'Given placement', kind: 'string', default: null, showIf: { path: 'strategies', includes: 'given' },
    help: 'strategy given: the host of each task, in task order, e.g. [0, 9, 18]' },
];

/** The second CSV button exports every run. */
export const SECOND_CSV = { label: 'Runs CSV', title: 'Every case and strategy with every figure' };

const bytesLabel = (b) => (b >= 1048576 && b % 1048576 === 0 ? `${b / 1048576} MiB` : b >= 1e6 && b % 1e6 === 0 ? `${b / 1e6} MB` : `${formatValue(b)} B`);
const caseLabel = (c) => `${c.kind} ${formatCount(c.processes)} tasks, ${bytesLabel(c.messageBytes)}`;
const fmtTime = (t) => (typeof t !== 'number' ? '—' : t >= 1 ? `${t.toFixed(3)} s` : `${(t * 1000).toFixed(3)} ms`);
const fmtRatio = (r) => (typeof r === 'number' ? r.toFixed(3) : '—');

export function panelWidth(avail, n) {
  const perRow = Math.max(1, Math.min(n, Math.floor((avail + FIGURE_GAP) / (MIN_FIGURE_W + FIGURE_GAP))));
  return Math.max(1, Math.min(MAX_FIGURE_W, Math.floor((avail - FIGURE_GAP * (perRow - 1)) / perRow)));
}

function systemLine(r) {
  const s = r.system;
  const shape = s.kind === 'dragonfly' ? `SimGrid DRAGONFLY ${s.simgrid} (groups of ${s.groups.slice(0, 3).reduce((a, b) => a * b, 1)} nodes)`
    : s.kind === 'simgrid' ? `platform file, ${s.groups.length === 1 ? 'one group of hosts' : s.groups.length === 2 ? `${s.groups[1]} groups of ${s.groups[0]} hosts` : `host groups ${s.groups.join(' x ')} (lowest level first)`}`
      : s.dims ? (s.dims.length > 3 || s.dims[2] > 1 ? `${s.dims.join(' x ')}` : `${s.dims[0]} x ${s.dims[1]}`) : `SimGrid FAT_TREE ${s.simgrid}`;
  const bg = r.background ? `; experiment 2: ${r.background.jobCount} background job(s) on ${formatCount(r.background.busyHosts)} nodes (${Math.round(r.background.fill * 100)} % asked)` : '; experiment 1: empty cluster';
  return `${s.kind} ${shape}: ${formatCount(s.hosts)} hosts, ${s.kind === 'simgrid' ? `${formatCount(s.links)} links of the file's own bandwidths and latencies` : `${formatCount(s.links)} directed links of ${formatValue(s.bandwidth / 1e6)} MB/s and ${formatValue(s.latency * 1e6)} µs`}; model ${r.model}${r.endTolerance ? `; ends batched: a message with at most ${formatValue(r.endTolerance * 100)} % of its bytes left ends with an earlier one (approximate)` : ''}${r.sourceQuirks ? '; the source\'s quirks on (half shuffle, power-of-two 3D Hilbert)' : ''}${bg}`;
}

/** Where our figures differ from the source's, in words, from the averaged table. */
function differences(r) {
  const notes = [];
  const k = (id) => r.strategies.indexOf(id);
  const adv = k('advanced');
  if (adv < 0) return notes;
  let beatsUs = 0, rows = 0;
  for (const a of r.averages) {
    if (a.source.every((v) => v === null)) continue;
    rows++;
    for (const s of ['simple', 'optimal']) if (k(s) >= 0 && a.ratios[k(s)] !== null && a.ratios[k(s)] < 0.98) beatsUs++;
  }
  if (!rows) {
    notes.push('The source has no figures for this system, job or message size (it ran torus2d, torus3d, fatTree and thinTree with STAR, GRID, CUBE and TREE jobs of 1 B and 1 MB messages).');
    return notes;
  }
  if (!r.sourceQuirks && beatsUs) {
    notes.push(`Here Simple or Optimal beats Advanced in ${beatsUs} cell(s). Our Simple and Optimal give the chosen nodes to tasks in numbering or curve order, which for GRID and CUBE jobs is already a good folding of the task grid; the source's code shuffles the first half of them (switch on sourceQuirks to see its ordering return).`);
  }
  const smaller = r.system.hosts < 4096 ? `our machine is smaller (${r.system.hosts} nodes; the source used 4,096), ` : '';
  notes.push(`Our ratios differ from the source's: ${smaller}our network model is SimGrid's LV08 with max-min sharing reproduced flow by flow, and our Advanced passes message volumes to the partitioner as edge weights (the source passed none).`);
  return notes;
}

/**
 * Host → index of the background job on it (experiment 2), from the bounded view's `busy` and
 * `busyFrom`; empty without background jobs.
 */
function backgroundHosts(bg) {
  const out = new Map();
  if (!bg) return out;
  for (let k = 0; k + 1 < bg.busyFrom.length; k++) {
    for (let i = bg.busyFrom[k]; i < bg.busyFrom[k + 1]; i++) out.set(bg.busy[i], k);
  }
  return out;
}

/**
 * The tasks on each of `n` hosts of a placement (`hosts`: task → host): {from, tasks}, host h's
 * tasks in task order being tasks[from[h]] to tasks[from[h + 1] - 1].
 */
export function tasksByHost(hosts, n) {
  const from = new Uint32Array(n + 1);
  for (const h of hosts) from[h + 1]++;
  for (let h = 0; h < n; h++) from[h + 1] += from[h];
  const next = from.slice(0, n);
  const tasks = new Uint32Array(hosts.length);
  hosts.forEach((h, t) => { tasks[next[h]++] = t; });
  return { from, tasks };
}

/**
 * Coordinates of host `h` on a machine of sides `dims` (x fastest), as text: `x 4, y 1` (and
 * `z` on a machine of depth); a torus of more sides lists them in order: `1, 2, 0, 3, 1`.
 */
export function coordsText(dims, h) {
  let rest = h;
  const c = dims.map((d) => { const v = rest % d; rest = Math.floor(rest / d); return v; });
  if (dims.length > 3) return c.join(', ');
  const shown = dims.length === 3 && dims[2] === 1 ? 2 : dims.length;
  return c.slice(0, shown).map((v, i) => `${'xyz'[i]} ${v}`).join(', ');
}

/**
 * The tooltip of `hit` (hitTest's) on the panel of `run`: a switch's id and level; a host's index
 * with its name (platform files) or coordinates (tori, meshes), the run's tasks on it
 * (`byHost`: tasksByHost of the run, null when it was not placed), and when none, the
 * background job on it (`busy`: backgroundHosts) or "free".
 */
export function hoverText(r, run, hit, byHost, busy) {
  if (hit.type === 'switch') return `switch ${hit.id} (level ${hit.level}${hit.level === 0 ? ': a leaf switch' : ''})`;
  const sys = r.system, h = hit.id;
  const where = sys.hostNames ? sys.hostNames[h] : sys.dims ? coordsText(sys.dims, h) : '';
  const lines = [`host ${h}${where ? ` (${where})` : ''}`];
  const tasks = byHost ? byHost.tasks.subarray(byHost.from[h], byHost.from[h + 1]) : [];
  if (!byHost) lines.push(`${run.label}: not placed`);
  else if (tasks.length) {
    const named = Array.from(tasks.subarray(0, TASKS_NAMED)).join(', ');
    lines.push(`${run.label}: task${tasks.length > 1 ? 's' : ''} ${named}${tasks.length > TASKS_NAMED ? ` … (${formatCount(tasks.length)} tasks)` : ''}`);
  }
  if (!tasks.length) {
    const k = busy.get(h);
    lines.push(k === undefined ? 'free' : `busy: background job ${k} (${r.background.kinds[k]})`);
  }
  return lines.join('\n');
}

/** A strategy for the case shown, and the launcher row (launcher.js) that downloads its placement. */
function launcherControls(r, caseShown) {
  const strategy = el('select', { 'data-testid': 'hostfile-strategy', 'aria-label': 'strategy of the launcher file' },
    el('option', { value: '', text: 'fastest' }), r.strategies.map((st) => el('option', { value: st, text: strategyLabels(r)[st] ?? st })));
  return launcherRow({
    pickers: [strategy],
    pick: () => ({ case: caseShown(), strategy: strategy.value || null }),
    formats: [...LAUNCHER_FORMATS, ...SIMGRID_FORMATS],
    title: 'the placement of the case shown, as the file an MPI launcher or Slurm takes, or the machine and the placement as SimGrid platform and deployment files (placelab hostfile)',
  });
}

/** Draws the report into `host`; returns the handle {canvases, destroy, ...}. */
export function draw(host, envelope) {
  const r = envelope.report;
  host.replaceChildren();
  host.dataset.drawn = '0'; // counts finished drawings (the last panel, legend and chart)
  const info = el('p', { class: 'note', 'data-testid': 'place-info', text: systemLine(r) });
  const caseSelect = el('select', { 'data-testid': 'place-case', 'aria-label': 'case drawn' },
    r.cases.map((c, i) => el('option', { value: String(i), text: caseLabel(c) })));
  const layer = (name, label, on) => {
    const box = el('input', { type: 'checkbox', 'data-testid': `layer-${name}` });
    box.checked = on;
    return [box, el('label', { class: 'layer' }, box, ` ${label}`)];
  };
  const [tasksBox, tasksLabel] = layer('tasks', 'Tasks', true);
  const [edgesBox, edgesLabel] = layer('edges', 'Task edges by hops', r.system.hosts <= 1024);
  // on big machines the cells are too small for both: the heat map starts off
  const [heatBox, heatLabel] = layer('heat', 'Link load', r.system.hosts <= 1024);
  host.append(info, el('div', { class: 'layers' }, el('span', { class: 'muted', text: 'Case' }), caseSelect, tasksLabel, edgesLabel, heatLabel),
    launcherControls(r, () => Number(caseSelect.value) || 0));
  const figuresRow = el('div', { class: 'figures' });
  const legendCanvas = el('canvas', { 'data-testid': 'legend', class: 'legend' });
  const chart = el('canvas', { 'data-testid': 'ratio-chart', class: 'util-chart' });
  const chartLegend = el('canvas', { 'data-testid': 'ratio-legend', class: 'legend' });
  const notes = differences(r).map((t) => el('p', { class: 'note', 'data-testid': 'place-differences', text: t }));
  host.append(figuresRow, legendCanvas, el('h3', { text: 'Ratio to Advanced beside the source' }), chart, chartLegend, ...notes);
  // a messages job: when each message of the first round ended, and each round, per strategy
  const ends = {
    box: el('div', { 'data-testid': 'message-ends', hidden: true }),
    messages: el('canvas', { 'data-testid': 'message-ends-chart', class: 'util-chart' }),
    rounds: el('canvas', { 'data-testid': 'round-ends-chart', class: 'util-chart' }),
    legend: el('canvas', { 'data-testid': 'message-ends-legend', class: 'legend' }),
    note: el('p', { class: 'note', 'data-testid': 'message-ends-note' }),
    drawn: null,
  };
  ends.box.append(el('h3', { text: 'When the messages and rounds ended' }), ends.messages, ends.rounds, ends.legend, ends.note);
  host.append(ends.box);
  const busy = backgroundHosts(r.background);
  const tooltip = tooltipElement('place-tooltip');
  let figs = [];
  let lastWidth = 0, rafId = 0;

  function buildFigures() {
    const c = r.cases[Number(caseSelect.value) || 0];
    figuresRow.replaceChildren();
    tooltip.hidden = true;
    figs = c.runs.map((run, i) => {
      const canvas = el('canvas', { 'data-testid': 'canvas', dataset: { run: String(i), strategy: run.strategy } });
      const cap = el('div', { class: 'caption', 'data-testid': 'place-caption', dataset: { strategy: run.strategy, ratio: String(run.ratio ?? '') } });
      figuresRow.append(el('figure', { class: 'figure' }, canvas, cap));
      const f = { run, canvas, cap, c, drawn: null, byHost: undefined };
      canvas.addEventListener('mousemove', (event) => handleMove(f, event));
      canvas.addEventListener('mouseleave', () => { tooltip.hidden = true; });
      return f;
    });
  }
  /** The tooltip of what is under the pointer in panel `f` (hidden over nothing, or before it is drawn). */
  function handleMove(f, event) {
    const rect = f.canvas.getBoundingClientRect();
    const hit = f.drawn && hitTest(f.drawn.layout, event.clientX - rect.left, event.clientY - rect.top);
    if (hit && f.byHost === undefined) f.byHost = f.run.placed ? tasksByHost(f.run.hosts, r.system.hosts) : null;
    showTooltip(tooltip, event, hit ? hoverText(r, f.run, hit, f.byHost, busy) : '');
  }
  /** Hosts times panels up to which a redraw is one task; beyond, one panel per frame. */
  const sync = r.system.hosts * r.strategies.length <= SYNC_HOST_PANELS;
  let pass = null;
  function layersNow() { return { tasks: tasksBox.checked, edges: edgesBox.checked, heat: heatBox.checked }; }
  function drawFigure(f, w, layers) {
    f.canvas.parentElement.style.width = `${w}px`;
    const run = f.run;
    f.drawn = drawPlacement(f.canvas, w, { system: r.system, hosts: run.placed ? run.hosts : null, busy, edges: f.c.taskEdges,
      edgeHops: run.edgeHops, linkBytes: run.linkBytes, layers, title: run.label });
    f.cap.textContent = run.placed
      ? `time ${fmtTime(run.time)} · ratio ${fmtRatio(run.ratio)}${run.sourceRatio != null ? ` (source ${fmtRatio(run.sourceRatio)})` : ''} · mean ${formatValue(run.dilationMean)} hops, max ${run.dilationMax}${run.batchedEnds ? ` · ${formatCount(run.batchedEnds)} ends batched` : ''}${run.time == null && run.reason ? ` · ${run.reason}` : ''}`
      : `not placed: ${run.reason}`;
  }
  function drawRest(avail, layers) {
    const entries = [{ label: 'task position: first', color: TASK_FIRST }, { label: 'last', color: TASK_LAST },
      { label: 'free node', color: IDLE }];
    if (r.background) entries.push({ label: 'background jobs', color: BUSY });
    if (layers.edges) { entries.push({ label: 'task edge:', heading: true }); for (const b of HOP_BINS) entries.push({ label: b.label, color: b.color, line: true }); }
    if (layers.heat) { entries.push({ label: 'link load:', heading: true }); for (const b of LOAD_BINS) entries.push({ label: b.label, color: b.color, line: true }); }
    if (!r.system.dims && !r.system.groups) entries.push({ label: 'switch', color: PALETTE.router });
    drawLegend(legendCanvas, entries, Math.min(avail, 1000));
    legendCanvas.setAttribute('aria-label', `Legend: ${entries.map((e) => e.label).join('; ')}`);
    const labels = r.averages.map((a) => `${a.kind} ${bytesLabel(a.messageBytes)}`);
    drawRatioBars(chart, { width: Math.min(avail, 1100), height: CHART_H, rows: r.averages, strategies: r.strategies, labels });
    const names = strategyLabels(r);
    drawLegend(chartLegend, [...r.strategies.map((st, k) => ({ label: names[st], color: jobColor(k) })),
      { label: 'the source\'s ratio', color: PALETTE.text, line: true }, { label: 'Advanced = 1', color: PALETTE.contended, line: true, lineWidth: 1 }],
    Math.min(avail, 1100));
    drawEnds(avail);
    host.dataset.drawn = String((Number(host.dataset.drawn) || 0) + 1);
  }
  /** The end-time charts of the case shown, when its runs list them (a messages job). */
  function drawEnds(avail) {
    const c = r.cases[Number(caseSelect.value) || 0];
    const runs = c.runs.map((x, k) => ({ x, k })).filter(({ x }) => x.placed && x.messageEnds);
    ends.box.hidden = runs.length === 0;
    ends.drawn = null;
    if (!runs.length) return;
    const names = strategyLabels(r);
    const width = Math.min(avail, 1100);
    const series = (key) => runs.map(({ x, k }) => ({ label: names[x.strategy], color: jobColor(k), values: x[key] ?? [] }));
    const listed = Math.max(...runs.map(({ x }) => x.messageEnds.length));
    ends.drawn = {
      messages: drawEndTimes(ends.messages, { width, height: CHART_H, series: series('messageEnds'), dots: true,
        title: `Each message of round 1: when it ended (${formatCount(listed)} listed)`, xLabel: 'message (in the job\'s order)' }),
      rounds: drawEndTimes(ends.rounds, { width, height: Math.round(CHART_H * 0.8), series: series('roundEnds'), xFrom: 1,
        title: 'Each round: when it ended', xLabel: 'round' }),
    };
    drawLegend(ends.legend, runs.map(({ x, k }) => ({ label: names[x.strategy], color: jobColor(k) })), width);
    ends.legend.setAttribute('aria-label', `Legend: ${runs.map(({ x }) => names[x.strategy]).join('; ')}`);
    const left = r.omitted.messageEnds ?? 0;
    ends.note.textContent = `Times from the job's start, per strategy (placed runs only).${left ? ` The report lists the first ${formatCount(listed)} message end times of a run; ${formatCount(left)} more (summed over the runs) were left out to keep it within 32 MiB.` : ''}`;
  }
  function drawAll() {
    rafId = 0;
    pass = null;
    const avail = Math.max(MIN_FIGURE_W, host.clientWidth || 800);
    lastWidth = avail;
    const w = panelWidth(avail, figs.length);
    const layers = layersNow();
    for (const f of figs) drawFigure(f, w, layers);
    drawRest(avail, layers);
  }
  /** Big machines: one panel per animation frame, so the page answers between panels. */
  function drawStep() {
    rafId = 0;
    if (!pass) return;
    if (pass.next < figs.length) {
      drawFigure(figs[pass.next], pass.w, pass.layers);
      pass.next++;
      rafId = requestAnimationFrame(drawStep);
      return;
    }
    drawRest(pass.avail, pass.layers);
    pass = null;
  }
  function startPass() {
    const avail = Math.max(MIN_FIGURE_W, host.clientWidth || 800);
    lastWidth = avail;
    pass = { next: 0, avail, w: panelWidth(avail, figs.length), layers: layersNow() };
    if (rafId) cancelAnimationFrame(rafId);
    rafId = requestAnimationFrame(drawStep);
  }
  const schedule = () => {
    if (!sync) { startPass(); return; }
    if (!rafId) rafId = requestAnimationFrame(drawAll);
  };
  caseSelect.addEventListener('change', () => { buildFigures(); schedule(); });
  for (const b of [tasksBox, edgesBox, heatBox]) b.addEventListener('change', schedule);
  const observer = new ResizeObserver(() => { if (Math.abs((host.clientWidth || 0) - lastWidth) > 8) schedule(); });
  observer.observe(host);
  buildFigures();
  if (sync) drawAll(); else startPass();
  return {
    /** A drawing pass (one panel per frame) is under way. */
    drawing: () => pass !== null,
    canvases: () => [figs.map((f) => f.canvas), [legendCanvas], [chart], [chartLegend],
      ...(ends.box.hidden ? [] : [[ends.messages], [ends.rounds], [ends.legend]])],
    /** The end-time charts drawn for the case shown ({messages, rounds}: their points), or null. */
    ends: () => ends.drawn,
    /** What panel `i` drew: {layout, edgesDrawn}. */
    drawn: (i) => figs[i]?.drawn ?? null,
    /** A point (CSS px in its canvas) of host `h` in panel `i`, where its tooltip shows (tests). */
    hostPoint: (i, h) => (figs[i]?.drawn ? hostPoint(figs[i].drawn.layout, h) : null),
    /** What is under (x, y) in panel `i` (hitTest's answer). */
    hit: (i, x, y) => (figs[i]?.drawn ? hitTest(figs[i].drawn.layout, x, y) : null),
    /** Shows case `i` (drawn at once, or one panel per frame on big machines). */
    setCase(i) { caseSelect.value = String(i); buildFigures(); schedule(); },
    destroy() {
      observer.disconnect();
      if (rafId) cancelAnimationFrame(rafId);
      tooltip.remove();
    },
  };
}

/** Each strategy's label as the report gives it (its runs carry it). */
function strategyLabels(r) {
  const out = {};
  for (const c of r.cases) for (const x of c.runs) out[x.strategy] = x.label;
  return out;
}

function tableOf(testid, columns, rows) {
  return el('div', { class: 'table-scroll' }, el('table', { class: 'metrics', 'data-testid': testid },
    el('thead', {}, el('tr', {}, columns.map((c) => el('th', { scope: 'col', text: c })))),
    el('tbody', {}, rows)));
}

/** Tables: the averaged ratio table (ours beside the source's), then every run. */
export function table(host, envelope) {
  const r = envelope.report;
  host.replaceChildren();
  const labels = strategyLabels(r);
  const cols = ['Job', 'Message', 'Sizes'];
  for (const s of r.strategies) cols.push(`${labels[s]} (ours / source)`);
  const rows = r.averages.map((a) => el('tr', {},
    el('td', { text: a.kind }), el('td', { text: bytesLabel(a.messageBytes) }), el('td', { text: String(a.cases) }),
    r.strategies.map((s, k) => {
      const td = el('td', { dataset: { strategy: s, ratio: String(a.ratios[k] ?? ''), source: String(a.source[k] ?? '') } });
      td.append(el('span', { class: 'swatch', style: `background:${jobColor(k)}` }), `${fmtRatio(a.ratios[k])} / ${fmtRatio(a.source[k])}`);
      return td;
    })));
  host.append(el('h3', { text: `Mean time ratio to Advanced (experiment ${r.experiment}); source: Zhdanov & Korkhov's table for the same system, job and message size` }),
    tableOf('ratio-table', cols, rows));
  const runRows = [];
  for (const c of r.cases) {
    for (const x of c.runs) {
      runRows.push(el('tr', {}, [caseLabel(c), x.label, x.placed ? 'yes' : `no: ${x.reason}`, fmtTime(x.time), fmtRatio(x.ratio), fmtRatio(x.sourceRatio),
        formatValue(x.hopBytes), String(x.dilationMax), formatValue(x.dilationMean), formatValue(x.congestion)].map((v) => el('td', { text: v }))));
    }
  }
  const details = el('details', { class: 'jobs-details', open: r.cases.length <= 2 },
    el('summary', { text: `Every case and strategy (${formatCount(runRows.length)})` }),
    tableOf('runs-table', ['Case', 'Strategy', 'Placed', 'Time', 'Ratio', 'Source', 'Hop-bytes', 'Dilation max', 'Dilation mean', 'Congestion (B)'], runRows));
  host.append(details);
  if (r.omitted.linkBytes.length || r.omitted.taskEdges) {
    host.append(el('p', { class: 'note', text: `Left out of the report to keep it within 32 MiB: link loads of ${r.omitted.linkBytes.length} run(s), ${formatCount(r.omitted.taskEdges)} task edge(s) of the drawing (the figures are complete).` }));
  }
}
