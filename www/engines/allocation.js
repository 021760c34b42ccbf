// The allocation engine's view: one drawing per policy side by side on the same scale,
// stream controls (time slider, utilization over time), a legend, and the metrics tables.
import { launcherRow } from './launcher.js';
import { el, formatValue, formatCount, tooltipElement, showTooltip } from '../dom.js';
import { summaryKeys, jobKeys, contentionComparison } from './allocation-data.js';
import { PALETTE, OWNED_IDLE_TINT, HEAT_BINS, jobColor, tint, drawLegend, drawLineChart } from '../draw/common.js';
import { trafficHeat, reservedNodes } from '../draw/traffic.js';
import { layoutFor, drawAllocation, hitTest, routerCenter, nodeCenter, nodeSample, linkMidpoint, drawRunTimeChart } from '../draw/allocation.js';

const MIN_FIGURE_W = 200;   // px, narrower panels wrap to the next row
const MAX_FIGURE_W = 640;   // px
const FIGURE_GAP = 20;      // px
const CHART_H = 150;        // px, utilization chart
const JOB_ROWS_SHOWN = 500;
const PLAY_FPS = 12;
/** Up to this many nodes over all panels a redraw is one task; beyond, one panel per frame. */
const SYNC_NODE_PANELS = 200_000;

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


const NO_RANGES = Object.freeze([]);
const count = (v) => (v && typeof v === 'object' && 'length' in v ? v.length : v ?? 0);

/**
 * The drawing's one input: a run of the report as the page holds it, read through one interface,
 * whether the page holds whole job objects (`run.jobs[i].nodeRanges`, frames listing job ids) or
 * the bounded view (`run.placement` typed arrays for every job, job rows only for the first jobs,
 * frames listing job indices). Returns {jobCount, ranges(i) → [[first, count]...], ownedIdle(i),
 * traffic(i) → {tasks, routers, links} (counts undefined when unknown), row(i) (or undefined),
 * running(frame) → job indices}.
 */
function drawingInput(run) {
  const rows = run.jobs || [];
  const p = run.placement;
  if (p) {
    const t = run.traffic; // optional per-job typed arrays {tasks, routers, links}
    return {
      jobCount: p.ownedIdle.length,
      ranges(i) {
        if (p.offsets[i] === p.offsets[i + 1]) return NO_RANGES;
        const out = [];
        for (let k = p.offsets[i]; k < p.offsets[i + 1]; k++) out.push([p.ranges[2 * k], p.ranges[2 * k + 1]]);
        return out;
      },
      ownedIdle: (i) => p.ownedIdle[i],
      traffic: (i) => (t ? { tasks: t.tasks[i], routers: t.routers[i], links: t.links[i] }
        : rows[i] ? { tasks: rows[i].tasks, routers: rows[i].routers, links: rows[i].links } : { tasks: 0 }),
      row: (i) => rows[i],
      running: (frame) => Array.from(frame.running || []),
    };
  }
  const index = new Map(rows.map((j, i) => [j.id, i]));
  return {
    jobCount: rows.length,
    ranges: (i) => rows[i].nodeRanges || [],
    ownedIdle: (i) => rows[i].ownedIdle || 0,
    traffic: (i) => ({ tasks: rows[i].tasks, routers: rows[i].routers, links: rows[i].links }),
    row: (i) => rows[i],
    running: (frame) => (frame.running || []).map((id) => index.get(id)).filter((i) => i !== undefined),
  };
}
const INPUTS = new WeakMap(); // run → drawingInput(run)
function inputOf(run) {
  let input = INPUTS.get(run);
  if (!input) { input = drawingInput(run); INPUTS.set(run, input); }
  return input;
}

/**
 * Which job (index) holds each node in a frame, which nodes are owned but idle, the report's
 * contended routers and links, and how many running jobs cross each router and link (`heat`).
 */
