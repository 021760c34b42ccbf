// App state and handlers: examples, links, runs and views. The workers (client.js) do all work that
// grows with the input; the main thread holds scenario text folded and reports as bounded views.
import { createEditor } from './editor.js';
import { el } from './dom.js';
import { saveLinkHash } from './links.js';
import { viewFor } from './engines/index.js';
import { importExtensions } from './engines/data.js';
import { exportPng, exportBlob, safeFileName } from './export.js';
import { createEngineClient, createTextClient } from './client.js';
import { createStudyPanel } from './study/panel.js';

const PROGRESS_DELAY_MS = 500;   // runs shorter than this never flash a progress bar
const COMPLETE_AFTER_MS = 400;   // after a live preview, the complete report once typing has paused this long
const EXAMPLES_DIR = 'examples/';

const $ = (id) => document.getElementById(id);
const ui = {
  engine: $('engine'), example: $('example'), run: $('run'), stop: $('stop'), share: $('share'),
  progress: $('progress'), progressBar: $('progress').querySelector('progress'), progressText: $('progress').querySelector('span'),
  runInfo: $('run-info'), notice: $('notice'), version: $('version'),
  description: $('example-description'), form: $('form'), raw: $('raw'), rawError: $('raw-error'),
  error: $('error'), errorText: $('error-text'), errorClose: $('error-close'),
  title: $('result-title'), drawing: $('drawing'), tables: $('tables'),
  open: $('open'), openFile: $('open-file'),
  exportPng: $('export-png'), exportJson: $('export-json'), exportCsv: $('export-csv'), exportJobs: $('export-jobs'),
};

const state = {
  status: 'idle',
  engines: [],
  version: '',
  examples: { default: null, examples: [] },
  engineId: null,
  running: null,          // {id, t0, progressTimer}
  pending: null,          // {text, preview} queued while a run is in flight (newest wins)
  lastReport: null,       // the report's bounded view (worker.js)
  lastResult: null,       // {blob, bytes, sha256, text, preview}: the complete report (text only when small); a preview has no blob
  liveName: null,         // the name of the run whose live panel (partial results) is on screen, until a report replaces it
  lastError: null,
  stickyError: false,     // a link error stays visible over the default example's result
  runCount: 0,
  lastShareUrl: null,
  firstDrawnMs: null,
  view: null,
  exampleSeq: 0,          // examples chosen: a study starts only if its example is still the last one
  attachments: new Map(), // name → {file} (a log) or {files} (a trace's rank files): what a scenario names instead of carrying (src/attach.rs)
};

let resolveReady;
const ready = new Promise((r) => { resolveReady = r; });

// ---- workers -----------------------------------------------------------------------------------
let engine = null;
const text = createTextClient();

/** The files chosen for the scenario to name ([{name, file}]: src/attach.rs, attach.js). */
const attachedFiles = () => [...state.attachments].map(([name, a]) => ({ name, ...a }));

function callWorker(scenarioText, onProgress, opts) {
  return engine.run(scenarioText, onProgress, { ...opts, attachments: attachedFiles() });
}

// ---- status, errors -----------------------------------------------------------------------------
function setStatus(status) {
  state.status = status;
  document.body.dataset.status = status;
  ui.stop.disabled = status !== 'running';
}

/** Shows `prefix` + `path: message`; `state.lastError` keeps the error itself ({path, message}). */
function showError(error, { sticky = false, prefix = '' } = {}) {
  state.lastError = error;
  state.stickyError = sticky;
  ui.errorText.textContent = prefix + (error.path ? `${error.path}: ${error.message}` : error.message);
  ui.error.hidden = false;
}

function clearError(force = false) {
  if (state.stickyError && !force) return;
  if (force) state.lastError = null;
  state.stickyError = false;
  ui.error.hidden = true;
  ui.errorText.textContent = '';
}

function showNotice(text) {
  ui.notice.textContent = text;
  ui.notice.hidden = false;
  clearTimeout(showNotice.timer);
  showNotice.timer = setTimeout(() => { ui.notice.hidden = true; }, 6000);
}

