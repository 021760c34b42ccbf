// Browser benchmark of the trace engine (not a test; the figures in docs/benchmarks.md): a generated trace of
// about 100,000 events on 8 heterogeneous nodes (the platform of `cargo bench --bench trace`),
// searched by branch and bound in the page's worker and by `placelab run` natively in the same
// run, for the unbalanced LU (4:2:1:1, where the bound prunes) and the balanced block-cyclic LU
// (where it cannot). Plain exhaustive search (40,320 replays of 100,000 events) is over the
// page's admission limit, so its time comes from `cargo bench --bench trace`, natively.
// Then the largest admitted trace scenario (benches/bounds.rs: LU 4:2:1:1 on 16 nodes, order
// 41,666, about 1,056,000 events, budget 1.77e9 replay steps, the largest admission takes since
// it counts the search's nodes) is run through the page (editor,
// Run, drawing) with the main thread's long tasks recorded, against `placelab run` natively.
// Usage: node e2e/bench-trace.mjs [--runs N]   (after scripts/build.sh)
import { spawnSync } from 'node:child_process';
import { waitSettled } from './lib/browser.mjs';
import { CLI, sha256 } from './lib/cli.mjs';
import { workerAndNative, withBenchPage } from './lib/samerun.mjs';
import { typeRawJson } from './lib/harness.mjs';

const args = process.argv.slice(2);
const RUNS = (() => { const i = args.indexOf('--runs'); return i >= 0 ? Number(args[i + 1]) : 1; })();

/** The 8 nodes and 56 links of benches/trace.rs's `platform(8)`. */
function platform(n) {
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const ratio = 1 + Math.floor(i / 2) * 2 * 5 / n + (i % 2 === 1 && i % 4 === 3 ? 0.5 : 0);
    nodes.push({ name: `n${i}`, ratio });
  }
  const links = [];
  for (let u = 0; u < n; u++) {
    for (let v = 0; v < n; v++) {
      if (u === v) continue;
      const rack = Math.floor(u / 4) === Math.floor(v / 4);
      links.push({ from: `n${u}`, to: `n${v}`, a0: rack ? 5e-5 : 1.5e-4, a1: rack ? 4e-8 : ((u + v) % 3 === 0 ? 3.4e-7 : 1.7e-7) });
    }
  }
  return { nodes, links };
}

// Problem sizes giving about 100,000 events with 8 ranks (benches/trace.rs finds them).
const CASES = [
  { name: 'LU 4:2:1:1', program: 'luUneven', size: 7514 },
  { name: 'LU block-cyclic', program: 'luCyclic', size: 4566 },
];

const scenario = (c, n = 8, search = { method: 'branchAndBound' }) => ({
  version: 1, engine: 'trace', name: 'bench', seed: 1, referenceRate: 5e8,
  generate: { program: c.program, size: c.size, ranks: n, width: 5, iterations: 1 },
  ...platform(n), search,
});

/** The largest admitted scenario through the page's editor and Run button, long tasks watched. */
async function largest(page) {
  const text = JSON.stringify(scenario({ program: 'luUneven', size: 41666 }, 16, { method: 'branchAndBound', budget: 1.77e9 }));
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
  });
  await typeRawJson(page, text);
  // a scenario the page refuses (admission) never runs: say why instead of waiting forever
  if (await waitSettled(page, 0) === 'error') throw new Error(JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
  await page.evaluate(() => { window.__longTasks = []; });
  const runs = await page.evaluate(() => window.placelab.runCount);
  const t0 = performance.now();
  await page.getByTestId('run').click();
  await page.waitForFunction((n) => window.placelab.runCount > n && ['done', 'error'].includes(document.body.dataset.status), runs, { timeout: 0 });
  const tw = performance.now() - t0;
  const status = await page.evaluate(() => document.body.dataset.status);
  if (status !== 'done') throw new Error(JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
  const long = await page.evaluate(() => window.__longTasks);
  const report = await page.evaluate(() => window.placelab.lastReport.report);
  const t1 = performance.now();
  const out = spawnSync(CLI, ['run', '-'], { input: text, maxBuffer: 1 << 30 });
  const tn = performance.now() - t1;
  if (out.status !== 0) throw new Error(out.stderr.toString());
  const s = report.search;
  const worst = long.reduce((a, b) => Math.max(a, b), 0);
  console.log(`largest admitted (LU 4:2:1:1, ${report.trace.events} events, 16 nodes, budget 1.77e9): page (Run to drawn) ${(tw / 1000).toFixed(1)} s, native placelab run ${(tn / 1000).toFixed(1)} s (ratio ${(tw / tn).toFixed(2)}x); `
    + `proven ${s.proven}, gap ${(100 * s.gap).toFixed(2)} %; main thread: ${long.length} long tasks, longest ${worst} ms (goal at most 200 ms: ${worst <= 200 ? 'met' : 'NOT met'}); reports ${sha256(out.stdout) === await page.evaluate(() => window.placelab.lastReportSha256) ? 'identical' : 'DIFFER'}`);
}

async function main() {
  await withBenchPage(async (page) => {
    for (const c of CASES) {
      const text = JSON.stringify(scenario(c));
      const r = await workerAndNative(page, text, RUNS);
      const s = r.report.search;
      const [tw, tn] = [r.browserMs, r.nativeMs];
      console.log(`${c.name}, ${r.report.trace.events} events, 8 nodes, branch and bound: browser ${tw.toFixed(0)} ms, native placelab run ${tn.toFixed(0)} ms (same run, median of ${RUNS}): ratio ${(tw / tn).toFixed(2)}x; `
        + `visited ${s.visited}, proven ${s.proven}; goal under 2,000 ms in the browser: ${s.proven && tw < 2000 ? 'met' : 'NOT met'}; reports ${r.identical ? 'identical' : 'DIFFER'}`);
    }
    await largest(page);
  });
}

main().catch((e) => { console.error(e); process.exit(1); });
