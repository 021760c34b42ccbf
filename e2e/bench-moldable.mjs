// Browser benchmark of the moldable engine (not a test; the figures in docs/benchmarks.md), each with a baseline
// measured in the same run:
// 1. The source's scale, n = 1024, m = 1000, K = 16, V = 1000, w = 75 %: the GA (shelf decoder)
//    in the page's worker, its makespan improvement over FFDH/BFDH (the source: 45 % on average)
//    and its time against FFDH alone in the same worker.
// 2. A guillotine set of known optimum H (n = 1024, m = 1000, H = 1000): makespan / H of FFDH, BFDH
//    and the GA with the shelf and the list decoder, and the list GA's time (goal: within 10 % of
//    H in under 30 s).
// 3. The parallel GA: the same islands (n = 1024, m = 1000, shelf decoder, I islands exchanging
//    every 50 cycles) with `ga.workers` 1 and W = min(I, hardware threads, 8), alternated in the
//    same run (median of N each); the reports must be identical (SHA-256), the ratio is the
//    speedup. Beside them `placelab run` of the same scenario natively (one thread).
// 4. Figures 1 and 2 at the source's other corners (n = 1024, 65,536 x m = 1,000, 3,000; `--quick`
//    skips them).
// Usage: node e2e/bench-moldable.mjs [--runs N] [--cycles V] [--islands I] [--parallel-only] [--quick]
import fs from 'node:fs';
import path from 'node:path';
import { startServer, WWW } from './lib/server.mjs';
import { launch, loadedPage } from './lib/browser.mjs';
import { buildCli, CLI, sha256 } from './lib/cli.mjs';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : dflt; };
const RUNS = opt('--runs', 1);
const CYCLES = opt('--cycles', 1000);
const ISLANDS = opt('--islands', 4);
const PARALLEL_ONLY = args.includes('--parallel-only');
// the source's scale in the page: n = 1024 and 65,536 machines, m = 1,000 and 3,000 jobs (`--quick`: the first only)
const SCALE = args.includes('--quick') ? [[1024, 1000]] : [[1024, 1000], [1024, 3000], [65536, 1000], [65536, 3000]];
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const fmt = (x, d = 1) => x.toFixed(d);

const scenario = (generate, ga, methods, machines = 1024) => ({ version: 1, engine: 'moldable', name: 'bench', seed: 1, machines,
  ...(generate.kind === 'random' ? { efficiency: 0.75 } : {}), methods, ga: { cycles: CYCLES, ...ga }, generate });

async function timeWorker(page, s) {
  const ms = [];
  let report = null;
  for (let i = 0; i < RUNS; i++) {
    const r = await page.evaluate(async (text) => {
      try { const x = await window.placelab.runInWorker(text); return { ms: x.ms, report: x.view.report }; } catch (e) { return { error: e }; }
    }, JSON.stringify(s));
    if (r.error) throw new Error(`${r.error.path}: ${r.error.message}`);
    ms.push(r.ms); report = r.report;
  }
  return { ms: median(ms), report };
}

const makespan = (report, method) => report.methods.find((m) => m.method === method).makespan;

/** The parallel GA against one worker and natively, alternated in the same run. */
async function parallel(page) {
  const threads = await page.evaluate(() => navigator.hardwareConcurrency);
  const w = Math.min(ISLANDS, threads, 8);
  const s = (workers) => scenario({ kind: 'random', jobs: 1000, maxVariants: 3 },
    { decoder: 'shelf', islands: ISLANDS, exchangeEvery: 50, workers }, ['ffdh', 'bfdh', 'ga']);
  const times = { 1: [], [w]: [] };
  const shas = new Set();
  for (let i = 0; i < RUNS; i++) {
    for (const workers of [1, w]) {
      const r = await page.evaluate(async (text) => {
        try { const x = await window.placelab.runInWorker(text); return { ms: x.ms, sha: x.sha256 }; } catch (e) { return { error: e }; }
      }, JSON.stringify(s(workers)));
      if (r.error) throw new Error(`${r.error.path}: ${r.error.message}`);
      times[workers].push(r.ms);
      shas.add(r.sha);
    }
  }
  buildCli();
  const native = [];
  let nativeSha = null;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const out = spawnSync(CLI, ['run', '-'], { input: JSON.stringify(s(w)), maxBuffer: 1 << 30 });
    native.push(performance.now() - t0);
    if (out.status !== 0) throw new Error(out.stderr.toString());
    nativeSha = sha256(out.stdout);
  }
  shas.add(nativeSha);
  const [t1, tw, tn] = [median(times[1]), median(times[w]), median(native)];
  console.log(`parallel GA, n = 1024, m = 1000, K = 16, V = ${CYCLES}, ${ISLANDS} islands exchanging every 50 cycles (${threads} hardware threads, median of ${RUNS}):`);
  console.log(`  1 worker ${fmt(t1)} ms, ${w} workers ${fmt(tw)} ms: speedup ${fmt(t1 / tw, 2)}x; native placelab run (one thread) ${fmt(tn)} ms`);
  console.log(`  reports ${shas.size === 1 ? 'identical (one SHA-256 for 1 worker, W workers and native)' : `DIFFER: ${[...shas].join(' ')}`}`);
  if (shas.size !== 1) throw new Error('the parallel GA changed the report');
}

