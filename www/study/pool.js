// The study's workers: a channel to one study worker (worker.js), and the pool that runs a
// study's points on several of them, a few points per request (as many as take about
// BATCH_TARGET_MS by the points timed so far, so tiny points do not cost a message each). While
// points are short (under PREFETCH_BELOW_MS each) a worker has two requests in flight, so it never
// waits for the page between points; longer points go one request at a time, each to the first
// worker free: a point queued behind a long one on a busy worker would keep the study waiting
// while the other workers idle (12 points of 3 to 38 s on 2 workers: 82.5 s against 73.9 s).
// Points are handed out in the order given (the panel gives the costliest estimated first); their
// records arrive in any order and the page keeps them by point, so the tables never depend on the
// order, the number of workers or timing. Stop = terminate every worker (a point stops mid-run);
// the records that arrived stay.

import { workerChannel } from '../channel.js';

/** Workers the pool uses by default: one per hardware thread, at most MAX_WORKERS. */
export const MAX_WORKERS = 8;
export const defaultWorkers = () => Math.max(1, Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 1));
const BATCH_TARGET_MS = 40;
const MAX_BATCH = 64;
export const PREFETCH_BELOW_MS = 100;

/** A study worker as a request/response channel: ask(msg) → Promise of the reply. */
export const spawnStudyWorker = () => workerChannel(new URL('./worker.js', import.meta.url), {
  name: 'a study worker', hint: '; was the wasm built? Run scripts/build.sh',
});

/**
 * Runs the points `todo` (indices, in the order to hand them out) of `study` (text) on `workers`
 * workers; calls `onRecord({point, line, csv})` as each finishes. Resolves when all finished;
 * rejects with the first error (the other workers are stopped). `stop()` terminates the workers
 * and resolves the run as stopped ({stopped: true}). `spawn` makes a worker's channel (tests give
 * their own).
 */
export function runPoints({ study, todo, workers, onRecord, attachments = [], spawn = spawnStudyWorker }) {
  const channels = Array.from({ length: Math.max(1, Math.min(workers, todo.length || 1)) }, spawn);
  let next = 0;
  let stopped = false;
  let finish;
  const done = new Promise((resolve, reject) => { finish = { resolve, reject }; });
  const end = () => { for (const c of channels) c.terminate(); };

  const pool = {
    done,
    workers: channels.length,
    /** The workers' time spent in points so far (over the wall time: the parallelism reached). */
    busyMs: 0,
    stop() {
      if (stopped) return;
      stopped = true;
      end();
      finish.resolve({ stopped: true });
    },
  };
  let pointMs = null; // the points' mean time so far, as the workers report it
  let timed = 0;
  const batchSize = () => {
    if (pointMs === null) return 1;
    const fair = Math.ceil((todo.length - next) / (2 * channels.length)); // never starve the other workers at the end
    return Math.max(1, Math.min(MAX_BATCH, fair, Math.floor(BATCH_TARGET_MS / Math.max(pointMs, 0.01))));
  };

  // requests a worker keeps in flight: two while points are short, one until the first is timed
  const depth = () => (pointMs !== null && pointMs < PREFETCH_BELOW_MS ? 2 : 1);

  async function feed(c) {
    await c.ask({ type: 'study', study, attachments });
    await new Promise((resolve, reject) => {
      let inFlight = 0;
      const pump = () => {
        while (!stopped && next < todo.length && inFlight < depth()) {
          const is = todo.slice(next, next + batchSize());
          next += is.length;
          inFlight += 1;
          c.ask({ type: 'points', is }).then(({ records, ms }) => {
            inFlight -= 1;
            if (stopped) return resolve();
            pool.busyMs += ms;
            pointMs = ((pointMs ?? 0) * timed + ms) / (timed + records.length);
            timed += records.length;
            for (const rec of records) onRecord(rec);
            return pump();
          }).catch(reject);
        }
        if (inFlight === 0) resolve();
      };
      pump();
    });
  }

  Promise.all(channels.map(feed)).then(
    () => { if (!stopped) { stopped = true; end(); finish.resolve({ stopped: false }); } },
    (error) => { if (!stopped) { stopped = true; end(); finish.reject(error); } },
  );
  return pool;
}