function sceneFor(report, run, frame) {
  const topo = report.topology;
  const N = topo.nodes;
  const input = inputOf(run);
  const owner = new Int32Array(N).fill(-1);
  const ownedIdle = new Uint8Array(N);
  const shown = frame && frame.running && report.workload === 'stream'
    ? input.running(frame)
    : Array.from({ length: input.jobCount }, (_, i) => i);
  const footprints = [];
  for (const i of shown) {
    // The ranges list the nodes the job uses; the nodes it reserves are known only by count.
    const ranges = input.ranges(i);
    for (const [first, n] of ranges) owner.fill(i, Math.min(first, N), Math.min(first + n, N));
    if (ranges.length) footprints.push({ ranges, ...input.traffic(i) });
  }
  // Reserved nodes are placed once every used node is known: they never cover a node a job uses.
  for (const i of shown) {
    const idle = input.ownedIdle(i);
    if (idle) for (const v of reservedNodes(topo, input.ranges(i), idle, owner, i)) { owner[v] = i; ownedIdle[v] = 1; }
  }
  return {
    owner, ownedIdle,
    contendedRouters: Array.from((frame && frame.contendedRouters) || []),
    contendedLinks: Array.from((frame && frame.contendedLinks) || []),
    heat: trafficHeat(topo, footprints),
  };
}

function legendEntries(report, layers) {
  const input = inputOf(report.runs[0] || {});
  const n = report.runs[0] ? input.jobCount : 0;
  const entries = [];
  if (layers.jobs) {
    if (n <= PALETTE.jobs.length) {
      for (let i = 0; i < n; i++) { const j = input.row(i); entries.push({ label: `${j?.name || `job ${j?.id ?? i}`}`, color: jobColor(i) }); }
    } else entries.push({ label: `jobs (${n}; colours repeat)`, colors: PALETTE.jobs });
    entries.push({ label: 'idle', color: PALETTE.idle, border: '#C9CED4' });
    entries.push({ label: 'owned, idle (lighter job colour)', colors: PALETTE.jobs.slice(0, 3).map((c) => tint(c, OWNED_IDLE_TINT)) });
  }
  entries.push({ label: 'router', color: PALETTE.router });
  if (layers.contention) {
    const bins = layers.jobs ? HEAT_BINS.filter((b) => b.min >= 2) : HEAT_BINS;
    entries.push({ label: `running jobs crossing a router or link${layers.jobs ? ' (2+ = contended)' : ''}:`, heading: true });
    for (const b of bins) entries.push({ label: b.label, color: b.color });
  }
  return entries;
}

/**
 * A panel's caption. For streams it opens with the slider's instant `t` (the same in every panel)
 * and, when the run's snapshot shown was taken earlier, says so: each run snapshots its own evenly
 * spaced times and shows its last snapshot at or before `t`.
 */
function frameCaption(report, frame, t) {
  if (!frame) return 'no frame';
  const N = report.topology.nodes;
  const parts = [];
  if (report.workload === 'stream') {
    const at = `t = ${formatValue(t)} s`;
    parts.push(frame.time < t ? `${at} (snapshot of ${formatValue(frame.time)} s)` : at, `${count(frame.running)} running`);
  }
  parts.push(`${frame.busyNodes ?? '—'}/${N} nodes busy`, `${count(frame.contendedRouters)} contended routers`, `${count(frame.contendedLinks)} contended links`);
  return parts.join(' · ');
}

