// Browser benchmark of admission's promise (not a test; the figures in docs/benchmarks.md,
// "Bounds"): each engine's worst admitted scenario, as `cargo bench --bench bounds` found and
// wrote it (BOUNDS_WORST_DIR=DIR), opened in the page as a user opens a file (Open file…), run
// to its drawn report, and timed: the wall time from choosing the file to the drawn report
// (goal: under 30 s), the run time the page itself shows, and the longest main-thread task while
// it ran (goal: 200 ms). Beside it, the same scenario run natively by `placelab run` (release
// build) in the same run, as the baseline: the ratio page / native.
// Usage: BOUNDS_WORST_DIR=DIR cargo bench --bench bounds && node e2e/bench-bounds.mjs DIR [--runs N]
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildCli, CLI } from './lib/cli.mjs';
import { startServer } from './lib/server.mjs';
import { launch, newPage, waitSettled } from './lib/browser.mjs';
import { observe } from './lib/longtasks.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : dflt; };
const RUNS = opt('--runs', 1);
const DIR = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
if (!DIR || !fs.existsSync(DIR)) {
  console.error('usage: node e2e/bench-bounds.mjs DIR [--runs N]  (DIR from BOUNDS_WORST_DIR=DIR cargo bench --bench bounds)');
  process.exit(2);
}
const ORDER = ['allocation', 'partition', 'place', 'select', 'moldable', 'trace'];
const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'))
  .sort((a, b) => ORDER.indexOf(a.slice(0, -5)) - ORDER.indexOf(b.slice(0, -5)));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const PAGE_GOAL_S = 30;

buildCli();
const server = await startServer();
const browser = await launch();
const rows = [];
try {
  for (const file of files) {
    const text = fs.readFileSync(path.join(DIR, file), 'utf8');
    const engine = file.slice(0, -5);
    const page = [];
    let longest = 0;
    let shown = '';
    for (let r = 0; r < RUNS; r++) {
      const p = await newPage(browser);
      await p.addInitScript(observe);
      await p.goto(server.url);
      await p.waitForFunction(() => window.placelab, null, { timeout: 0 });
      await p.evaluate(() => window.placelab.ready);
      await waitSettled(p, 0);
      const before = await p.evaluate(() => ({ runs: window.placelab.runCount, tasks: window.__longTasks.length }));
      const t0 = Date.now();
      await p.getByTestId('open-file').setInputFiles({ name: file, mimeType: 'application/json', buffer: Buffer.from(text) });
      await p.waitForFunction((n) => window.placelab.runCount > n && !window.placelab.state.running, before.runs, { timeout: 0, polling: 100 });
      const status = await waitSettled(p, 0);
      const wall = (Date.now() - t0) / 1000;
      if (status !== 'done') throw new Error(`${file}: the page ended with ${status}: ${await p.evaluate(() => JSON.stringify(window.placelab.lastError))}`);
      const info = await p.evaluate((k) => ({
        shown: document.querySelector('#run-info').textContent,
        longest: window.__longTasks.slice(k).reduce((a, t) => Math.max(a, t.ms), 0),
      }), before.tasks);
      page.push(wall);
      longest = Math.max(longest, info.longest);
      shown = info.shown;
      console.log(`${engine} run ${r + 1}: ${wall.toFixed(2)} s from the file to the drawn report (${shown}), longest main-thread task ${info.longest} ms`);
      await p.context().close();
    }
    const t0 = performance.now();
    const n = spawnSync(CLI, ['run', path.join(DIR, file)], { maxBuffer: 1 << 30 });
    const native = (performance.now() - t0) / 1000;
    if (n.status !== 0) throw new Error(`${file}: placelab run failed: ${n.stderr}`);
    rows.push({ engine, page: median(page), shown, longest, native });
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`\nworst admitted scenario per engine, in the page (median of ${RUNS}) and natively (placelab run, wall):`);
console.log(`${'engine'.padEnd(11)} ${'page s'.padStart(7)} ${'native s'.padStart(9)} ${'ratio'.padStart(6)} ${'longest task'.padStart(13)}  page shows`);
for (const r of rows) {
  console.log(`${r.engine.padEnd(11)} ${r.page.toFixed(2).padStart(7)} ${r.native.toFixed(2).padStart(9)} ${(r.page / r.native).toFixed(2).padStart(6)} ${`${r.longest} ms`.padStart(13)}  ${r.shown}`);
}
const worst = rows.reduce((a, r) => (r.page > a.page ? r : a), { page: 0 });
console.log(`worst in the page: ${worst.engine} ${worst.page.toFixed(2)} s (goal under ${PAGE_GOAL_S} s: ${worst.page < PAGE_GOAL_S ? 'met' : 'NOT met'})`);
if (worst.page >= PAGE_GOAL_S) process.exitCode = 1;
