// Runs a scenario split across several Web Workers (src/split.rs), for any engine whose plan says
// so: the engine worker (worker.js) asks every scenario for its plan (wasm `plan`: how many
// workers, which parts each hosts, the run's ticks) and hands a plan of several workers to
// runSplit. The coordinator (wasm SplitRun) stays in the engine worker, where the run's progress
// and partial results go as in a run in one worker; each part worker (partworker.js) hosts its
// parts (wasm SplitPart). They meet in rounds: SplitRun.next() writes every part's mail, each part
// worker steps its parts and answers, the answers go back to SplitRun, until it has the report:
// byte for byte the one `run` returns (never depending on the number of workers or on timing).
// Mail and answers are words (Uint32Array) only the engine reads: nothing here knows an engine.
// Stop terminates the engine worker, and with it these workers.
import { SplitRun } from './pkg/placelab.js';
import { workerChannel } from './channel.js';

/** A part worker as a typed request/response channel (replies: 'ready', 'answers'). */
const spawn = () => workerChannel(new URL('./partworker.js', import.meta.url), { name: 'a part worker', types: ['ready', 'answers'] });

/**
 * Runs `scenario` as `plan` (from wasm `plan`, `plan.workers` > 1) says; resolves the report JSON
 * (as wasm `run` returns it). `onProgress` is the callback `run` takes (ticks and phases).
 */
export async function runSplit(scenario, plan, onProgress) {
  const split = new SplitRun(scenario, onProgress);
  const workers = plan.parts.map(spawn);
  try {
    await Promise.all(workers.map((w, k) => w.ask({ type: 'init', scenario, parts: plan.parts[k] })));
    while (split.next()) {
      const replies = await Promise.all(workers.map((w, k) => {
        const mail = plan.parts[k].map((i) => [i, split.mail(i)]);
        return w.ask({ type: 'step', mail }, mail.map(([, words]) => words.buffer));
      }));
      for (const { answers } of replies) for (const [i, words] of answers) split.answer(i, words);
    }
    return split.report();
  } finally {
    for (const w of workers) w.terminate();
    split.free();
  }
}