function tooltipText(report, run, scene, hit) {
  const topo = report.topology;
  const lines = [];
  const crossing = (id) => (scene.heat ? `, crossed by ${scene.heat.routers[id]} running job(s)` : '');
  if (hit.type === 'router') {
    lines.push(`router ${hit.id}${hit.name ? ` ${hit.name}` : ''} (level ${hit.level}, #${hit.index})${crossing(hit.id)}`);
    if (scene.contendedRouters.includes(hit.id)) lines.push('contended: shared by two running jobs');
    return lines.join('\n');
  }
  lines.push(topo.kind === 'mesh' ? `node ${hit.id} (x ${hit.x}, y ${hit.y})`
    : topo.nodeNames ? `node ${hit.id} (${topo.nodeNames[hit.id]})` : `node ${hit.id} (leaf ${hit.id})`);
  const j = scene.owner[hit.id];
  if (j < 0) lines.push('idle');
  else {
    const job = inputOf(run).row(j);
    if (!job) lines.push(`job #${j + 1} (its row is in the JSON and CSV exports)`);
    else {
      lines.push(`job ${job.id}: ${job.name}${scene.ownedIdle[hit.id] ? ' (owned, idle)' : ''}`);
      lines.push(`${job.tasks} tasks on ${job.nodes} nodes`);
      lines.push(`diameter ${formatValue(job.diameter)}, mean hops ${formatValue(job.meanHops)}`);
      lines.push(`shared routers ${job.sharedRouterCount ?? count(job.sharedRouters)}, shared links ${job.sharedLinkCount ?? count(job.sharedLinks)}`);
    }
  }
  if (topo.kind === 'mesh') lines.push(`router${crossing(hit.id)}${scene.contendedRouters.includes(hit.id) ? ': contended' : ''}`);
  return lines.join('\n');
}

/**
 * Width of one panel so that `n` panels share a row of `avail` px (FIGURE_GAP apart), as many per
 * row as fit at MIN_FIGURE_W or more; never wider than MAX_FIGURE_W.
 */
export function panelWidth(avail, n) {
  const perRow = Math.max(1, Math.min(n, Math.floor((avail + FIGURE_GAP) / (MIN_FIGURE_W + FIGURE_GAP))));
  return Math.max(1, Math.min(MAX_FIGURE_W, Math.floor((avail - FIGURE_GAP * (perRow - 1)) / perRow)));
}

