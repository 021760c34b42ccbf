// App state and handlers: the worker (which alone talks to wasm), examples, links, runs and views.
import { createEditor } from './editor.js';
import { encodeLink, decodeLink, saveLinkHash } from './links.js';
import { viewFor } from './engines/index.js';
import { exportPng, exportJson, exportCsv, safeFileName } from './export.js';

const PROGRESS_DELAY_MS = 500;   // runs shorter than this never flash a progress bar
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
  pending: null,          // scenario text queued while a run is in flight (newest wins)
  lastReport: null,
  lastReportText: null,
  lastError: null,
  stickyError: false,     // a link error stays visible over the default example's result
  runCount: 0,
  lastShareUrl: null,
  firstDrawnMs: null,
  view: null,
};

let resolveReady;
const ready = new Promise((r) => { resolveReady = r; });

// ---- worker ------------------------------------------------------------------------------------
let worker = null;
let workerReady = null;         // Promise resolved by the worker's `ready`
let workerReadyResolve = null, workerReadyReject = null;
let nextRunId = 1;
const inFlight = new Map();     // id → {resolve, reject, onProgress}

function spawnWorker() {
  workerReady = new Promise((res, rej) => { workerReadyResolve = res; workerReadyReject = rej; });
  workerReady.catch(() => {});
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = handleWorkerMessage;
  worker.onerror = (event) => {
    event.preventDefault();
    const error = { path: '', message: `the engine could not start (${event.message || 'worker error'}); was the wasm built? Run scripts/build.sh`, internal: true };
    workerReadyReject(error);
    failInFlight(error);
  };
}

function failInFlight(error) {
  for (const { reject } of inFlight.values()) reject(error);
  inFlight.clear();
}

function handleWorkerMessage({ data }) {
  const waiting = data && data.id !== undefined && data.id !== null ? inFlight.get(data.id) : null;
  switch (data && data.type) {
    case 'ready':
      state.engines = data.engines;
      state.version = data.version;
      workerReadyResolve();
      break;
    case 'progress':
      waiting?.onProgress?.(data.done, data.total);
      break;
    case 'result':
      inFlight.delete(data.id);
      waiting?.resolve({ reportText: data.report, ms: data.ms });
      break;
    case 'error':
      if (data.id === null || data.id === undefined) { workerReadyReject(data.error); failInFlight(data.error); break; }
      inFlight.delete(data.id);
      waiting?.reject(data.error);
      break;
    default:
      console.warn('placelab: unknown message from worker', data);
  }
}

/** Sends one scenario to the worker; resolves {reportText, ms}, rejects {path, message}. */
async function callWorker(scenarioText, onProgress) {
  await workerReady;
  const id = nextRunId++;
  return new Promise((resolve, reject) => {
    inFlight.set(id, { resolve, reject, onProgress });
    worker.postMessage({ type: 'run', id, scenario: scenarioText });
  });
}

// ---- status, errors -----------------------------------------------------------------------------
function setStatus(status) {
  state.status = status;
  document.body.dataset.status = status;
  ui.stop.disabled = status !== 'running';
}

function showError(error, { sticky = false } = {}) {
  state.lastError = error;
  state.stickyError = sticky;
  ui.errorText.textContent = error.path ? `${error.path}: ${error.message}` : error.message;
  ui.error.hidden = false;
}

function clearError(force = false) {
  if (state.stickyError && !force) return;
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
  const cur = editor.current();
  if (!cur.ok) {
    showError({ path: '$', message: `the raw JSON does not parse (${cur.message})` });
    setStatus('error');
    return;
  }
  startRun(JSON.stringify(cur.value));
}

function startRun(text) {
  if (state.running) { state.pending = text; return; }
  const run = { id: null, t0: performance.now(), progressTimer: 0, stopped: false };
  state.running = run;
  setStatus('running');
  ui.runInfo.textContent = 'Running…';
  run.progressTimer = setTimeout(() => { ui.progress.hidden = false; }, PROGRESS_DELAY_MS);
  ui.progressBar.removeAttribute('value');
  ui.progressText.textContent = '';
  const onProgress = (done, total) => {
    if (total > 0) {
      ui.progressBar.max = total;
      ui.progressBar.value = done;
      ui.progressText.textContent = `${Math.floor((100 * done) / total)}%`;
    }
  };
  callWorker(text, onProgress).then(
    (result) => { if (!run.stopped) handleResult(result); },
    (error) => { if (!run.stopped) handleRunError(error); },
  ).finally(() => {
    if (run.stopped) return;
    finishRun(run);
  });
}

