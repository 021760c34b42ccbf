// Hosts the wasm engine and nothing else: every message has a `type`, requests carry an `id`.
// Stop is done by the page with worker.terminate(), so a run here may block as long as it likes.
import init, { run, engines, version } from './pkg/placelab.js';

function asError(e) {
  const text = e && e.message !== undefined ? String(e.message) : String(e);
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed.message === 'string') {
      return { path: String(parsed.path ?? ''), message: parsed.message };
    }
  } catch { /* not one of ours: a panic or a JS error */ }
  return { path: '', message: text, internal: true };
}

async function start() {
  try {
    await init();
    postMessage({ type: 'ready', engines: JSON.parse(engines()), version: version() });
  } catch (e) {
    postMessage({ type: 'error', id: null, error: { path: '', message: `could not load the engine: ${asError(e).message}`, internal: true } });
  }
}

function handleRun({ id, scenario }) {
  const t0 = performance.now();
  try {
    const report = run(scenario, (done, total) => postMessage({ type: 'progress', id, done, total }));
    postMessage({ type: 'result', id, report, ms: performance.now() - t0 });
  } catch (e) {
    postMessage({ type: 'error', id, error: asError(e), ms: performance.now() - t0 });
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
