// The moldable GA's islands in several Web Workers (issue 10's parallel GA), run from the engine
// worker (worker.js) when a scenario asks for `ga.workers` > 1 and has several islands. The
// islands are dealt to at most min(ga.workers, islands, hardware threads, 8) island workers
// (islandworker.js), island i to worker i mod W. All islands advance to the same stops: every
// `partialEvery` cycles (a live partial result, as the one-worker run posts) and every exchange
// cycle, where island i receives the best of island i - 1 (a ring) before running on. The result
// depends only on the scenario (seed, islands, exchangeEvery), never on W or on timing: the
// engine's moldable_finish turns the islands' results into the report `placelab run` prints for
// the same text, which runs the same islands one after another (tests/moldable_parallel.rs).
// Stop terminates the engine worker, and with it these workers; the page keeps the last partial.
import { moldable_finish as moldableFinish } from './pkg/placelab.js';

/** Most island workers, whatever the scenario asks. */
export const MAX_WORKERS = 8;

/** Island workers for a plan: min(plan.workers, islands, hardware threads, MAX_WORKERS). */
export function workerCount(plan, threads = self.navigator?.hardwareConcurrency || 1) {
  return Math.max(1, Math.min(plan.workers, plan.islands, threads, MAX_WORKERS));
}

/** One island worker as a request/response channel (one request in flight at a time). */
function spawn() {
  const worker = new Worker(new URL('./islandworker.js', import.meta.url), { type: 'module' });
  let waiting = null;
  const fail = (message) => { const w = waiting; waiting = null; w?.reject({ path: '', message, internal: true }); };
  worker.onmessage = ({ data }) => {
    if (data?.type === 'error') fail(`an island worker failed: ${data.message}`);
    else { const w = waiting; waiting = null; w?.resolve(data); }
  };
  worker.onerror = (event) => { event.preventDefault(); fail(`an island worker failed (${event.message || 'worker error'})`); };
  return {
    ask(msg, transfer = []) {
      return new Promise((resolve, reject) => { waiting = { resolve, reject }; worker.postMessage(msg, transfer); });
    },
    terminate: () => worker.terminate(),
  };
}

/**
 * Runs the plan's islands in workers; resolves the report JSON (as wasm `run` returns it), or null
 * when fewer than two workers would run (the caller then runs the scenario in one).
 * `onProgress(done, total)` follows the cycles; `onPartial(value)` gets the best schedule so far
 * and the curve over all islands, as the engine's own partial results.
 */
export async function runIslands(scenario, plan, { onProgress = () => {}, onPartial = () => {}, threads } = {}) {
  const w = workerCount(plan, threads);
  if (w < 2) return null;
  const { islands, cycles, exchangeEvery, partialEvery } = plan;
  const total = 3 + cycles + 1; // the engine's ticks: 3 for the heuristics, one per cycle and the start
  const workers = Array.from({ length: w }, spawn);
  const owner = (i) => i % w;
  const curve = [];
  let best = []; // per island: {makespan, partial}
  try {
    const absorb = (replies, from) => {
      const migrants = [];
      for (const reply of replies) {
        for (const isl of reply.islands) {
          isl.curve.forEach((c, k) => { curve[from + k] = curve[from + k] === undefined ? c : Math.min(curve[from + k], c); });
          best[isl.index] = isl;
          if (isl.migrant) migrants[isl.index] = isl.migrant;
        }
      }
      return migrants;
    };
    absorb(await Promise.all(workers.map((wk, k) => wk.ask({ type: 'init', scenario,
      islands: Array.from({ length: islands }, (_, i) => i).filter((i) => owner(i) === k) }))), 0);
    let done = 0;
    let inject = workers.map(() => []);
    onProgress(3, total);
    while (done < cycles) {
      const nextExchange = (Math.floor(done / exchangeEvery) + 1) * exchangeEvery;
      const to = Math.min(cycles, done + partialEvery - (done % partialEvery), nextExchange);
      const exchange = to % exchangeEvery === 0;
      const partial = to % partialEvery === 0 && to < cycles ? to : null;
      const replies = await Promise.all(workers.map((wk, k) => {
        const msg = { type: 'step', to, from: done + 1, inject: inject[k], exchange, partial };
        return wk.ask(msg, inject[k].map(([, words]) => words.buffer));
      }));
      const migrants = absorb(replies, done + 1);
      inject = workers.map(() => []);
      if (exchange) {
        // the ring: island i receives the best of island i - 1
        for (let i = 0; i < islands; i++) inject[owner(i)].push([i, migrants[(i + islands - 1) % islands]]);
      }
      done = to;
      onProgress(3 + done, total);
      if (partial !== null) {
        let b = 0;
        for (let i = 1; i < islands; i++) if (best[i].makespan < best[b].makespan) b = i;
        const holder = best[b].partial !== null ? best[b] : best.find((x) => x.partial !== null);
        if (holder) onPartial({ ...JSON.parse(holder.partial), cycle: done, curve: curve.slice(0, done + 1) });
      }
    }
    const replies = await Promise.all(workers.map((wk, k) => wk.ask({ type: 'results', inject: inject[k] }, inject[k].map(([, words]) => words.buffer))));
    const results = replies.flatMap((r) => r.results).sort((a, b) => a[0] - b[0]);
    const packed = new Uint32Array(1 + results.reduce((s, [, words]) => s + 1 + words.length, 0));
    let at = 0;
    packed[at++] = results.length;
    for (const [, words] of results) { packed[at++] = words.length; packed.set(words, at); at += words.length; }
    return moldableFinish(scenario, packed);
  } finally {
    for (const wk of workers) wk.terminate();
    best = [];
  }
}