function finishRun(run) {
  clearTimeout(run.progressTimer);
  ui.progress.hidden = true;
  if (state.running === run) state.running = null;
  if (state.pending !== null) {
    const next = state.pending;
    state.pending = null;
    startRun(next);
  }
  resolveReady();
}

function handleResult({ reportText, ms }) {
  let envelope;
  try { envelope = JSON.parse(reportText); } catch (e) {
    handleRunError({ path: '', message: `the engine returned a report that is not JSON (${e.message})` });
    return;
  }
  state.lastReportText = reportText;
  state.lastReport = envelope;
  state.lastError = null;
  state.runCount += 1;
  clearError();
  drawReport(envelope);
  ui.runInfo.textContent = `Ran in ${Math.round(ms)} ms`;
  setStatus('done');
  if (state.firstDrawnMs === null) state.firstDrawnMs = performance.now();
}

function handleRunError(error) {
  const err = { path: String(error?.path ?? ''), message: String(error?.message ?? error) };
  // A wasm trap ("unreachable") is a panic or an out-of-memory abort, not a problem with the input's form.
  if (error?.internal && !err.message.startsWith('the engine')) err.message = `the engine stopped unexpectedly (${err.message}); it was restarted`;
  if (state.running) ui.runInfo.textContent = `Failed after ${Math.round(performance.now() - state.running.t0)} ms`;
  showError(err);
  setStatus('error');
  // A panic may leave the wasm instance unusable: start a fresh one.
  if (error?.internal) restartWorker();
}

function restartWorker() {
  worker?.terminate();
  failInFlight({ path: '', message: 'stopped' });
  spawnWorker();
}

function handleStop() {
  const run = state.running;
  if (!run) return;
  run.stopped = true;
  state.pending = null;
  restartWorker();
  finishRun(run);
  ui.runInfo.textContent = `Stopped after ${Math.round(performance.now() - run.t0)} ms`;
  setStatus('idle');
}

