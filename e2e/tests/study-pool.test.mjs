// The study pool (www/study/pool.js) without a browser: fake workers that answer each request in
// turn with the time the points "took", so the pool's hand-out decisions can be watched. Points
// that take long go one request at a time to each worker (a point queued behind a long one would
// keep the study waiting while another worker idles); short ones two at a time, so a worker never
// waits for the page; every point runs once, handed out in the order given.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runPoints, PREFETCH_BELOW_MS } from '../../www/study/pool.js';

/** Fake workers whose points report `ms` each; each worker answers its requests in turn. */
function fakeWorkers(ms) {
  const log = { handed: [], maxInFlight: [], studies: 0 };
  const spawn = () => {
    const w = log.maxInFlight.length;
    log.maxInFlight.push(0);
    let inFlight = 0;
    let tail = Promise.resolve();
    return {
      ask(msg) {
        if (msg.type === 'study') { log.studies += 1; return Promise.resolve({ type: 'outline' }); }
        assert.equal(msg.type, 'points');
        inFlight += 1;
        log.maxInFlight[w] = Math.max(log.maxInFlight[w], inFlight);
        log.handed.push(...msg.is);
        const reply = tail.then(() => new Promise((resolve) => { setImmediate(resolve); })).then(() => {
          inFlight -= 1;
          return { type: 'records', records: msg.is.map((point) => ({ point, line: `${point}`, csv: '' })), ms: ms * msg.is.length };
        });
        tail = reply;
        return reply;
      },
      terminate() {},
    };
  };
  return { log, spawn };
}

async function run(ms, todo, workers) {
  const { log, spawn } = fakeWorkers(ms);
  const got = [];
  const pool = runPoints({ study: '{}', todo, workers, spawn, onRecord: (r) => got.push(r.point) });
  assert.deepEqual(await pool.done, { stopped: false });
  return { log, got };
}

describe('study pool', () => {
  const todo = [8, 5, 7, 2, 11, 4, 6, 1, 3, 10, 0, 9];

  it('hands long points out one request per worker at a time, in the order given, each once', async () => {
    const { log, got } = await run(PREFETCH_BELOW_MS * 5, todo, 2);
    assert.deepEqual(log.maxInFlight, [1, 1]);
    assert.deepEqual(log.handed, todo);
    assert.deepEqual([...got].sort((a, b) => a - b), [...todo].sort((a, b) => a - b));
    assert.equal(log.studies, 2);
  });

  it('keeps two requests in flight per worker once points are short', async () => {
    const many = Array.from({ length: 200 }, (_, i) => 199 - i);
    const { log, got } = await run(1, many, 2);
    assert.ok(log.maxInFlight.every((m) => m === 2), JSON.stringify(log.maxInFlight));
    assert.deepEqual(log.handed, many);
    assert.equal(new Set(got).size, 200);
    assert.equal(got.length, 200);
  });
});
