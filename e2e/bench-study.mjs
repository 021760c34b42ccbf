// Browser benchmark of the Study panel (not a test; the figure in docs/benchmarks.md, "Studies"):
// the same study run by the page on 1 worker and on 2 (alternated, median of N each), the ratio
// being the speedup; the tidy and aggregate tables of every run must be identical (SHA-256).
// The study: the example `mesh64-random-stream` (400 jobs on a 64 x 64 mesh, 3 policies) over
// workload.meanInterarrival = 0.8, 1.6, 3.2, 6.4 with R replicates (default 60: 240 points), built
// in the panel's form as a user would.
// Beside them, `placelab study` of the same study document natively (release build) with
// --threads 1 and 2 in the same run, as the machine's own scaling at that moment; its tidy.csv
// must equal the page's.
// Usage: node e2e/bench-study.mjs [--runs N] [--replicates R] [--workers W]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildCli, CLI } from './lib/cli.mjs';
import { startServer } from './lib/server.mjs';
import { launch, loadedPage, waitSettled } from './lib/browser.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : dflt; };
const RUNS = opt('--runs', 2);
const REPLICATES = opt('--replicates', 60);
const WORKERS = opt('--workers', 2);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const sha = (t) => crypto.createHash('sha256').update(t).digest('hex').slice(0, 16);

const server = await startServer();
const browser = await launch();
try {
  const page = await loadedPage(browser, server.url);
  const before = await page.evaluate(() => window.placelab.runCount);
  await page.selectOption('[data-testid=example-select]', 'mesh64-random-stream.json');
  await page.waitForFunction((n) => window.placelab.runCount > n, before, { timeout: 0 });
  await waitSettled(page, 0);
  await page.evaluate(() => { document.getElementById('study-details').open = true; });
  await page.getByTestId('study-add-axis').click();
  const row = page.getByTestId('study-axis').first();
  await row.getByTestId('study-axis-field').selectOption('workload.meanInterarrival');
  await row.getByTestId('study-axis-mode').selectOption('values');
  await row.getByTestId('study-axis-values').fill('0.8, 1.6, 3.2, 6.4');
  await page.getByTestId('study-replicates').fill(String(REPLICATES));
  await page.getByTestId('study-base-seed').fill('1');
  const threads = await page.evaluate(() => navigator.hardwareConcurrency);
  const times = { 1: [], [WORKERS]: [] };
  const tables = new Set();
  let points = 0;
  for (let i = 0; i < RUNS; i++) {
    for (const workers of [1, WORKERS]) {
      const r = await page.evaluate(async (w) => {
        const run = await window.placelab.study.run({ workers: w });
        if (!run) return { error: document.querySelector('[data-testid=study-error]').textContent };
        const t = await window.placelab.study.tables();
        return { ms: run.ms, done: run.done, workers: run.workers, busy: window.placelab.study.progress.busyMs, tidy: t.tidyCsv, aggregate: t.aggregateCsv };
      }, workers);
      if (r.error) throw new Error(r.error);
      points = r.done;
      times[workers].push(r.ms);
      tables.add(`${sha(r.tidy)} ${sha(r.aggregate)}`);
      // busy: the workers' time inside points over the wall time (2 workers on 2 free cores: about 2)
      console.log(`run ${i + 1}, ${r.workers} worker(s): ${r.done} points in ${(r.ms / 1000).toFixed(2)} s (${(r.done / (r.ms / 1000)).toFixed(1)} points/s, ${(r.busy / r.done).toFixed(0)} ms a point, busy ${(r.busy / r.ms).toFixed(2)})`);
    }
  }
  // natively, the same study document
  buildCli();
  const text = await page.evaluate(() => window.placelab.study.studyText());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placelab-bench-study-'));
  fs.writeFileSync(path.join(dir, 'study.json'), text);
  const native = { 1: [], [WORKERS]: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const threads of [1, WORKERS]) {
      const out = path.join(dir, `out-${i}-${threads}`);
      const t0 = performance.now();
      const r = spawnSync(CLI, ['study', path.join(dir, 'study.json'), '-o', out, '--threads', String(threads)]);
      native[threads].push(performance.now() - t0);
      if (r.status !== 0) throw new Error(r.stderr.toString());
      tables.add(`${sha(fs.readFileSync(path.join(out, 'tidy.csv'), 'utf8'))} ${sha(fs.readFileSync(path.join(out, 'aggregate.csv'), 'utf8'))}`);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const one = median(times[1]), many = median(times[WORKERS]);
  console.log(`\nStudy of ${points} points (mesh64-random-stream x meanInterarrival, ${REPLICATES} replicates), hardware threads ${threads}, median of ${RUNS}:`);
  console.log(`  1 worker ${(one / 1000).toFixed(2)} s, ${WORKERS} workers ${(many / 1000).toFixed(2)} s: ${(one / many).toFixed(2)}x`);
  const n1 = median(native[1]), nw = median(native[WORKERS]);
  console.log(`  natively (placelab study): 1 thread ${(n1 / 1000).toFixed(2)} s, ${WORKERS} threads ${(nw / 1000).toFixed(2)} s: ${(n1 / nw).toFixed(2)}x; the page on 1 worker / native on 1 thread: ${(one / n1).toFixed(2)}`);
  console.log(`  tables identical across runs, worker counts and the CLI: ${tables.size === 1 ? 'yes' : `NO (${[...tables].join(', ')})`}`);
  if (tables.size !== 1) process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
}
