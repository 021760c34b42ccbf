// The allocation engine's view: one drawing per policy side by side on the same scale,
// stream controls (time slider, utilization over time), a legend, and the metrics tables.
import { el, formatValue, csvLine } from '../dom.js';
import { PALETTE, OWNED_IDLE_TINT, jobColor, tint, drawLegend, drawLineChart } from '../draw/common.js';
import { layoutFor, drawAllocation, hitTest, routerCenter, nodeCenter, nodeSample, linkMidpoint } from '../draw/allocation.js';

const MIN_FIGURE_W = 260;   // px
const MAX_FIGURE_W = 640;   // px
const FIGURE_GAP = 20;      // px
const CHART_H = 150;        // px, utilization chart
const JOB_ROWS_SHOWN = 500;
const PLAY_FPS = 12;

const SUMMARY_LABELS = {
  placed: 'Jobs placed', unplaced: 'Jobs not placed', decisions: 'Allocation decisions',
  utilization: 'Utilization', fragmentation: 'Fragmentation', contendedJobs: 'Jobs with contention',
  sharedRouters: 'Shared routers', sharedLinks: 'Shared links', meanDiameter: 'Mean diameter (hops)',
  meanHops: 'Mean hops', ownedIdle: 'Owned but idle nodes', makespan: 'Makespan (s)',
  meanWait: 'Mean wait (s)', meanBoundedSlowdown: 'Mean bounded slowdown',
  fragmentationBlocks: 'Free blocks (fragmentation)', closedJobs: 'Closed jobs', maxWait: 'Max wait (s)',
};
/** What each summary metric means, shown on hover over its row. */
const SUMMARY_HELP = {
  decisions: 'placement attempts; the head of the queue is retried when jobs leave',
  utilization: 'sets: busy nodes / nodes; streams: node-seconds used / (nodes x makespan)',
  fragmentation: '1 - (largest job a closed region could still take) / (free nodes), at the end',
  contendedJobs: 'jobs whose routes share a router or link with a job running at the same time',
  sharedRouters: 'routers ever carrying traffic of two running jobs (computed by routing every pair)',
  sharedLinks: 'links ever carrying traffic of two running jobs',
  meanDiameter: 'largest hop count between two nodes of a job, averaged over placed jobs',
  meanHops: 'mean hop count over all pairs of a job\'s nodes, averaged over placed jobs',
  ownedIdle: 'nodes reserved for a job but not used (inside its closed region)',
  closedJobs: 'jobs whose nodes plus reserved nodes form a closed region: a full rectangle (mesh) or all leaves under their common switch (tree). Closed-min (best) on trees packs jobs into sibling subtrees: not closed in this sense, yet contention-free',
  fragmentationBlocks: 'jobs that waited at the head of the queue although enough nodes were free',
  meanBoundedSlowdown: 'mean of max(1, (wait + run) / max(run, tau))',
};

const JOB_COLUMNS = ['id', 'name', 'tasks', 'nodes', 'placed', 'fallback', 'ownedIdle', 'diameter', 'meanHops',
  'closed', 'routers', 'links', 'sharedRouterCount', 'sharedLinkCount', 'arrival', 'start', 'end', 'wait', 'boundedSlowdown'];

const JOB_INDEX = new WeakMap(); // run → Map(job id → index), without touching the report
const count = (v) => (Array.isArray(v) ? v.length : v ?? 0);

/** Which job (index into run.jobs) holds each node in a frame, and which nodes are owned but idle. */
function sceneFor(report, run, frame) {
  const N = report.topology.nodes;
  const owner = new Int32Array(N).fill(-1);
  const ownedIdle = new Uint8Array(N);
  let index = JOB_INDEX.get(run);
  if (!index) { index = new Map(run.jobs.map((j, i) => [j.id, i])); JOB_INDEX.set(run, index); }
  const shown = frame && Array.isArray(frame.running) && report.workload === 'stream'
    ? frame.running.map((id) => index.get(id)).filter((i) => i !== undefined)
    : run.jobs.map((_, i) => i);
  for (const i of shown) {
    const job = run.jobs[i];
    const ranges = job.nodeRanges || [];
    const total = ranges.reduce((a, r) => a + r[1], 0);
    // Reserved nodes beyond those the tasks need are drawn as owned-but-idle (the last ones).
    const used = total - Math.min(total, job.ownedIdle || 0);
    let k = 0;
    for (const [first, n] of ranges) {
      for (let v = first; v < first + n && v < N; v++, k++) { owner[v] = i; if (k >= used) ownedIdle[v] = 1; }
    }
  }
  return {
    owner, ownedIdle,
    contendedRouters: (frame && frame.contendedRouters) || [],
    contendedLinks: (frame && frame.contendedLinks) || [],
  };
}