// ---- runs ---------------------------------------------------------------------------------------
function handleRun() {
  if (editor.markEdited()) reflectDescription();
  const cur = editor.current();
  if (!cur.ok) {
    showError({ path: '$', message: `the raw JSON does not parse (${cur.message})` });
    setStatus('error');
    return;
  }
  startRun(cur.text);
}

/**
 * Runs scenario text, one run at a time (the newest queued behind it). `preview`: a LIVE view's
 * re-run as the user types, answered by the engine's preview when it has one (drawn with status
 * `live`; the complete report follows once typing pauses, with status `done`).
 */
function startRun(text, { preview = false } = {}) {
  clearTimeout(scheduleComplete.timer);
  if (state.running) { state.pending = { text, preview }; return; }
  const run = { id: null, t0: performance.now(), progressTimer: 0, stopped: false, live: false, name: scenarioName() };
  state.running = run;
  setStatus('running');
  ui.runInfo.textContent = 'Running…';
  run.progressTimer = setTimeout(() => { ui.progress.hidden = false; }, PROGRESS_DELAY_MS);
  ui.progressBar.removeAttribute('value');
  ui.progressText.textContent = '';
  const onProgress = (done, total, stage) => {
    if (stage === 'report') {
      ui.runInfo.textContent = 'Preparing the report…';
    } else if (total > 0) {
      ui.progressBar.max = total;
      ui.progressBar.value = done;
      ui.progressText.textContent = `${Math.floor((100 * done) / total)}%`;
    }
  };
  // partial results (e.g. the GA's best so far) go to their engine's view while the run lasts
  const onPartial = (value) => { if (!run.stopped && state.running === run) showPartial(run, value); };
  callWorker(text, onProgress, { preview, onPartial }).then(
    (result) => (run.stopped ? null : handleResult(result, run, text)),
    (error) => { if (!run.stopped) handleRunError(error); },
  ).finally(() => {
    if (run.stopped) return;
    finishRun(run);
  });
}

/**
 * Draws a partial result (e.g. the GA's best so far) in its engine's live panel. On the run's
 * first partial, everything on screen from an earlier run (its drawing, title and tables, perhaps
 * another engine's) goes: until the run's own report arrives, the page shows only this run. The
 * live panel's canvases are what PNG exports; JSON and CSV wait for the complete report.
 */
function showPartial(run, value) {
  const view = viewFor(value?.engine);
  if (!view.partial) return;
  if (!run.live) {
    run.live = true;
    state.view?.destroy();
    state.view = null;
    state.lastReport = null;
    state.lastResult = null;
    ui.drawing.replaceChildren();
    state.liveName = run.name;
    ui.title.textContent = `${run.name} (running)`;
    ui.tables.classList.remove('stale');
    showTablesPending('The tables follow when the run finishes.');
    for (const b of [ui.exportJson, ui.exportCsv, ui.exportJobs]) b.disabled = true;
    ui.exportPng.disabled = false;
  }
  state.view = view.partial(ui.drawing, value);
}

/** In place of the tables, while a run's own report has not arrived. */
function showTablesPending(text) {
  ui.tables.replaceChildren(el('p', { class: 'note', 'data-testid': 'tables-pending', text }));
}

function finishRun(run) {
  clearTimeout(run.progressTimer);
  ui.progress.hidden = true;
  if (state.running === run) state.running = null;
  if (state.pending !== null) {
    const next = state.pending;
    state.pending = null;
    startRun(next.text, { preview: next.preview });
  }
  resolveReady();
}

/** Lets the browser handle input (Stop) between the steps of showing a result. */
const nextTask = () => new Promise((resolve) => { setTimeout(resolve, 0); });

/**
 * Shows a result in separate tasks (receive, drawing, tables), so no single task blocks the page
 * for long; the run counts as done once all are shown (a live preview: once drawn).
 */
