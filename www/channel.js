// A Web Worker as a typed request/response channel (the part workers of www/pool.js, the study
// workers of www/study/pool.js): every request gets an `id` that its reply repeats;
// `{type: 'error', id, error}` rejects that request. A reply for no request, or of a type not in
// `types` (when given), is logged and fails every request in flight; so does the worker failing
// or being terminated.

/**
 * @param {URL} url the worker's module
 * @param {{name: string, types?: string[], hint?: string}} options `name` for messages ("a part
 *   worker"), `types` the reply types accepted besides 'error' (any when absent), `hint` added to
 *   the message when the worker itself fails
 * @returns {{ask: (msg: object, transfer?: Transferable[]) => Promise<object>, terminate: () => void}}
 */
export function workerChannel(url, { name, types, hint = '' }) {
  const worker = new Worker(url, { type: 'module' });
  let nextId = 1;
  const waiting = new Map(); // id → {resolve, reject}
  const failAll = (error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  worker.onmessage = ({ data }) => {
    const w = waiting.get(data?.id);
    if (!w) {
      console.warn(`placelab: a message from ${name} for no request`, data);
      failAll({ path: '', message: `${name} answered a request it was not asked (${data?.type})`, internal: true });
      return;
    }
    waiting.delete(data.id);
    if (data.type === 'error') w.reject(data.error);
    else if (!types || types.includes(data.type)) w.resolve(data);
    else {
      console.warn(`placelab: unknown message type from ${name}`, data.type);
      w.reject({ path: '', message: `${name} answered with an unknown message type (${data.type})`, internal: true });
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    failAll({ path: '', message: `${name} failed (${event.message || 'worker error'})${hint}`, internal: true });
  };
  return {
    ask(msg, transfer = []) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ ...msg, id }, transfer);
      });
    },
    terminate() {
      worker.terminate();
      failAll({ path: '', message: 'stopped' });
    },
  };
}