function legendEntries(report) {
  const jobs = report.runs[0]?.jobs || [];
  const entries = [];
  if (jobs.length <= PALETTE.jobs.length) jobs.forEach((j, i) => entries.push({ label: `${j.name || `job ${j.id}`}`, color: jobColor(i) }));
  else entries.push({ label: `jobs (${jobs.length}; colours repeat)`, colors: PALETTE.jobs });
  entries.push({ label: 'idle', color: PALETTE.idle, border: '#C9CED4' });
  entries.push({ label: 'owned, idle (lighter job colour)', colors: PALETTE.jobs.slice(0, 3).map((c) => tint(c, OWNED_IDLE_TINT)) });
  entries.push({ label: 'router', color: PALETTE.router });
  entries.push({ label: 'contended router', color: PALETTE.contended });
  entries.push({ label: 'contended link', color: PALETTE.contended, line: true, lineWidth: 4 });
  return entries;
}

function frameCaption(report, run, frame) {
  if (!frame) return 'no frame';
  const N = report.topology.nodes;
  const parts = [];
  if (report.workload === 'stream') parts.push(`t = ${formatValue(frame.time)} s`, `${count(frame.running)} running`);
  parts.push(`${frame.busyNodes ?? '—'}/${N} nodes busy`, `${count(frame.contendedRouters)} contended routers`, `${count(frame.contendedLinks)} contended links`);
  return parts.join(' · ');
}

function tooltipText(report, run, scene, hit) {
  const topo = report.topology;
  const lines = [];
  if (hit.type === 'router') {
    lines.push(`router ${hit.id} (level ${hit.level}, #${hit.index})`);
    if (scene.contendedRouters.includes(hit.id)) lines.push('contended: shared by two running jobs');
    return lines.join('\n');
  }
  lines.push(topo.kind === 'mesh' ? `node ${hit.id} (x ${hit.x}, y ${hit.y})` : `node ${hit.id} (leaf ${hit.id})`);
  const j = scene.owner[hit.id];
  if (j < 0) lines.push('idle');
  else {
    const job = run.jobs[j];
    lines.push(`job ${job.id}: ${job.name}${scene.ownedIdle[hit.id] ? ' (owned, idle)' : ''}`);
    lines.push(`${job.tasks} tasks on ${job.nodes} nodes`);
    lines.push(`diameter ${formatValue(job.diameter)}, mean hops ${formatValue(job.meanHops)}`);
    lines.push(`shared routers ${job.sharedRouterCount ?? count(job.sharedRouters)}, shared links ${job.sharedLinkCount ?? count(job.sharedLinks)}`);
  }
  if (topo.kind === 'mesh' && scene.contendedRouters.includes(hit.id)) lines.push('router contended');
  return lines.join('\n');
}