async function handleResult({ view: envelope, blob, bytes, sha256, text: reportText, ms, preview = false }, run, scenarioText) {
  // a preview is small and drawn at once; a complete report first lets the page answer (Stop)
  if (!preview) await nextTask();
  if (run.stopped) return;
  state.lastResult = { blob, bytes, sha256, text: reportText, preview };
  state.lastReport = envelope;
  state.lastError = null;
  clearError();
  editor.clearFieldErrors();
  const view = drawReport(envelope);
  // A live preview redraws only the figures: the tables (hundreds of rows) wait, dimmed, for the
  // complete report, so each keystroke costs one drawing.
  ui.tables.classList.toggle('stale', preview);
  if (!preview) {
    await nextTask();
    view.table(ui.tables, envelope);
  }
  if (run.stopped) return;
  state.runCount += 1;
  if (preview) {
    for (const b of [ui.exportJson, ui.exportCsv, ui.exportJobs]) b.disabled = true;
    ui.runInfo.textContent = `Preview in ${Math.round(ms)} ms; the complete report follows when you stop typing`;
    setStatus('live');
    scheduleComplete(scenarioText);
    return;
  }
  ui.runInfo.textContent = `Ran in ${Math.round(ms)} ms`;
  setStatus('done');
  if (state.firstDrawnMs === null) state.firstDrawnMs = performance.now();
}

function handleRunError(error) {
  const err = { path: String(error?.path ?? ''), message: String(error?.message ?? error) };
  // A wasm trap ("unreachable") is a panic or an out-of-memory abort, not a problem with the input's form.
  if (error?.internal && !err.message.startsWith('the engine')) err.message = `the engine stopped unexpectedly (${err.message}); it was restarted`;
  // Every error the engine returns (parse, validation, limits) happens before the run starts;
  // only a crash (internal) happens during it.
  const refused = !error?.internal;
  if (state.running) ui.runInfo.textContent = refused ? 'Refused before running' : `Failed after ${Math.round(performance.now() - state.running.t0)} ms`;
  // An engine message may itself open with the words; the page says them once, before the path,
  // and keeps the engine's error as it came in state.lastError.
  const shown = refused ? { ...err, message: err.message.replace(/^refused before running: /, '') } : err;
  showError(shown, { prefix: refused ? 'refused before running: ' : '' });
  editor.fieldError(err);
  state.lastError = err;
  setStatus('error');
  // A panic may leave the wasm instance unusable: start a fresh one.
  if (error?.internal) restartWorker();
}

function restartWorker() {
  engine.restart();
}

function handleStop() {
  const run = state.running;
  if (!run) return;
  run.stopped = true;
  state.pending = null;
  restartWorker();
  finishRun(run);
  ui.runInfo.textContent = `Stopped after ${Math.round(performance.now() - run.t0)} ms`;
  if (run.live) {
    state.view?.stopped?.();
    ui.title.textContent = `${run.name} (stopped: the best so far)`;
    showTablesPending('Stopped before the end: the drawing is the best found so far. Run again for the complete report (tables, JSON, CSV).');
  }
  setStatus('idle');
}

/** Draws a report's view; returns the engine's view module (its tables follow in another task). */
function drawReport(envelope) {
  state.view?.destroy();
  state.view = null;
  state.liveName = null;
  ui.title.textContent = envelope.name || 'Untitled scenario';
  const view = viewFor(envelope.engine);
  state.view = view.draw(ui.drawing, envelope);
  for (const b of [ui.exportPng, ui.exportJson, ui.exportCsv, ui.exportJobs]) b.disabled = false;
  ui.exportJobs.textContent = view.SECOND_CSV?.label ?? 'Jobs CSV';
  ui.exportJobs.title = view.SECOND_CSV?.title ?? 'Every job of every policy';
  return view;
}

// ---- engines, examples, scenarios -----------------------------------------------------------------
function engineDesc(id) {
  return state.engines.find((e) => e.id === id) || null;
}

function fillEngines() {
  ui.engine.replaceChildren(...state.engines.map((e) => {
    const o = document.createElement('option');
    o.value = e.id;
    o.textContent = e.title || e.id;
    return o;
  }));
  ui.version.textContent = state.version ? `v${state.version}` : '';
}

/**
 * The examples menu, one group per engine (in the registry's order) when there are several, then
 * the example studies in a group of their own (choosing one loads its base and runs the study).
 */