async function main() {
  if (!fs.existsSync(path.join(WWW, 'pkg', 'placelab_bg.wasm'))) throw new Error('run scripts/build.sh first');
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await loadedPage(browser, server.url);

    await parallel(page);
    if (PARALLEL_ONLY) return;
    const random = { kind: 'random', jobs: 1000, maxVariants: 3 };
    const ff = await timeWorker(page, scenario(random, {}, ['ffdh', 'bfdh']));
    const ga = await timeWorker(page, scenario(random, { decoder: 'shelf' }, ['ffdh', 'bfdh', 'ga']));
    const g = ga.report.ga;
    console.log(`n = 1024, m = 1000, K = 16, V = ${CYCLES}, shelf GA: ${fmt(ga.ms)} ms in the worker; FFDH+BFDH alone ${fmt(ff.ms)} ms (same run); ratio ${fmt(ga.ms / ff.ms, 0)}x`);
    console.log(`  T_FFDH ${g.ffdh}, T_BFDH ${g.bfdh}, T_GA ${makespan(ga.report, 'ga')}: delta1 ${fmt(g.delta1 * 100)} %, delta2 ${fmt(g.delta2 * 100)} % (source: 45 % on average)`);

    for (const [n, m] of SCALE) {
      if (n !== 1024 || m !== 1000) {
        const r = { kind: 'random', jobs: m, maxVariants: 3 };
        const base = await timeWorker(page, scenario(r, {}, ['ffdh', 'bfdh'], n));
        const run = await timeWorker(page, scenario(r, { decoder: 'shelf' }, ['ffdh', 'bfdh', 'ga'], n));
        const x = run.report.ga;
        console.log(`n = ${n}, m = ${m}, shelf GA: ${fmt(run.ms)} ms in the worker; FFDH+BFDH alone ${fmt(base.ms)} ms (same run); `
          + `delta1 ${fmt(x.delta1 * 100)} %, delta2 ${fmt(x.delta2 * 100)} % (source: 45 % on average)`);
      }
      const cut = { kind: 'guillotine', jobs: m, maxVariants: 3, height: 1000 };
      const shelf = await timeWorker(page, scenario(cut, { decoder: 'shelf' }, ['ffdh', 'bfdh', 'ga'], n));
      const h = 1000;
      const head = `guillotine n = ${n}, m = ${m}, H = ${h}: FFDH ${fmt(makespan(shelf.report, 'ffdh') / h, 3)} H, BFDH ${fmt(makespan(shelf.report, 'bfdh') / h, 3)} H, `
        + `shelf GA ${fmt(makespan(shelf.report, 'ga') / h, 3)} H in ${fmt(shelf.ms)} ms, `;
      let list;
      try {
        list = await timeWorker(page, scenario(cut, { decoder: 'list' }, ['ga'], n));
      } catch (e) {
        // the page's admission limit, not a failure of the benchmark: say so and go on
        if (!/refused before running/.test(e.message)) throw e;
        console.log(`${head}list GA refused in the page (${e.message.replace(/^\$: refused before running: /, '')})`);
        continue;
      }
      console.log(`${head}list GA ${fmt(makespan(list.report, 'ga') / h, 3)} H in ${fmt(list.ms)} ms `
        + `(goal: within 1.10 H under 30,000 ms: ${makespan(list.report, 'ga') <= 1.1 * h && list.ms < 30000 ? 'met' : 'NOT met'})`);
    }
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
