// The Study panel: the current scenario swept over one or two of its form fields (axes) and over
// seeds (replicates), every point run on a pool of Web Workers (pool.js), the charts drawn as
// points arrive (draw/study.js, batched on requestAnimationFrame), the aggregate table below,
// the CLI's files for download, and results files the CLI wrote opened and drawn the same way.
// The main thread only relays: a point's record (its journal line and tidy CSV rows) is kept by
// point and its rows go to the helper worker, whose chart model answers with a snapshot.
import { el, formatCount } from '../dom.js';
import { exportBlob, exportPng, safeFileName } from '../export.js';
import { drawStudy } from '../draw/study.js';
import { spawnStudyWorker, runPoints, defaultWorkers, MAX_WORKERS } from './pool.js';
import { MODES, studyText, axisRow, prefill } from './spec.js';

/** The most points the page runs; larger studies go to `placelab study` (and shards). */
export const MAX_PAGE_POINTS = 20_000;
const MAX_AXES = 2;
const COUNT_DEBOUNCE_MS = 200;
const TABLE_ROWS = 5000;
const TABLE_EVERY_MS = 1000;  // while points arrive the table follows at most this often (the charts every frame)

/** An engine error as a sentence: `path: message` (no path for the study as a whole). */
const describe = (e) => (e.path && e.path !== '$' ? `${e.path}: ${e.message}` : e.message);

/**
 * `ui`: the panel's elements (index.html); `engines()` the engines JSON; `scenario()` the
 * editor's {ok, text}; `valueAt(path)` a value of the scenario; `scenarioName()` its name.
 * Returns {setEngine, scenarioChanged, spec, load, api} (main.js wires them; `api` is
 * window.placelab.study).
 */