function fillExamples() {
  const opts = [new Option('Choose an example…', '')];
  const all = state.examples.examples || [];
  const examples = all.filter((ex) => !ex.study);
  const studies = all.filter((ex) => ex.study);
  const option = (ex) => { const o = new Option(ex.name || ex.file, ex.file); o.title = ex.description || ''; return o; };
  const group = (label, entries) => {
    const g = document.createElement('optgroup');
    g.label = label;
    g.append(...entries.map(option));
    return g;
  };
  const engines = state.engines.filter((e) => examples.some((ex) => (ex.engine || 'allocation') === e.id));
  if (engines.length <= 1 && !studies.length) opts.push(...examples.map(option));
  else {
    for (const e of engines) opts.push(group(e.title || e.id, examples.filter((ex) => (ex.engine || 'allocation') === e.id)));
  }
  if (studies.length) opts.push(group('Studies', studies));
  ui.example.replaceChildren(...opts);
}

/** Shows the description line: the scenario's own, marked when edited from an example or link. */
function reflectDescription() {
  const desc = editor.valueAt('description');
  ui.description.classList.remove('expanded');
  ui.description.title = 'Click to read all';
  ui.description.textContent = typeof desc === 'string' ? desc : '';
  ui.description.dataset.edited = editor.edited ? 'true' : 'false';
}

/**
 * Shows scenario text in the editor (form for its engine, raw JSON), without running it.
 * `scenario`: {shown, folds} from the text worker, or plain text that needs no folding.
 */
function applyScenario(scenario, exampleFile = '') {
  const folded = typeof scenario === 'string' ? { shown: scenario, folds: [] } : scenario;
  editor.setText(folded);
  const desc = engineDesc(editor.valueAt('engine'));
  if (desc) {
    state.engineId = desc.id;
    ui.engine.value = desc.id;
  }
  editor.setEngine(desc, viewFor(desc?.id).FORM_EXTRAS);
  ui.example.value = exampleFile;
  reflectDescription();
  if (desc) study.setEngine(desc.id);
  study.scenarioChanged();
}

async function loadExample(file) {
  const res = await fetch(EXAMPLES_DIR + encodeURIComponent(file));
  if (!res.ok) throw new Error(`example ${file} could not be loaded (HTTP ${res.status})`);
  const body = await res.text();
  applyScenario(body.length > 200_000 ? await text.call('fold', { text: body }) : body, file);
}

async function loadDefault() {
  const file = state.examples.default || state.examples.examples?.[0]?.file;
  if (file) {
    await loadExample(file);
  } else if (state.engines[0]) {
    applyScenario(editor.defaults(state.engines[0]));
  }
}

/**
 * An example study: its base scenario in the editor (inline, an example's id, or a file beside
 * the study), the study in the panel, the base run and drawn, and the study started.
 */
async function loadStudyExample(file) {
  const get = async (f) => {
    const res = await fetch(EXAMPLES_DIR + f.split('/').map(encodeURIComponent).join('/'));
    if (!res.ok) throw new Error(`example ${f} could not be loaded (HTTP ${res.status})`);
    return res.text();
  };
  const doc = JSON.parse(await get(file));
  const base = doc.base && typeof doc.base === 'object' ? JSON.stringify(doc.base, null, 2)
    : doc.example ? await get(`${doc.example}.json`)
      : await get(file.replace(/[^/]*$/, '') + doc.baseFile);
  applyScenario(base, file);
  ui.description.textContent = doc.description || '';
  return study.load(doc) ? () => study.api.run() : null;
}

async function handleExampleChange() {
  const file = ui.example.value;
  if (!file) return;
  clearError(true);
  try {
    const entry = (state.examples.examples || []).find((ex) => ex.file === file);
    const seq = ++state.exampleSeq;
    const runStudy = entry?.study ? await loadStudyExample(file) : (await loadExample(file), null);
    saveLinkHash('');
    handleRun();
    if (runStudy) {
      $('study-details').scrollIntoView({ block: 'start' });
      // the base run drawn first: the study's workers would take the cores its drawing needs
      await whenShown();
      if (seq === state.exampleSeq) runStudy();
    }
  } catch (e) {
    showError({ path: '', message: e.message });
    setStatus('error');
  }
}

/** Resolves once no run is in flight and the view has drawn every panel (big machines: one a frame). */
function whenShown() {
  return new Promise((resolve) => {
    const check = () => (state.running || state.view?.drawing?.() ? requestAnimationFrame(check) : resolve());
    requestAnimationFrame(check);
  });
}