/** Draws the report into `host`; returns a handle {canvases, layouts, setFrame, destroy, ...}. */
/** A policy and a job, and the launcher row (launcher.js) that downloads the job's nodes. */
function launcherControls(report) {
  const policy = el('select', { 'data-testid': 'hostfile-strategy', 'aria-label': 'policy of the launcher file' },
    report.runs.map((r) => el('option', { value: r.policy, text: r.label || r.policy })));
  const jobs = Math.max(1, report.runs[0]?.summary ? report.runs[0].summary.placed + report.runs[0].summary.unplaced : report.runs[0]?.jobs.length ?? 1);
  const job = el('input', { type: 'number', min: '0', max: String(jobs - 1), step: '1', value: '0', 'data-testid': 'hostfile-job',
    'aria-label': 'job of the launcher file (its index)', class: 'narrow' });
  return launcherRow({
    pickers: [policy, el('label', { class: 'layer' }, 'job ', job)],
    pick: () => ({ strategy: policy.value, job: Math.min(jobs - 1, Math.max(0, Math.trunc(Number(job.value) || 0))) }),
    title: 'the nodes of this job under this policy, its tasks filled node by node, as the file an MPI launcher or Slurm takes (placelab hostfile)',
  });
}

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
  const tooltip = tooltipElement();
  const slider = el('input', { type: 'range', min: '0', max: String(frameCount - 1), value: String(frameIndex), 'data-testid': 'frame-slider', 'aria-label': 'time (frame)' });
  const frameLabel = el('span', { class: 'frame-label' });
  const playBtn = el('button', { type: 'button', class: 'secondary', text: 'Play', 'data-testid': 'play' });
  if (isStream && frameCount > 1) {
    host.append(el('div', { class: 'stream-controls' }, playBtn, el('label', { class: 'slider' }, el('span', { text: 'Time' }), slider), frameLabel));
  }
  // Layers: job colours, contention heat map, or both (contended routers and links over the jobs).
  const layers = { jobs: true, contention: true };
  const layerBox = (key, text) => {
    const box = el('input', { type: 'checkbox', checked: true, 'data-testid': `layer-${key}` });
    box.addEventListener('change', () => { layers[key] = box.checked; schedule(); });
    return el('label', { class: 'layer' }, box, text);
  };
  host.append(el('div', { class: 'layers', role: 'group', 'aria-label': 'Layers' },
    el('span', { class: 'muted', text: 'Layers' }), layerBox('jobs', 'Jobs'), layerBox('contention', 'Contention (heat map)')),
    launcherControls(report));
  const figuresRow = el('div', { class: 'figures' });
  const legendCanvas = el('canvas', { 'data-testid': 'legend', class: 'legend' });
  host.append(figuresRow, legendCanvas);
  const runTimes = runTimeSection(report);
  if (runTimes) host.append(runTimes.section);

  const figs = runs.map((run, i) => {
    const canvas = el('canvas', { 'data-testid': 'canvas', dataset: { run: String(i), policy: run.policy } });
    const caption = el('div', { class: 'caption', 'data-testid': 'frame-caption' });
    const chart = isStream ? el('canvas', { 'data-testid': 'util-chart', class: 'util-chart' }) : null;
    figuresRow.append(el('figure', { class: 'figure' }, canvas, caption, chart));
    return { run, canvas, caption, chart, scene: null };
  });

  let layout = null, lastWidth = 0, rafId = 0, playTimer = 0;
  let pass = null; // {t, next}: the panels still to draw in a scheduled redraw
  const sync = report.topology.nodes * runs.length <= SYNC_NODE_PANELS;

  /** Sizes the panels to the space and fixes the instant shown; returns it. */
  function prepare() {
    const avail = Math.max(MIN_FIGURE_W, host.clientWidth || 800);
    if (!layout || avail !== lastWidth) { layout = layoutFor(report.topology, panelWidth(avail, runs.length)); lastWidth = avail; }
    return timeAt(frameIndex);
  }

  /** One panel at instant t; its scene is kept while the snapshot shown stays the same. */
  function drawFigure(f, t) {
    f.canvas.parentElement.style.width = `${layout.width}px`;
    const frames = f.run.frames || [];
    const k = frameAt(f.run, t);
    const frame = frames[k];
    if (!f.scene || f.frame !== k) f.scene = sceneFor(report, f.run, frame);
    f.frame = k;
    drawAllocation(f.canvas, layout, { ...f.scene, layers: { ...layers }, title: f.run.label || f.run.policy });
    f.caption.textContent = frameCaption(report, frame, t);
    f.caption.dataset.time = isStream ? String(t) : '';
    if (f.chart) {
      drawLineChart(f.chart, {
        width: layout.width, height: CHART_H, xMax, yMax: 1, title: 'Busy nodes over time',
        series: [{ x: frames.map((fr) => fr.time), y: frames.map((fr) => (fr.busyNodes || 0) / report.topology.nodes) }],
        xLabel: 'time (s)', yLabel: 'busy', yFormat: (v) => `${Math.round(v * 100)}%`, marker: frame?.time,
      });
    }
  }

  function drawLegendAndLabel(t) {
    const entries = legendEntries(report, layers);
    drawLegend(legendCanvas, entries, Math.min(figuresRow.clientWidth || lastWidth, 900));
    legendCanvas.setAttribute('aria-label', `Legend: ${entries.map((e) => e.label).join('; ')}`);
    frameLabel.textContent = isStream ? `t = ${formatValue(t)} s of ${formatValue(xMax)} s` : '';
    frameLabel.dataset.time = isStream ? String(t) : '';
  }

  /** Draws every panel now. */
  function drawAll() {
    if (rafId) cancelAnimationFrame(rafId);
    rafId = 0; pass = null;
    const t = prepare();
    for (const f of figs) drawFigure(f, t);
    drawLegendAndLabel(t);
  }

  /** A scheduled redraw of a large machine: one panel per animation frame, so the page keeps
   *  answering between panels; a change during the pass restarts it. */
  function drawStep() {
    rafId = 0;
    if (!pass) return;
    if (pass.next === 0) pass.t = prepare();
    drawFigure(figs[pass.next], pass.t);
    pass.next++;
    if (pass.next < figs.length) { rafId = requestAnimationFrame(drawStep); return; }
    drawLegendAndLabel(pass.t);
    pass = pass.restart ? { next: 0 } : null;
    if (pass) rafId = requestAnimationFrame(drawStep);
  }
  const schedule = () => {
    if (sync) { if (!rafId) rafId = requestAnimationFrame(drawAll); return; }
    if (pass) { pass.restart = pass.next > 0; if (!rafId) rafId = requestAnimationFrame(drawStep); return; }
    pass = { next: 0 };
    if (!rafId) rafId = requestAnimationFrame(drawStep);
  };

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
    showTooltip(tooltip, event, hit ? tooltipText(report, f.run, f.scene, hit) : '');
  }
  for (const f of figs) {
    f.canvas.addEventListener('mousemove', (e) => handleMove(f, e));
    f.canvas.addEventListener('mouseleave', () => { tooltip.hidden = true; });
  }

  const observer = new ResizeObserver(() => { if (Math.abs((host.clientWidth || 0) - lastWidth) > 8) { lastWidth = -1; schedule(); } });
  observer.observe(host);
  if (sync) drawAll(); else schedule();

  return {
    get frameIndex() { return frameIndex; },
    /** Index into runs[i].frames of the snapshot drawn for run i. */
    frameOf: (i) => figs[i]?.frame ?? 0,
    get layout() { return layout; },
    setFrame,
    drawNow: drawAll,
    /** Rows of canvases for the PNG export: the drawings, the charts, then the legend. */
    canvases: () => [figs.map((f) => f.canvas), figs.filter((f) => f.chart).map((f) => f.chart), [legendCanvas], runTimes?.canvas ? [runTimes.canvas] : []].filter((r) => r.length),
    routerCenter: (id) => routerCenter(layout, id),
    nodeCenter: (id) => nodeCenter(layout, id),
    nodeSample: (id) => nodeSample(layout, id),
    linkMidpoint: (id) => linkMidpoint(layout, id),
    /** Job index per node, contention and heat of run `i` at the shown frame. */
    scene: (i) => figs[i]?.scene,
    /** The layers shown: {jobs, contention}. */
    layers: () => ({ ...layers }),
    destroy() {
      observer.disconnect();
      if (rafId) cancelAnimationFrame(rafId);
      if (playTimer) clearInterval(playTimer);
      tooltip.remove();
    },
  };
}

