// Hosts the wasm engine: every message has a `type`, requests carry an `id`. The scenario arrives as
// text and goes to the engine byte for byte. Stop is done by the page with worker.terminate(), so a
// run here may block as long as it likes.
// What crosses back to the page is bounded: the complete report travels only as a Blob (the export,
// byte for byte `placelab run` output: the report and one newline) with its SHA-256; the page gets
// the report's bounded view (engines/data.js) and the text itself only when it is small. Phases the
// engine announces while running are timed here and cross as `view.phases` ([{name, ms}]).
// A run asked `preview: true` (a LIVE view re-running as the user types) calls the engine's
// run_preview: when the engine reduced the report (its envelope says "preview": true) only the
// bounded view crosses, without blob or checksum, and the page asks for the complete run later.
// Every run first asks the engine for the scenario's plan (wasm `plan`, src/split.rs): a scenario
// whose plan has several workers (e.g. a moldable GA's islands with `ga.workers` > 1) runs in part
// workers started from here (pool.js), with the same report as a run in one worker, byte for byte;
// partial results an engine offers while it runs are posted by the engine itself (src/wasm.rs)
// as {type: 'partial', value}. Nothing here knows an engine by name.
import init, { run, run_preview as runPreview, engines, version, plan as planOf, SwfAttach, TraceAttach } from './pkg/placelab.js';
import { dataFor } from './engines/data.js';
import { asError } from './errors.js';
import { runSplit } from './pool.js';
import { createAttacher } from './attach.js';

/** Reports up to this many bytes also cross as text (tests and small exports read it directly). */
const REPORT_TEXT_BYTES = 1 << 20;

async function start() {
  try {
    await init();
    postMessage({ type: 'ready', engines: JSON.parse(engines()), version: version() });
  } catch (e) {
    const why = simdMissing()
      ? 'this browser does not run WebAssembly SIMD, which the engines use (Chrome or Edge 91, Firefox 89, Safari 16.4 or later do)'
      : asError(e).message;
    postMessage({ type: 'error', id: null, error: { path: '', message: `could not load the engine: ${why}`, internal: true } });
  }
}

/** Whether the browser refuses a module of one 128-bit SIMD instruction (the engines need it). */
function simdMissing() {
  const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
  try { return !WebAssembly.validate(bytes); } catch { return true; }
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Attaches the files a run names (attach.js, src/attach.rs), each read once per worker. */
const attachAll = createAttacher({ SwfAttach, TraceAttach });

async function handleRun({ id, scenario, preview = false, attachments = [] }) {
  const t0 = performance.now();
  let report;
  // phases the engine announces (e.g. each partitioning method), timed here: [{name, ms}]
  const phases = [];
  let phase = null;
  const onProgress = (done, total, name) => {
    if (name === undefined) { postMessage({ type: 'progress', id, done, total }); return; }
    const now = performance.now();
    if (phase) phases.push({ name: phase.name, ms: now - phase.t });
    phase = name === 'end' ? null : { name, t: now };
  };
  try {
    await attachAll(attachments, (name) => onProgress(null, null, `reading ${name}`));
    const plan = preview ? null : planOf(scenario, self.navigator?.hardwareConcurrency || 1);
    report = plan && plan.workers > 1
      ? await runSplit(scenario, plan, onProgress)
      : (preview ? runPreview : run)(scenario, onProgress);
  } catch (e) {
    postMessage({ type: 'error', id, error: asError(e), ms: performance.now() - t0 });
    return;
  }
  const ms = performance.now() - t0;
  // The engine is done; checksumming and bounding a large report still takes a moment.
  postMessage({ type: 'stage', id, stage: 'report' });
  try {
    const envelope = JSON.parse(report);
    const { view, transfer } = dataFor(envelope.engine).bound(envelope);
    view.phases = phases;
    if (envelope.preview === true) {
      postMessage({ type: 'result', id, ms, view, blob: null, bytes: report.length + 1, sha256: null, text: null, preview: true }, transfer);
      return;
    }
    const blob = new Blob([report, '\n'], { type: 'application/json' });
    // crypto.subtle exists only in secure contexts (https, localhost); elsewhere there is no checksum.
    const sha256 = crypto.subtle ? hex(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer())) : null;
    const text = blob.size <= REPORT_TEXT_BYTES ? report : null;
    postMessage({ type: 'result', id, ms, view, blob, bytes: blob.size, sha256, text }, transfer);
  } catch (e) {
    postMessage({ type: 'error', id, error: { path: '', message: `the report could not be prepared: ${e?.message ?? e}`, internal: true }, ms });
  }
}

const HANDLERS = { run: handleRun };

self.onmessage = (event) => {
  const msg = event.data;
  const handler = msg && HANDLERS[msg.type];
  if (handler) handler(msg);
  else console.warn('placelab worker: unknown message type', msg && msg.type);
};

start();