async function handleEngineChange() {
  const desc = engineDesc(ui.engine.value);
  if (!desc) return;
  state.engineId = desc.id;
  const ex = (state.examples.examples || []).find((e) => !e.study && (e.engine || 'allocation') === desc.id);
  if (ex) {
    ui.example.value = ex.file;
    await handleExampleChange();
  } else {
    applyScenario(editor.defaults(desc));
  }
}

/** The user edited the scenario: it is no longer the example, nor what the link in the address bar holds. */
function handleEditorChange({ engineChanged } = {}) {
  ui.example.value = '';
  reflectDescription();
  if (location.hash) saveLinkHash('');
  if (engineChanged) {
    const desc = engineDesc(editor.valueAt('engine'));
    if (desc) { state.engineId = desc.id; ui.engine.value = desc.id; editor.setEngine(desc, viewFor(desc?.id).FORM_EXTRAS); }
  }
  study.setEngine(editor.valueAt('engine'));
  study.scenarioChanged();
  if (viewFor(editor.valueAt('engine')).LIVE) scheduleLiveRun();
}

/**
 * Engines whose view says LIVE (fast runs, e.g. a T(P) curve) re-run as the user types: one run in
 * flight and the newest edit queued (startRun), so the drawing follows the keystrokes; an edit the
 * engine refuses shows its error and leaves the last good drawing in place.
 */
function scheduleLiveRun() {
  if (scheduleLiveRun.queued) return;
  scheduleLiveRun.queued = true;
  // at the end of the edit's task: the edits of one task coalesce, and no timer hop is paid
  queueMicrotask(() => {
    scheduleLiveRun.queued = false;
    const cur = editor.current();
    if (cur.ok) startRun(cur.text, { preview: true });
  });
}

/** After a preview: the complete run of the same text, unless another edit or run comes first. */
function scheduleComplete(text) {
  clearTimeout(scheduleComplete.timer);
  scheduleComplete.timer = setTimeout(() => {
    if (!state.running && state.pending === null) startRun(text);
  }, COMPLETE_AFTER_MS);
}

// ---- links --------------------------------------------------------------------------------------
async function handleShare() {
  if (editor.markEdited()) reflectDescription();
  const cur = editor.current();
  if (!cur.ok) { showError({ path: '$', message: `the raw JSON does not parse (${cur.message})` }); return; }
  let hash;
  try { hash = await text.call('encodeLink', { text: cur.text, study: study.spec() ?? null }); } catch (e) { showError({ path: '', message: `the link could not be made: ${e.message}` }); return; }
  saveLinkHash(hash);
  state.lastShareUrl = location.href;
  try {
    await navigator.clipboard.writeText(location.href);
    showNotice('Link copied to the clipboard.');
  } catch {
    showNotice('Link is in the address bar (the clipboard was not available).');
  }
}

/**
 * Opens the scenario in the hash (decoded and folded in the text worker); a broken link shows why and
 * falls back to the default example. A link that decodes to a scenario the engine refuses stays in
 * the editor, and the run shows the engine's error.
 */
async function openLink(hash) {
  try {
    const opened = await text.call('openLink', { hash });
    applyScenario(opened);
    if (opened.study) study.load(opened.study);
    return true;
  } catch (e) {
    showError({ path: 'link', message: `${e.message}. The default example was loaded instead.` }, { sticky: true });
    saveLinkHash('');
    await loadDefault();
    return false;
  }
}

async function handleHashChange() {
  if (!location.hash || location.hash === '#') return;
  clearError(true);
  await openLink(location.hash);
  handleRun();
}

// ---- imports ------------------------------------------------------------------------------------

/**
 * Opens a file: a scenario (JSON with an "engine") replaces the editor's scenario; any other file
 * goes to the engine importer that takes it (engines/data.js: an SWF log becomes the current
 * allocation scenario's workload, a METIS graph or an edge list a partitioning scenario, ...).
 * The file is read, checked, converted and folded in the text worker.
 */