/**
 * Run time under contention (reports of the `contention` option): the chart of run time over
 * baseline per NPB kernel and class, the paper's qualitative claims judged from the report's
 * figures, and the table of run times beside the paper's Table 1. Null without such figures.
 */
function runTimeSection(report) {
  const cmp = contentionComparison(report);
  const c = report.contention || {};
  const note = `Every running job's traffic through the ${c.model} network simulator with everyone else's (${c.platform ? `the SimGrid platform file's links and routes: ${c.platform.hosts} hosts, ${c.platform.links} directed links` : `links ${formatValue(c.bandwidth / 1e9)} GB/s, ${formatValue(c.latency * 1e6)} us`}); run time = compute part + communication part x slowdown.`;
  if (!cmp) {
    if (!report.contention) return null;
    // no NPB kernels: per policy, how many of the listed jobs the model slowed and by how much
    const slowed = report.runs.map((run) => {
      const s = (run.jobs || []).map((j) => j.contention?.maxSlowdown ?? j.maxSlowdown).filter((x) => typeof x === 'number');
      const hit = s.filter((x) => x > 1 + 1e-9);
      return `${run.label || run.policy}: ${hit.length} of ${s.length} jobs slowed${hit.length ? `, communication at most ${formatValue(Math.max(...hit))}x slower` : ''}`;
    });
    const section = el('section', { class: 'runtime', 'data-testid': 'runtime-section' },
      el('h3', { text: 'Run time under contention' }), el('p', { class: 'note', text: note }),
      el('ul', { 'data-testid': 'slowed' }, slowed.map((t) => el('li', { text: t }))));
    return { section, canvas: null };
  }
  const canvas = el('canvas', { 'data-testid': 'runtime-chart', class: 'runtime-chart' });
  const claims = el('ul', { class: 'claims', 'data-testid': 'claims' }, cmp.claims.map((k) => el('li', { dataset: { claim: k.id, reproduced: String(k.reproduced) } },
    el('strong', { text: k.reproduced ? 'Reproduced: ' : 'Not reproduced: ' }), `${k.claim} — ${k.detail}.`)));
  const seqLabel = 'sequential';
  const head = el('tr', {}, ['Kernel', 'Processes', 'Table 1 (s)'].map((t) => el('th', { scope: 'col', text: t })),
    cmp.policies.map((p) => el('th', { scope: 'col', text: `${p.label} (s)` })),
    cmp.closedPolicy ? el('th', { scope: 'col', text: 'Gain', title: `${seqLabel} / ${cmp.closedPolicy} - 1` }) : null);
  const body = cmp.rows.map((r) => el('tr', {},
    el('th', { scope: 'row', text: `${r.kernel}.${r.class}` }), el('td', { text: String(r.tasks) }), el('td', { text: formatValue(r.paper) }),
    cmp.policies.map((p) => el('td', { text: formatValue(r.runTime[p.policy]) })),
    cmp.closedPolicy ? el('td', { text: r.gain === undefined ? '—' : `${(100 * (Math.abs(r.gain) < 5e-5 ? 0 : r.gain)).toFixed(1)} %` }) : null));
  const section = el('section', { class: 'runtime', 'data-testid': 'runtime-section' },
    el('h3', { text: 'Run time under contention' }),
    el('p', { class: 'note', text: `${note} Means over the jobs of each kernel and class.` }),
    canvas, claims,
    el('div', { class: 'table-scroll' }, el('table', { class: 'metrics', 'data-testid': 'runtime-table' }, el('thead', {}, head), el('tbody', {}, body))));
  const redraw = () => drawRunTimeChart(canvas, { width: Math.max(320, Math.min(960, (section.clientWidth || 640))), rows: cmp.rows, policies: cmp.policies });
  requestAnimationFrame(redraw);
  redraw();
  return { section, canvas };
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
  // Job rows beyond the first ones stay in the worker (the drawing still shows every job).
  const leftOut = Math.max(0, ...runs.map((r) => r.rowsLeftOut || 0));
  if (leftOut > 0) {
    const total = Math.max(...runs.map((r) => r.jobCount || 0));
    const engineLeftOut = Math.max(...runs.map((r) => Number(r.omitted?.jobRows) || 0));
    const exports = engineLeftOut > 0
      ? `all but the ${formatCount(engineLeftOut)} rows the engine left out to bound the report (see omitted.jobRows)` : 'every job';
    host.append(el('p', { class: 'note', 'data-testid': 'rows-note',
      text: `Job rows left out of the page: it holds the first ${formatCount(total - leftOut)} of ${formatCount(total)} jobs per policy; the JSON and Jobs CSV exports have ${exports}.` }));
  }

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
    const total = run.jobCount ?? run.jobs.length;
    note.textContent = total > shown.length
      ? `Showing the first ${formatCount(shown.length)} of ${formatCount(total)} jobs; the JSON and Jobs CSV exports have them all.` : '';
  }
  policySelect.addEventListener('change', renderJobs);
  const details = el('details', { class: 'jobs-details' },
    el('summary', { text: `Jobs (${formatCount(runs[0]?.jobCount ?? runs[0]?.jobs.length ?? 0)} per policy)` }),
    el('div', { class: 'jobs-bar' }, el('label', {}, 'Policy ', policySelect)), note, jobsHost);
  details.addEventListener('toggle', () => { if (details.open && !jobsHost.firstChild) renderJobs(); }, { once: false });
  host.append(details);
}
