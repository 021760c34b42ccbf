// A part worker of a split run (pool.js, src/split.rs): hosts some parts of one scenario (wasm
// SplitPart, whatever the engine) and answers the pool. Typed protocol: every message has a
// `type`, every request an `id`, and the reply repeats it:
//   {type: 'init', id, scenario, parts: [i, ...]}  → {type: 'ready', id}
//   {type: 'step', id, mail: [[i, words], ...]}     → {type: 'answers', id, answers: [[i, words], ...]}
//   a failure                                       → {type: 'error', id, error: {path, message}}
// `words` are Uint32Arrays (transferred). A request of an unknown type is logged and answered with
// an error. The pool terminates this worker when the run ends or is stopped.
import init, { SplitPart } from './pkg/placelab.js';
import { asError } from './errors.js';

const ready = init();
let parts = new Map(); // part index → SplitPart

const HANDLERS = {
  init({ id, scenario, parts: indices }) {
    for (const p of parts.values()) p.free();
    parts = new Map(indices.map((i) => [i, new SplitPart(scenario, i)]));
    postMessage({ type: 'ready', id });
  },
  step({ id, mail }) {
    const answers = mail.map(([i, words]) => {
      const part = parts.get(i);
      if (!part) throw new Error(JSON.stringify({ path: '$', message: `part ${i} is not hosted here` }));
      return [i, part.step(words)];
    });
    postMessage({ type: 'answers', id, answers }, answers.map(([, w]) => w.buffer));
  },
};

self.onmessage = async ({ data }) => {
  const id = data?.id ?? null;
  try {
    await ready;
    const handler = HANDLERS[data?.type];
    if (!handler) {
      console.warn('placelab part worker: unknown message type', data?.type);
      postMessage({ type: 'error', id, error: { path: '', message: `unknown message type ${JSON.stringify(data?.type)}`, internal: true } });
      return;
    }
    handler(data);
  } catch (e) {
    postMessage({ type: 'error', id, error: asError(e) });
  }
};