/** Draws the report into `host`; returns a handle {canvases, layouts, setFrame, destroy, ...}. */
export function draw(host, envelope) {
  const report = envelope.report;
  const runs = report.runs;
  const isStream = report.workload === 'stream';
  // The slider moves through time, the same instant for every policy: each run shows its last
  // snapshot at or before that instant (runs snapshot on their own evenly spaced times).
  const frameCount = Math.max(1, ...runs.map((r) => r.frames?.length || 0));
  const xMax = Math.max(0, ...runs.map((r) => r.frames?.[r.frames.length - 1]?.time || 0));
  const timeAt = (k) => (frameCount > 1 ? (k / (frameCount - 1)) * xMax : 0);
  const frameAt = (run, t) => {
    const frames = run.frames || [];
    let lo = 0, hi = frames.length - 1, best = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (frames[mid].time <= t * (1 + 1e-12) + 1e-9) { best = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return best;
  };
  // Streams open at the moment with the most contended routers (then the busiest), where the
  // difference between policies shows best.
  let frameIndex = 0;
  if (isStream) {
    let best = -1;
    for (let k = 0; k < frameCount; k++) {
      const t = timeAt(k);
      const score = runs.reduce((a, r) => {
        const f = r.frames?.[frameAt(r, t)];
        return a + (f ? count(f.contendedRouters) * 1e7 + (f.busyNodes || 0) : 0);
      }, 0);
      if (score > best) { best = score; frameIndex = k; }
    }
  }

  host.replaceChildren();
  const tooltip = el('div', { class: 'tooltip', role: 'tooltip', hidden: true });
  document.body.append(tooltip);
  const slider = el('input', { type: 'range', min: '0', max: String(frameCount - 1), value: String(frameIndex), 'data-testid': 'frame-slider', 'aria-label': 'time (frame)' });
  const frameLabel = el('span', { class: 'frame-label' });
  const playBtn = el('button', { type: 'button', class: 'secondary', text: 'Play', 'data-testid': 'play' });
  if (isStream && frameCount > 1) {
    host.append(el('div', { class: 'stream-controls' }, playBtn, el('label', { class: 'slider' }, el('span', { text: 'Time' }), slider), frameLabel));
  }
  const figuresRow = el('div', { class: 'figures' });
  const legendCanvas = el('canvas', { 'data-testid': 'legend', class: 'legend' });
  host.append(figuresRow, legendCanvas);

  const figs = runs.map((run, i) => {
    const canvas = el('canvas', { 'data-testid': 'canvas', dataset: { run: String(i), policy: run.policy } });
    const caption = el('div', { class: 'caption', 'data-testid': 'frame-caption' });
    const chart = isStream ? el('canvas', { 'data-testid': 'util-chart', class: 'util-chart' }) : null;
    figuresRow.append(el('figure', { class: 'figure' }, canvas, caption, chart));
    return { run, canvas, caption, chart, scene: null };
  });

  let layout = null, lastWidth = 0, rafId = 0, playTimer = 0;

  function drawAll() {
    rafId = 0;
    const avail = Math.max(MIN_FIGURE_W, host.clientWidth || 800);
    const per = Math.max(MIN_FIGURE_W, Math.min(MAX_FIGURE_W, Math.floor((avail - FIGURE_GAP * (runs.length - 1)) / runs.length) - 2));
    if (!layout || avail !== lastWidth) { layout = layoutFor(report.topology, per); lastWidth = avail; }
    for (const f of figs) {
      f.canvas.parentElement.style.width = `${layout.width}px`;
      const frames = f.run.frames || [];
      f.frame = frameAt(f.run, timeAt(frameIndex));
      const frame = frames[f.frame];
      f.scene = sceneFor(report, f.run, frame);
      drawAllocation(f.canvas, layout, { ...f.scene, title: f.run.label || f.run.policy });
      f.caption.textContent = frameCaption(report, f.run, frame);
      if (f.chart) {
        drawLineChart(f.chart, {
          width: layout.width, height: CHART_H, xMax, yMax: 1, title: 'Busy nodes over time',
          series: [{ x: frames.map((fr) => fr.time), y: frames.map((fr) => (fr.busyNodes || 0) / report.topology.nodes) }],
          xLabel: 'time (s)', yLabel: 'busy', yFormat: (v) => `${Math.round(v * 100)}%`, marker: frame?.time,
        });
      }
    }
    drawLegend(legendCanvas, legendEntries(report), Math.min(figuresRow.clientWidth || avail, 900));
    frameLabel.textContent = isStream ? `t = ${formatValue(timeAt(frameIndex))} s of ${formatValue(xMax)} s` : '';
  }
  const schedule = () => { if (!rafId) rafId = requestAnimationFrame(drawAll); };

  function setFrame(i) {
    frameIndex = Math.max(0, Math.min(frameCount - 1, i | 0));
    slider.value = String(frameIndex);
    schedule();
  }
  function handleSlider() { setFrame(Number(slider.value)); }
  function handlePlay() {
    if (playTimer) { clearInterval(playTimer); playTimer = 0; playBtn.textContent = 'Play'; return; }
    if (frameIndex >= frameCount - 1) setFrame(0);
    playBtn.textContent = 'Pause';
    playTimer = setInterval(() => {
      if (frameIndex >= frameCount - 1) { handlePlay(); return; }
      setFrame(frameIndex + 1);
    }, 1000 / PLAY_FPS);
  }
  slider.addEventListener('input', handleSlider);
  playBtn.addEventListener('click', handlePlay);

  function handleMove(f, event) {
    if (!layout || !f.scene) return;
    const rect = f.canvas.getBoundingClientRect();
    const hit = hitTest(layout, event.clientX - rect.left, event.clientY - rect.top);
    if (!hit) { tooltip.hidden = true; return; }
    tooltip.textContent = tooltipText(report, f.run, f.scene, hit);
    tooltip.hidden = false;
    const x = Math.min(event.clientX + 14, window.innerWidth - tooltip.offsetWidth - 8);
    const y = Math.min(event.clientY + 14, window.innerHeight - tooltip.offsetHeight - 8);
    tooltip.style.left = `${x}px`; tooltip.style.top = `${y}px`;
  }
  for (const f of figs) {
    f.canvas.addEventListener('mousemove', (e) => handleMove(f, e));
    f.canvas.addEventListener('mouseleave', () => { tooltip.hidden = true; });
  }

  const observer = new ResizeObserver(() => { if (Math.abs((host.clientWidth || 0) - lastWidth) > 8) { layout = null; schedule(); } });
  observer.observe(host);
  drawAll();

  return {
    get frameIndex() { return frameIndex; },
    /** Index into runs[i].frames of the snapshot drawn for run i. */
    frameOf: (i) => figs[i]?.frame ?? 0,
    get layout() { return layout; },
    setFrame,
    drawNow: drawAll,
    /** Rows of canvases for the PNG export: the drawings, the charts, then the legend. */
    canvases: () => [figs.map((f) => f.canvas), figs.filter((f) => f.chart).map((f) => f.chart), [legendCanvas]].filter((r) => r.length),
    routerCenter: (id) => routerCenter(layout, id),
    nodeCenter: (id) => nodeCenter(layout, id),
    nodeSample: (id) => nodeSample(layout, id),
    linkMidpoint: (id) => linkMidpoint(layout, id),
    /** Job index per node and contention of run `i` at the shown frame. */
    scene: (i) => figs[i]?.scene,
    destroy() {
      observer.disconnect();
      if (rafId) cancelAnimationFrame(rafId);
      if (playTimer) clearInterval(playTimer);
      tooltip.remove();
    },
  };
}

function summaryKeys(report) {
  const keys = [];
  for (const run of report.runs) for (const k of Object.keys(run.summary || {})) if (!keys.includes(k)) keys.push(k);
  return keys;
}
function jobKeys(report) {
  const present = new Set();
  for (const run of report.runs) for (const j of run.jobs.slice(0, 50)) Object.keys(j).forEach((k) => present.add(k));
  present.delete('nodeRanges');
  const keys = JOB_COLUMNS.filter((k) => present.has(k));
  for (const k of present) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** Metrics tables: summary (rows = metrics, columns = policies) and per-job (collapsible). */
export function table(host, envelope) {
  const report = envelope.report;
  const runs = report.runs;
  host.replaceChildren();
  const head = el('tr', {}, el('th', { scope: 'col', text: 'Metric' }), runs.map((r) => el('th', { scope: 'col', text: r.label || r.policy })));
  const body = summaryKeys(report).map((k) => el('tr', {},
    el('th', { scope: 'row', text: SUMMARY_LABELS[k] || k, title: SUMMARY_HELP[k] ? `${k}: ${SUMMARY_HELP[k]}` : k }),
    runs.map((r, i) => el('td', { text: formatValue(r.summary?.[k]), dataset: { metric: k, run: String(i), value: JSON.stringify(r.summary?.[k] ?? null) } }))));
  host.append(el('h3', { text: 'Summary' }),
    el('div', { class: 'table-scroll' }, el('table', { class: 'metrics', 'data-testid': 'metrics-table' }, el('thead', {}, head), el('tbody', {}, body))));

  const keys = jobKeys(report);
  const policySelect = el('select', { 'data-testid': 'jobs-policy', 'aria-label': 'policy' },
    runs.map((r, i) => el('option', { value: String(i), text: r.label || r.policy })));
  const jobsHost = el('div', { class: 'table-scroll' });
  const note = el('p', { class: 'note' });
  function renderJobs() {
    const run = runs[Number(policySelect.value) || 0];
    const shown = run.jobs.slice(0, JOB_ROWS_SHOWN);
    const rows = shown.map((j, i) => el('tr', {}, keys.map((k) => {
      const td = el('td', { text: formatValue(j[k]) });
      if (k === 'name') td.prepend(el('span', { class: 'swatch', style: `background:${jobColor(i)}` }));
      return td;
    })));
    jobsHost.replaceChildren(el('table', { class: 'jobs', 'data-testid': 'jobs-table' },
      el('thead', {}, el('tr', {}, keys.map((k) => el('th', { scope: 'col', text: k })))), el('tbody', {}, rows)));
    note.textContent = run.jobs.length > JOB_ROWS_SHOWN
      ? `Showing the first ${JOB_ROWS_SHOWN} of ${run.jobs.length} jobs; the CSV export has them all.` : '';
  }
  policySelect.addEventListener('change', renderJobs);
  const details = el('details', { class: 'jobs-details' },
    el('summary', { text: `Jobs (${runs[0]?.jobs.length ?? 0} per policy)` }),
    el('div', { class: 'jobs-bar' }, el('label', {}, 'Policy ', policySelect)), note, jobsHost);
  details.addEventListener('toggle', () => { if (details.open && !jobsHost.firstChild) renderJobs(); }, { once: false });
  host.append(details);
}

/** CSV exports: the summary table and every job of every policy. */
export function csv(envelope) {
  const report = envelope.report;
  const runs = report.runs;
  const summary = [csvLine(['metric', ...runs.map((r) => r.policy)])];
  for (const k of summaryKeys(report)) summary.push(csvLine([k, ...runs.map((r) => r.summary?.[k] ?? '')]));
  const keys = jobKeys(report);
  const jobs = [csvLine(['policy', ...keys])];
  for (const r of runs) for (const j of r.jobs) jobs.push(csvLine([r.policy, ...keys.map((k) => j[k])]));
  return [
    { name: 'summary', text: summary.join('\n') + '\n' },
    { name: 'jobs', text: jobs.join('\n') + '\n' },
  ];
}