async function handleOpenFile() {
  const chosen = [...(ui.openFile.files ?? [])];
  ui.openFile.value = '';
  if (chosen.length === 0) return;
  const file = chosen[0];
  const cur = editor.current();
  const context = { base: cur.ok ? cur.text : null, engine: cur.ok ? editor.valueAt('engine') ?? null : null };
  // several files: a trace folder (an SMPI index and its rank files)
  const opened = chosen.length > 1
    ? await text.call('openFiles', { files: chosen, ...context })
    : await text.call('openFile', { file, ...context });
  clearError(true);
  if (opened.kind === 'invalid') {
    showError({ path: file.name, message: 'a scenario file is a JSON object with "version" and "engine"' });
    return;
  }
  if (opened.kind === 'unknown') {
    showError({ path: file.name, message: `not a scenario, nor a file an engine imports (${importExtensions().join(', ')})` });
    return;
  }
  if (opened.kind === 'refused') {
    showError({ path: file.name, message: opened.message });
    return;
  }
  // a log or trace too large for the scenario stays a file, read again by the engine worker at each run
  if (opened.attached?.kind === 'trace') {
    const byName = new Map(chosen.map((f) => [f.name, f]));
    // from an archive, the worker sends the members it unpacked
    const files = opened.attached.members ?? (opened.attached.order ? opened.attached.order.map((n) => byName.get(n)) : [file]);
    state.attachments.set(opened.attached.name, { files });
  } else if (opened.attached) state.attachments.set(opened.attached.name, { file: opened.attached.members?.[0] ?? file });
  applyScenario(opened);
  ui.example.value = '';
  saveLinkHash('');
  handleRun();
}

/** The scenario's name as the editor holds it (the title of a run whose report has not arrived). */
function scenarioName() {
  try {
    const name = editor.valueAt('name');
    return typeof name === 'string' && name ? name : 'Untitled scenario';
  } catch {
    return 'Untitled scenario';
  }
}

// ---- exports ------------------------------------------------------------------------------------
function baseName() {
  return safeFileName(state.lastReport?.name ?? state.liveName, 'placelab');
}

/**
 * Downloads: the JSON file is the complete report exactly as `placelab run` prints it (the report
 * and one newline); CSV is built from that complete report in the text worker.
 */
async function handleExport(kind, detail = {}) {
  if (!state.lastReport && !(kind === 'png' && state.view)) return;
  if (!state.lastResult?.blob && kind !== 'png') { showNotice('The complete report is on its way: export once it is drawn.'); return; }
  try {
    if (kind === 'png') await exportPng(state.view?.canvases?.() || [], baseName());
    else if (kind === 'hostfile') {
      const f = await text.call('hostfile', { report: state.lastResult.blob, format: detail.format, case: detail.case, strategy: detail.strategy, job: detail.job });
      exportBlob(new Blob([f.text], { type: 'text/plain' }), `${baseName()}.${detail.suffix}`);
      if (detail.format === 'simgrid-platform') showNotice(`${f.label}: ${f.what}.`);
      else showNotice(`${f.label}: ${f.what}, ${f.ranks} ranks on ${f.hosts} hosts${f.keepsOrder ? '' : ' (this format does not keep the rank order: use the machinefile, rankfile or SLURM_HOSTFILE)'}.`);
    }
    else if (kind === 'json') exportBlob(state.lastResult.blob, `${baseName()}.report.json`);
    else {
      const parts = await text.call('csv', { report: state.lastResult.blob });
      // the second CSV button takes the engine's second table (allocation: jobs; partition: parts)
      const part = parts.find((p) => p.name === kind) || (kind === 'jobs' ? parts[1] : null) || parts[0];
      if (part) exportBlob(part.blob, `${baseName()}.${part.file || `${part.name}.csv`}`);
    }
  } catch (e) {
    showError({ path: '', message: `export failed: ${e.message}` });
  }
}