function drawReport(envelope) {
  state.view?.destroy();
  state.view = null;
  ui.title.textContent = envelope.name || 'Untitled scenario';
  const view = viewFor(envelope.engine);
  state.view = view.draw(ui.drawing, envelope);
  view.table(ui.tables, envelope);
  for (const b of [ui.exportPng, ui.exportJson, ui.exportCsv, ui.exportJobs]) b.disabled = false;
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

function fillExamples() {
  const opts = [new Option('Choose an example…', '')];
  for (const ex of state.examples.examples || []) {
    const o = new Option(ex.name || ex.file, ex.file);
    o.title = ex.description || '';
    opts.push(o);
  }
  ui.example.replaceChildren(...opts);
}

/** Shows a scenario in the editor (form for its engine, raw JSON), without running it. */
function applyScenario(scenario, exampleFile = '') {
  const desc = engineDesc(scenario.engine);
  if (desc) {
    state.engineId = desc.id;
    ui.engine.value = desc.id;
  }
  editor.setEngine(desc);
  editor.setScenario(scenario);
  ui.example.value = exampleFile;
  const ex = (state.examples.examples || []).find((e) => e.file === exampleFile);
  ui.description.classList.remove('expanded');
  ui.description.title = 'Click to read all';
  ui.description.textContent = ex?.description || (typeof scenario.description === 'string' ? scenario.description : '');
}

async function loadExample(file) {
  const res = await fetch(EXAMPLES_DIR + encodeURIComponent(file));
  if (!res.ok) throw new Error(`example ${file} could not be loaded (HTTP ${res.status})`);
  const scenario = JSON.parse(await res.text());
  applyScenario(scenario, file);
}

async function loadDefault() {
  const file = state.examples.default || state.examples.examples?.[0]?.file;
  if (file) {
    await loadExample(file);
  } else if (state.engines[0]) {
    applyScenario(editor.defaults(state.engines[0]));
  }
}

async function handleExampleChange() {
  const file = ui.example.value;
  if (!file) return;
  clearError(true);
  try {
    await loadExample(file);
    saveLinkHash('');
    handleRun();
  } catch (e) {
    showError({ path: '', message: e.message });
    setStatus('error');
  }
}

async function handleEngineChange() {
  const desc = engineDesc(ui.engine.value);
  if (!desc) return;
  state.engineId = desc.id;
  const ex = (state.examples.examples || []).find((e) => (e.engine || 'allocation') === desc.id);
  if (ex) {
    ui.example.value = ex.file;
    await handleExampleChange();
  } else {
    applyScenario(editor.defaults(desc));
  }
}

/** The user edited the scenario: it is no longer the example, nor what the link in the address bar holds. */
function handleEditorChange(scenario, { engineChanged } = {}) {
  ui.example.value = '';
  ui.description.textContent = typeof scenario.description === 'string' ? scenario.description : '';
  if (location.hash) saveLinkHash('');
  if (engineChanged) {
    const desc = engineDesc(scenario.engine);
    if (desc) { state.engineId = desc.id; ui.engine.value = desc.id; editor.setEngine(desc); }
  }
}

// ---- links --------------------------------------------------------------------------------------
async function handleShare() {
  const cur = editor.current();
  if (!cur.ok) { showError({ path: '$', message: `the raw JSON does not parse (${cur.message})` }); return; }
  const hash = await encodeLink(cur.value);
  saveLinkHash(hash);
  state.lastShareUrl = location.href;
  try {
    await navigator.clipboard.writeText(location.href);
    showNotice('Link copied to the clipboard.');
  } catch {
    showNotice('Link is in the address bar (the clipboard was not available).');
  }
}

/** Opens the scenario in the hash; a broken link shows why and falls back to the default example. */
async function openLink(hash) {
  try {
    const scenario = await decodeLink(hash);
    applyScenario(scenario);
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
const MAX_IMPORT_BYTES = 4 * 1024 * 1024; // the engine's own scenario limit

/**
 * Opens a file: a scenario (JSON with an "engine") replaces the editor's scenario; anything else
 * is read as a Standard Workload Format log and becomes the current allocation scenario's workload.
 */
async function handleOpenFile() {
  const file = ui.openFile.files?.[0];
  ui.openFile.value = '';
  if (!file) return;
  if (file.size > MAX_IMPORT_BYTES) {
    showError({ path: file.name, message: `the file is ${file.size} bytes; the limit is ${MAX_IMPORT_BYTES} bytes` });
    return;
  }
  const text = await file.text();
  let doc = null;
  try { doc = JSON.parse(text); } catch { /* not JSON: an SWF log */ }
  clearError(true);
  if (doc !== null) {
    if (typeof doc !== 'object' || Array.isArray(doc) || typeof doc.engine !== 'string') {
      showError({ path: file.name, message: 'a scenario file is a JSON object with "version" and "engine"' });
      return;
    }
    applyScenario(doc);
  } else {
    const cur = editor.current();
    const base = cur.ok && cur.value.engine === 'allocation' ? cur.value : null;
    if (!base) {
      showError({ path: file.name, message: 'an SWF log replays on the allocation engine: pick an allocation example first' });
      return;
    }
    const scenario = structuredClone(base);
    scenario.name = `${file.name} (SWF log)`;
    scenario.description = `Jobs of ${file.name}, a Standard Workload Format log, replayed FCFS with EASY backfilling.`;
    scenario.workload = { kind: 'swf', backfill: 'easy', swf: text };
    applyScenario(scenario);
  }
  ui.example.value = '';
  saveLinkHash('');
  handleRun();
}

// ---- exports ------------------------------------------------------------------------------------
function baseName() {
  return safeFileName(state.lastReport?.name, 'placelab');
}

async function handleExport(kind) {
  if (!state.lastReport) return;
  try {
    if (kind === 'png') await exportPng(state.view?.canvases?.() || [], baseName());
    else if (kind === 'json') exportJson(state.lastReportText, baseName());
    else {
      const parts = viewFor(state.lastReport.engine).csv(state.lastReport);
      const part = parts.find((p) => p.name === kind) || parts[0];
      if (part) exportCsv(part.text, baseName(), part.name);
    }
  } catch (e) {
    showError({ path: '', message: `export failed: ${e.message}` });
  }
}

// ---- start --------------------------------------------------------------------------------------
const editor = createEditor({ form: ui.form, raw: ui.raw, rawError: ui.rawError, onChange: handleEditorChange });

ui.run.addEventListener('click', () => { clearError(true); handleRun(); });
ui.stop.addEventListener('click', handleStop);
ui.share.addEventListener('click', handleShare);
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
ui.form.addEventListener('submit', (e) => { e.preventDefault(); handleRun(); });
window.addEventListener('hashchange', handleHashChange);
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') { e.preventDefault(); handleRun(); }
});

window.placelab = {
  ready,
  state,
  get lastReport() { return state.lastReport; },
  get lastReportText() { return state.lastReportText; },
  get lastError() { return state.lastError; },
  get runCount() { return state.runCount; },
  get view() { return state.view; },
  /** Runs scenario text in the worker without drawing (benchmarks): {reportText, ms}. */
  runInWorker: (text) => callWorker(text),
};

async function start() {
  setStatus('idle');
  spawnWorker();
  const examples = fetch(`${EXAMPLES_DIR}index.json`).then((r) => (r.ok ? r.json() : { examples: [] })).catch(() => ({ examples: [] }));
  try {
    await workerReady;
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