export function createStudyPanel({ ui, engines, scenario, valueAt, scenarioName, attachments = () => [] }) {
  // The helper starts when the panel is first opened, so a page that never studies loads as before.
  let helperChannel = null;
  const helper = { ask: (msg) => (helperChannel ||= spawnStudyWorker()).ask(msg) };
  const state = {
    engine: null,
    rows: [],                 // axis rows (spec.js)
    outline: null,            // of the study as last counted
    run: null,                // {pool, t0, total, done, lines[], pending[], outline, text, finished, stopped}
    admission: null,          // {stopped} while the helper checks the points before a run
    snapshot: null,           // the chart model's last snapshot
    tableTimer: 0,            // the table's own task while points arrive (draw)
    source: null,             // 'run' | 'file'
    drawQueued: false,
    adding: false,
    countSeq: 0,
    metricsPending: null,     // the headline metrics' request in flight (a token)
    runs: 0,
  };

  const params = () => (engines().find((e) => e.id === state.engine)?.params || []).filter((p) => p.path !== 'seed' && p.kind !== 'uint64');
  const kindOf = (path) => {
    const p = params().find((q) => q.path === path) || params().find((q) => q.path === path.replace(/\[\d+\]/g, '[]'));
    return p ? p.kind : 'string';
  };

  function showError(message) {
    ui.error.textContent = message;
    ui.error.hidden = !message;
  }

  // ---- the form --------------------------------------------------------------------------------
  function fieldSelect(row) {
    const s = el('select', { 'data-testid': 'study-axis-field', 'aria-label': 'Field' },
      el('option', { value: '', text: 'Choose a field…' }),
      ...params().map((p) => el('option', { value: p.path, text: `${p.label} (${p.path})` })));
    s.value = row.path || '';
    s.addEventListener('change', () => {
      const p = params().find((q) => q.path === s.value);
      Object.assign(row, p ? prefill(p, valueAt(p.path)) : { path: '' });
      renderAxes();
      handleEdit();
    });
    return s;
  }

  function input(row, key, label, width = 7) {
    const i = el('input', { type: 'text', size: width, 'aria-label': label, placeholder: label, 'data-testid': `study-axis-${key}` });
    i.value = row[key] ?? '';
    i.addEventListener('input', () => { row[key] = i.value; handleEdit(); });
    return i;
  }

  function renderAxes() {
    ui.axes.replaceChildren(...state.rows.map((row, k) => {
      const mode = el('select', { 'data-testid': 'study-axis-mode', 'aria-label': 'Values as' },
        ...MODES.map((m) => el('option', { value: m.id, text: m.label })));
      mode.value = row.mode || 'values';
      mode.addEventListener('change', () => { row.mode = mode.value; renderAxes(); handleEdit(); });
      const inputs = row.mode === 'values' ? [input(row, 'values', 'values, e.g. 4, 8, 16', 24)]
        : row.mode === 'step' ? [input(row, 'from', 'from'), input(row, 'to', 'to'), input(row, 'step', 'step')]
          : [input(row, 'from', 'from'), input(row, 'to', 'to'), input(row, 'count', 'count', 4), scaleSelect(row)];
      const remove = el('button', { type: 'button', class: 'secondary', text: '×', title: 'Remove this axis', 'aria-label': 'Remove this axis',
        onclick: () => { state.rows.splice(k, 1); renderAxes(); handleEdit(); } });
      return el('div', { class: 'study-axis', 'data-testid': 'study-axis' },
        el('span', { class: 'muted', text: `Axis ${k + 1}` }), fieldSelect(row), mode, ...inputs, remove);
    }));
    ui.addAxis.disabled = state.rows.length >= MAX_AXES;
  }

  function scaleSelect(row) {
    const s = el('select', { 'data-testid': 'study-axis-scale', 'aria-label': 'Scale' },
      el('option', { value: 'linear', text: 'linear' }), el('option', { value: 'log', text: 'log' }));
    s.value = row.scale || 'linear';
    s.addEventListener('change', () => { row.scale = s.value; handleEdit(); });
    return s;
  }

  function addAxis() {
    if (state.rows.length >= MAX_AXES) return;
    const taken = new Set(state.rows.map((r) => r.path));
    // a number field the scenario sets, else any number field, else any field
    const free = params().filter((q) => !taken.has(q.path));
    const p = free.find((q) => (q.kind === 'int' || q.kind === 'number') && typeof valueAt(q.path) === 'number')
      || free.find((q) => q.kind === 'int' || q.kind === 'number') || free[0];
    state.rows.push(p ? prefill(p, valueAt(p.path)) : { path: '', mode: 'values', values: '' });
    renderAxes();
    handleEdit();
  }

  /** The study document of the form, or throws a sentence. */
  function build() {
    const cur = scenario();
    if (!cur.ok) throw new Error(`the scenario's raw JSON does not parse (${cur.message})`);
    return studyText({
      name: `${scenarioName()}: study`,
      base: cur.text,
      rows: state.rows,
      replicates: { count: ui.replicates.value, baseSeed: ui.baseSeed.value },
      metrics: ui.metrics.value.split('\n'),
    }, kindOf);
  }

  /** The point count of the form's study (parsed by the engine in the helper), or why not. */
  function handleEdit() {
    if (!ui.details.open) { state.countStale = true; return; }
    ui.root.dataset.counting = 'true';
    state.countSeq += 1; // a count in flight is now stale
    clearTimeout(handleEdit.timer);
    handleEdit.timer = setTimeout(count, COUNT_DEBOUNCE_MS);
  }

  async function count() {
    if (state.metricsPending) return; // the metrics are on their way; their arrival counts
    const seq = ++state.countSeq;
    let built;
    try { built = build(); } catch (e) { showCount(null, e.message); return; }
    try {
      const { outline } = await helper.ask({ type: 'study', attachments: attachments(), study: built.text });
      if (seq !== state.countSeq) return;
      state.outline = outline;
      showCount(outline, overCap(outline));
    } catch (e) {
      if (seq !== state.countSeq) return;
      state.outline = null;
      showCount(null, describe(e));
    }
  }

  function overCap(o) {
    return o.points > MAX_PAGE_POINTS
      ? `the study has ${formatCount(o.points)} points (${formatCount(o.combinations)} combinations × ${formatCount(o.replicates)} replicates); the page runs at most ${formatCount(MAX_PAGE_POINTS)}: fewer values or replicates, or download the study and run it with placelab study`
      : '';
  }

  function showCount(outline, problem) {
    ui.count.textContent = outline
      ? `${formatCount(outline.points)} points = ${formatCount(outline.combinations)} combinations × ${formatCount(outline.replicates)} replicates`
      : '';
    ui.count.dataset.points = outline ? String(outline.points) : '';
    showError(problem || '');
    ui.count.dataset.ok = outline && !problem ? 'true' : 'false';
    ui.root.dataset.counting = 'false';
  }

  /** The engine's headline metrics: the metrics of a study of the scenario that lists none. */
  async function headlineMetrics() {
    const cur = scenario();
    if (!cur.ok) return null;
    try {
      const { outline } = await helper.ask({ type: 'study', attachments: attachments(), study: `{"version":1,"base":${cur.text}}` });
      return outline.metrics;
    } catch { return null; }
  }

  // ---- running ---------------------------------------------------------------------------------
  async function handleRun({ workers = Number(ui.workers.value) || defaultWorkers() } = {}) {
    if (state.run && !state.run.finished) return;
    let built;
    try { built = build(); } catch (e) { showError(e.message); return null; }
    setRunning(true);
    showError('');
    ui.progress.textContent = 'Checking every point…';
    const admission = { stopped: false };
    state.admission = admission;
    let outline;
    let order; // every point, the costliest estimated first
    try {
      ({ outline } = await helper.ask({ type: 'study', attachments: attachments(), study: built.text }));
      const problem = overCap(outline);
      if (problem) throw { path: '', message: problem };
      ({ order } = await helper.ask({ type: 'admit', maxPoints: MAX_PAGE_POINTS }));
      const { snapshot } = await helper.ask({ type: 'model', outline });
      state.snapshot = snapshot;
    } catch (e) {
      state.admission = null;
      setRunning(false);
      ui.progress.textContent = admission.stopped ? 'Stopped before running' : 'Refused before running';
      showError(admission.stopped ? '' : describe(e));
      return null;
    }
    state.admission = null;
    state.source = 'run';
    state.outline = outline;
    const total = outline.points;
    const run = {
      t0: performance.now(), total, done: 0, lines: new Array(total), pending: [], outline, text: built.text, doc: built.doc,
      finished: false, stopped: false, workers: 0, ms: 0,
    };
    state.run = run;
    state.runs += 1;
    fillMetrics(outline.metrics);
    clearResults();
    run.pool = runPoints({
      study: built.text, todo: order, workers: Math.max(1, Math.min(MAX_WORKERS, workers)), attachments: attachments(),
      onRecord: (rec) => {
        if (run.lines[rec.point] === undefined) run.done += 1;
        run.lines[rec.point] = rec.line;
        run.pending.push(rec.csv);
        queueFrame();
      },
    });
    run.workers = run.pool.workers;
    queueFrame();
    let failure = null;
    try { await run.pool.done; } catch (e) { failure = e; }
    run.ms = performance.now() - run.t0;
    run.finished = true;
    setRunning(false);
    await flush(run);
    if (failure) showError(`the run failed after ${formatCount(run.done)} points: ${describe(failure)}; the finished points are kept`);
    showProgress(run);
    return run;
  }

  function handleStop() {
    if (state.admission) {
      // Stop while the helper checks the points: it is ended (and starts anew when next asked)
      state.admission.stopped = true;
      helperChannel?.terminate();
      helperChannel = null;
      return;
    }
    const run = state.run;
    if (!run || run.finished) return;
    run.stopped = true;
    run.pool.stop();
  }

  function setRunning(on) {
    ui.run.disabled = on;
    ui.stop.disabled = !on;
    ui.root.dataset.status = on ? 'running' : (state.run?.stopped ? 'stopped' : state.run ? 'done' : 'idle');
    for (const b of ui.downloads) b.disabled = on || state.source !== 'run' || !state.run?.done;
  }

  function showProgress(run) {
    const s = (performance.now() - run.t0) / 1000;
    const secs = run.finished ? run.ms / 1000 : s;
    const what = run.finished ? (run.stopped ? 'Stopped: ' : 'Done: ') : '';
    const parts = [`${what}${formatCount(run.done)} / ${formatCount(run.total)} points`];
    if (run.done > 0 && secs > 0) {
      const rate = run.done / secs;
      // a long study's rate reads as seconds a point (0.0 points/s says nothing)
      parts.push(rate >= 1 ? `${rate.toFixed(1)} points/s` : `${(secs / run.done).toFixed(1)} s a point`);
    }
    parts.push(`${secs.toFixed(1)} s`, `${run.workers} worker${run.workers === 1 ? '' : 's'}`);
    // What is left at the pace so far, each worker's point in progress counted half done (the
    // costliest points go first, so it errs long)
    if (!run.finished && run.done > 0 && run.done < run.total) {
      const done = run.done + 0.5 * Math.min(run.workers, run.total - run.done);
      parts.push(`about ${duration(secs * (run.total - done) / done)} left`);
    }
    ui.progress.textContent = parts.join(' · ');
    ui.progress.dataset.done = String(run.done);
    ui.progress.dataset.total = String(run.total);
  }

  /** Seconds as a short duration: `40 s`, `4.5 min`, `2.1 h`. */
  function duration(t) {
    if (t < 90) return `${Math.max(1, Math.round(t))} s`;
    if (t < 5400) return `${(t / 60).toFixed(1)} min`;
    return `${(t / 3600).toFixed(1)} h`;
  }

  /** Once a frame: the progress line, the new rows to the chart model, the charts when it answers. */
  function queueFrame() {
    if (state.drawQueued) return;
    state.drawQueued = true;
    requestAnimationFrame(() => {
      state.drawQueued = false;
      const run = state.run;
      if (!run) return;
      showProgress(run);
      if (run.pending.length && !state.adding) sendRows(run);
    });
  }

  async function sendRows(run) {
    const csv = run.pending.join('');
    run.pending = [];
    state.adding = true;
    try {
      const { snapshot } = await helper.ask({ type: 'add', csv });
      if (state.run === run) { state.snapshot = snapshot; queueDraw(); }
    } catch (e) {
      showError(`the charts could not be updated: ${e.message}`);
    } finally {
      state.adding = false;
      if (state.run === run && run.pending.length) queueFrame();
    }
  }

  /** After the run: every row in the model, the last charts and the table. */
  async function flush(run) {
    while (state.adding) await new Promise((r) => { setTimeout(r, 10); });
    if (run.pending.length) await sendRows(run);
    draw();
    for (const b of ui.downloads) b.disabled = state.source !== 'run' || run.done === 0;
    ui.root.dataset.status = run.stopped ? 'stopped' : 'done';
    ui.root.dataset.runs = String(state.runs);
  }

  // ---- results ---------------------------------------------------------------------------------
  function clearResults() {
    ui.png.disabled = true;
    ui.charts.replaceChildren();
    ui.table.replaceChildren();
    state.canvases = [];
  }

  function fillMetrics(metrics) {
    const prev = ui.metric.value;
    ui.metric.replaceChildren(...metrics.map((m, k) => el('option', { value: String(k), text: m })));
    if (prev && Number(prev) < metrics.length) ui.metric.value = prev;
  }

  /** Draws the newest snapshot in the next frame (several snapshots in one frame: one drawing). */
  function queueDraw() {
    if (state.drawPending) return;
    state.drawPending = true;
    requestAnimationFrame(() => { state.drawPending = false; draw(); });
  }

  function draw() {
    const snap = state.snapshot;
    ui.png.disabled = !snap;
    if (!snap) return;
    const m = Math.min(Number(ui.metric.value) || 0, Math.max(0, snap.metrics.length - 1));
    const width = Math.max(320, Math.min(1100, ui.charts.clientWidth || 720));
    state.canvases = drawStudy(ui.charts, snap, m, width);
    const now = performance.now();
    const running = state.run && !state.run.finished && state.source === 'run';
    if (!running) {
      clearTimeout(state.tableTimer);
      state.tableTimer = 0;
      state.tableAt = now;
      drawTable(snap, TABLE_ROWS);
    } else if (!state.tableTimer && !(now - (state.tableAt ?? -Infinity) < TABLE_EVERY_MS)) {
      // while points arrive, the table (its layout costs as much as the charts) in a task of
      // its own after this frame's, so neither holds the main thread for both
      state.tableAt = now;
      state.tableTimer = setTimeout(() => {
        state.tableTimer = 0;
        if (state.snapshot && state.source === 'run') drawTable(state.snapshot, TABLE_ROWS);
      }, 0);
    }
    ui.charts.dataset.points = String(snap.points);
  }

  /**
   * The aggregate table as rows of a grid with fixed column widths, each row laid out and painted
   * only when scrolled into view (content-visibility), so a table of thousands of rows costs a
   * frame no more than one of ten.
   */
  function drawTable(snap, limit) {
    const head = [...snap.axes.map((a) => a.path), ...(snap.groups.length ? [snap.groups.join(' / ')] : []), 'metric', 'n', 'mean', '95 % CI', 'sd'];
    const widths = [...snap.axes.map(() => '12em'), ...(snap.groups.length ? ['11em'] : []), '27em', '4em', '8em', '15em', '8em'];
    const fmt = (v) => (typeof v === 'number' ? String(Number(v.toPrecision(6))) : v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
    const cells = snap.cells.slice().sort((p, q) => {
      for (let k = 0; k < p.a.length; k++) if (p.a[k] !== q.a[k]) return p.a[k] - q.a[k];
      return p.s - q.s || p.m - q.m;
    });
    const row = (texts, cls) => el('div', { class: cls, role: 'row' }, ...texts.map((t) => el('span', { role: cls === 'h' ? 'columnheader' : 'cell', text: t, title: t })));
    const rows = cells.slice(0, limit).map((c) => row([
      ...c.a.map((j, k) => fmt(snap.axes[k].values[j])),
      ...(snap.groups.length ? [snap.series[c.s]] : []),
      snap.metrics[c.m], String(c.n), fmt(c.mean),
      typeof c.ciLow === 'number' ? `${fmt(c.ciLow)} – ${fmt(c.ciHigh)}` : '—', fmt(c.sd),
    ], 'r'));
    const note = cells.length > limit ? el('p', { class: 'note', text: `The first ${formatCount(limit)} of ${formatCount(cells.length)} rows; the aggregate CSV has them all.` }) : null;
    const failed = snap.failed ? el('p', { class: 'note', 'data-testid': 'study-failed', text: `${formatCount(snap.failed)} point${snap.failed === 1 ? '' : 's'} failed, e.g. point ${snap.errors[0]?.point}: ${snap.errors[0]?.error}` }) : null;
    const grid = el('div', { class: 'study-agg', role: 'table', 'data-testid': 'study-aggregate' }, row(head, 'h'), ...rows);
    grid.style.setProperty('--cols', widths.join(' '));
    ui.table.replaceChildren(...[failed, grid, note].filter(Boolean));
  }

  /** The CLI's four tables of the finished points (from the helper). */
  async function tables() {
    const run = state.run;
    if (!run || state.source !== 'run') return null;
    await helper.ask({ type: 'study', attachments: attachments(), study: run.text });
    const lines = run.lines.filter((l) => l !== undefined).join('');
    const { tables: t } = await helper.ask({ type: 'tables', lines });
    return t;
  }

  async function handleDownload(kind) {
    try {
      const run = state.run;
      const base = safeFileName(scenarioName(), 'placelab') + '.study';
      if (kind === 'study') { exportBlob(new Blob([run.text, '\n'], { type: 'application/json' }), `${base}.json`); return; }
      const t = await tables();
      const [key, file, type] = {
        'tidy-csv': ['tidyCsv', 'tidy.csv', 'text/csv'], 'aggregate-csv': ['aggregateCsv', 'aggregate.csv', 'text/csv'],
        'tidy-jsonl': ['tidyJsonl', 'tidy.jsonl', 'application/jsonl'], 'aggregate-jsonl': ['aggregateJsonl', 'aggregate.jsonl', 'application/jsonl'],
      }[kind];
      exportBlob(new Blob([t[key]], { type }), `${base}.${file}`);
    } catch (e) {
      showError(`export failed: ${e.message}`);
    }
  }

  async function handleOpenResults() {
    const file = ui.openFile.files?.[0];
    ui.openFile.value = '';
    if (!file) return;
    if (state.run && !state.run.finished) { showError('stop the running study before opening a results file'); return; }
    try {
      const { snapshot } = await helper.ask({ type: 'load', file });
      state.source = 'file';
      state.snapshot = snapshot;
      for (const b of ui.downloads) b.disabled = true;
      fillMetrics(snapshot.metrics);
      ui.progress.textContent = `${file.name}: ${formatCount(snapshot.points)} points, ${formatCount(snapshot.rows)} rows`;
      showError('');
      ui.details.open = true;
      draw();
      ui.root.dataset.status = 'file';
    } catch (e) {
      showError(`${file.name}: ${describe(e)}`);
    }
  }

  // ---- the engine, links -------------------------------------------------------------------------
  /** The scenario's engine changed (or a scenario was loaded): the fields and metrics follow it. */
  async function setEngine(id) {
    if (id === state.engine) return;
    state.engine = id;
    state.rows = state.rows.filter((r) => params().some((p) => p.path === r.path));
    renderAxes();
    await fillHeadlineMetrics();
  }

  /** The engine's headline metrics into the metrics box (when the panel is open; else once it opens). */
  async function fillHeadlineMetrics() {
    if (!ui.details.open) { state.metricsStale = true; return; }
    state.metricsStale = false;
    const token = {};
    state.metricsPending = token;
    ui.root.dataset.counting = 'true'; // the count waits for the metrics
    const metrics = await headlineMetrics();
    // a study loaded from a link meanwhile keeps its own metrics (and a newer engine its own)
    if (state.metricsPending !== token) return;
    state.metricsPending = null;
    if (metrics) ui.metrics.value = metrics.join('\n');
    handleEdit();
  }

  /** The panel as a link carries it (null when the panel is closed or has no axis). */
  function spec() {
    if (!ui.details.open) return null;
    try { return build().doc; } catch { return null; }
  }

  /** Shows a spec from a link or an example study: {axes, replicates, metrics}; false (and says why) when the page cannot run it. */
  function load(doc) {
    if (!doc || typeof doc !== 'object') return;
    if (Array.isArray(doc.axes) && doc.axes.length > MAX_AXES) {
      ui.details.open = true;
      showError(`this study has ${doc.axes.length} axes; the page runs at most ${MAX_AXES}: run it with placelab study`);
      return false;
    }
    state.metricsPending = null;
    state.metricsStale = false;
    state.rows = Array.isArray(doc.axes) ? doc.axes.slice(0, MAX_AXES).map(axisRow) : [];
    ui.replicates.value = String(doc.replicates?.count ?? 1);
    ui.baseSeed.value = String(doc.replicates?.baseSeed ?? 1);
    if (Array.isArray(doc.metrics)) ui.metrics.value = doc.metrics.join('\n');
    ui.details.open = true;
    state.engine = valueAt('engine');
    state.rows = state.rows.filter((r) => r.path);
    renderAxes();
    handleEdit();
    return true;
  }

  ui.details.addEventListener('toggle', () => {
    if (!ui.details.open) return;
    if (state.metricsStale) fillHeadlineMetrics();
    else if (state.countStale) handleEdit();
    state.countStale = false;
  });
  ui.addAxis.addEventListener('click', addAxis);
  ui.png.addEventListener('click', () => {
    const [legend, ...charts] = state.canvases || [];
    const rows = [[legend]];
    for (let k = 0; k < charts.length; k += 3) rows.push(charts.slice(k, k + 3)); // small multiples three to a row
    if (legend) exportPng(rows, `${safeFileName(scenarioName(), 'placelab')}.study`).catch((e) => showError(`export failed: ${e.message}`));
  });
  ui.run.addEventListener('click', () => { handleRun(); });
  ui.stop.addEventListener('click', handleStop);
  ui.metric.addEventListener('change', draw);
  for (const i of [ui.replicates, ui.baseSeed, ui.metrics]) i.addEventListener('input', handleEdit);
  ui.open.addEventListener('click', () => ui.openFile.click());
  ui.openFile.addEventListener('change', handleOpenResults);
  for (const b of ui.downloads) b.addEventListener('click', () => handleDownload(b.dataset.kind));
  ui.workers.value = String(defaultWorkers());
  ui.workers.max = String(MAX_WORKERS);
  setRunning(false);

  return {
    setEngine,
    scenarioChanged: handleEdit,
    spec,
    load,
    /** For tests and benchmarks (window.placelab.study). */
    api: {
      run: (opts) => handleRun(opts),
      stop: handleStop,
      tables,
      get snapshot() { return state.snapshot; },
      get outline() { return state.outline; },
      get progress() { const r = state.run; return r ? { done: r.done, total: r.total, finished: r.finished, stopped: r.stopped, ms: r.ms, workers: r.workers, busyMs: r.pool?.busyMs ?? 0 } : null; },
      studyText: () => build().text,
      canvases: () => state.canvases || [],
    },
  };
}