// ---- the Study panel (study/panel.js) ------------------------------------------------------------
const study = createStudyPanel({
  ui: {
    root: $('study'), details: $('study-details'), axes: $('study-axes'), addAxis: $('study-add-axis'),
    replicates: $('study-replicates'), baseSeed: $('study-base-seed'), workers: $('study-workers'), metrics: $('study-metrics'),
    count: $('study-count'), run: $('study-run'), stop: $('study-stop'), open: $('study-open'), openFile: $('study-open-file'),
    error: $('study-error'), progress: $('study-progress'), metric: $('study-metric'), charts: $('study-charts'), table: $('study-table'),
    downloads: [...document.querySelectorAll('.study-download')], png: $('study-png'),
  },
  engines: () => state.engines,
  scenario: () => editor.current(),
  valueAt: (path) => { try { return editor.valueAt(path); } catch { return undefined; } },
  scenarioName,
  attachments: () => attachedFiles(),
});

// ---- start --------------------------------------------------------------------------------------
const editor = createEditor({
  form: ui.form, raw: ui.raw, rawError: ui.rawError, onChange: handleEditorChange,
  fold: (t) => text.call('fold', { text: t }),
});

ui.run.addEventListener('click', () => { clearError(true); handleRun(); });
ui.stop.addEventListener('click', handleStop);
ui.share.addEventListener('click', handleShare);
ui.openFile.accept = ['.json', ...importExtensions(), '.txt', 'application/json', 'text/plain'].join(',');
ui.open.addEventListener('click', () => ui.openFile.click());
ui.openFile.addEventListener('change', () => { handleOpenFile().catch((e) => showError({ path: '', message: e.message })); });
ui.example.addEventListener('change', handleExampleChange);
ui.engine.addEventListener('change', handleEngineChange);
ui.errorClose.addEventListener('click', () => clearError(true));
ui.description.addEventListener('click', () => ui.description.classList.add('expanded'));
ui.exportPng.addEventListener('click', () => handleExport('png'));
ui.exportJson.addEventListener('click', () => handleExport('json'));
ui.exportCsv.addEventListener('click', () => handleExport('summary'));
ui.exportJobs.addEventListener('click', () => handleExport('jobs'));
// A view asks for one of its engine's exports (e.g. a part file) with an `export` event.
ui.drawing.addEventListener('export', (e) => handleExport(String(e.detail?.name ?? ''), e.detail ?? {}));
ui.form.addEventListener('submit', (e) => { e.preventDefault(); handleRun(); });
window.addEventListener('hashchange', handleHashChange);
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') { e.preventDefault(); handleRun(); }
});

window.placelab = {
  ready,
  state,
  /** The report's bounded view (what the page draws). */
  get lastReport() { return state.lastReport; },
  /** The complete report text, when it is at most 1 MiB (else null: use reportText()). */
  get lastReportText() { return state.lastResult?.text ?? null; },
  /** SHA-256 (hex) of the JSON export (the report and one newline, as `placelab run` prints it); null outside a secure context. */
  get lastReportSha256() { return state.lastResult?.sha256 ?? null; },
  /** The complete report text, however large. */
  reportText: async () => (state.lastResult ? (await state.lastResult.blob.text()).slice(0, -1) : null),
  /** The scenario text the next Run sends (unfolded). */
  scenarioText: () => editor.current().text ?? null,
  get lastError() { return state.lastError; },
  get runCount() { return state.runCount; },
  get view() { return state.view; },
  /** The Study panel: run(opts), stop(), tables(), snapshot, outline, progress, studyText(), canvases(). */
  study: study.api,
  /** Runs scenario text in the worker without drawing (benchmarks): {ms, bytes, sha256, view}. */
  runInWorker: async (t) => {
    const { ms, bytes, sha256, view } = await callWorker(t);
    return { ms, bytes, sha256, view };
  },
};

async function start() {
  setStatus('idle');
  engine = createEngineClient();
  const examples = fetch(`${EXAMPLES_DIR}index.json`).then((r) => (r.ok ? r.json() : { examples: [] })).catch(() => ({ examples: [] }));
  try {
    await engine.ready;
    state.engines = engine.engines;
    state.version = engine.version;
  } catch (error) {
    showError(error);
    setStatus('error');
    resolveReady();
    return;
  }
  state.examples = await examples;
  fillEngines();
  fillExamples();
  try {
    if (location.hash && location.hash !== '#') await openLink(location.hash);
    else await loadDefault();
  } catch (e) {
    showError({ path: '', message: e.message });
    setStatus('error');
    resolveReady();
    return;
  }
  handleRun();
}

start();
