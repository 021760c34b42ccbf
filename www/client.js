// Clients of the two workers. The engine worker (worker.js) hosts the wasm and runs one scenario at a
// time; Stop terminates it and starts a fresh one. The text worker (textworker.js) does everything
// else that grows with the input (links, folding, files, CSV), so the main thread never does.

/** The engine worker: {ready, engines, version, run(text, onProgress), restart()}. */
export function createEngineClient() {
  let worker = null;
  let readyResolve, readyReject;
  let nextId = 1;
  const inFlight = new Map(); // id → {resolve, reject, onProgress}
  const client = { ready: null, engines: [], version: '' };

  function failInFlight(error) {
    for (const { reject } of inFlight.values()) reject(error);
    inFlight.clear();
  }

  function handleMessage({ data }) {
    const waiting = data && data.id !== undefined && data.id !== null ? inFlight.get(data.id) : null;
    switch (data && data.type) {
      case 'ready':
        client.engines = data.engines;
        client.version = data.version;
        readyResolve();
        break;
      case 'progress':
        waiting?.onProgress?.(data.done, data.total);
        break;
      case 'partial': // posted by the engine itself while it runs (one run at a time): see src/wasm.rs
        for (const w of inFlight.values()) w.onPartial?.(data.value);
        break;
      case 'stage': // 'report': the engine finished; the worker prepares what crosses to the page
        waiting?.onProgress?.(null, null, data.stage);
        break;
      case 'result':
        inFlight.delete(data.id);
        waiting?.resolve(data);
        break;
      case 'error':
        if (data.id === null || data.id === undefined) { readyReject(data.error); failInFlight(data.error); break; }
        inFlight.delete(data.id);
        waiting?.reject(data.error);
        break;
      default:
        console.warn('placelab: unknown message from the engine worker', data);
    }
  }

  function spawn() {
    client.ready = new Promise((res, rej) => { readyResolve = res; readyReject = rej; });
    client.ready.catch(() => {});
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = handleMessage;
    worker.onerror = (event) => {
      event.preventDefault();
      const error = { path: '', message: `the engine could not start (${event.message || 'worker error'}); was the wasm built? Run scripts/build.sh`, internal: true };
      readyReject(error);
      failInFlight(error);
    };
  }

  /**
   * Runs scenario text; resolves {view, blob, bytes, sha256, text, ms, preview} (worker.js), rejects
   * {path, message}. `onProgress(done, total)` follows the engine's ticks; `onProgress(null, null,
   * 'report')` says the engine finished and the report is being prepared. With `preview`, the
   * engine may answer with its live preview (`preview: true`, no blob: see Engine::preview).
   * `onPartial(value)` receives the partial results an engine offers while it runs
   * (`Progress::partial`; `value.engine` names it). `attachments` ([{name, file}]) are the files
   * the scenario may name instead of carrying (src/attach.rs); the worker reads each once.
   */
  client.run = async (scenarioText, onProgress, { preview = false, onPartial = null, attachments = [] } = {}) => {
    await client.ready;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      inFlight.set(id, { resolve, reject, onProgress, onPartial });
      worker.postMessage({ type: 'run', id, scenario: scenarioText, preview, attachments });
    });
  };

  /** Ends whatever runs now (worker.terminate()) and starts a fresh engine. */
  client.restart = () => {
    worker?.terminate();
    failInFlight({ path: '', message: 'stopped' });
    spawn();
  };

  spawn();
  return client;
}

/** The text worker: call(type, fields) → Promise of its value; rejects with {path, message}. */
export function createTextClient() {
  const worker = new Worker(new URL('./textworker.js', import.meta.url), { type: 'module' });
  let nextId = 1;
  const inFlight = new Map();
  worker.onmessage = ({ data }) => {
    const waiting = inFlight.get(data?.id);
    if (!waiting) { console.warn('placelab: unknown message from the text worker', data); return; }
    inFlight.delete(data.id);
    if (data.type === 'result') waiting.resolve(data.value);
    else waiting.reject(data.error);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    for (const { reject } of inFlight.values()) reject({ path: '', message: `the text worker failed (${event.message || 'worker error'})` });
    inFlight.clear();
  };
  return {
    call(type, fields = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        inFlight.set(id, { resolve, reject });
        worker.postMessage({ type, id, ...fields });
      });
    },
  };
}
