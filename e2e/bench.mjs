// Browser benchmark (not a test): decisions per second of the allocation engine in the worker,
// the naive-rescan baseline in the same run, time from navigation to the first drawn example,
// and the gzipped size of the shipped wasm.
// Usage: node e2e/bench.mjs [--runs N] [--loads N] [--naive-runs N] [--naive-count JOBS]
// The naive baseline rescans every cell, so by default it runs on the stream's first 300 jobs,
// and the bitset search runs on the same 300 jobs for the ratio (--naive-count 10000: whole stream).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer, REPO, WWW } from './lib/server.mjs';
import { launch, newPage, waitSettled } from './lib/browser.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : dflt; };
const RUNS = opt('--runs', 3);
const LOADS = opt('--loads', 3);
const SCENARIO_FILE = path.join(REPO, 'benches', 'scenarios', 'stream-10k-256.json');

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const fmt = (x, d = 0) => x.toFixed(d);

async function runScenario(page, scenario) {
  const result = await page.evaluate(async (text) => {
    try { return await window.placelab.runInWorker(text); } catch (e) { return { error: e }; }
  }, JSON.stringify(scenario));
  if (result.error) throw new Error(`${result.error.path}: ${result.error.message}`);
  const { summary } = result.view.report.runs[0];
  return { ms: result.ms, decisions: summary.decisions, placed: summary.placed };
}

async function main() {
  const wasm = path.join(WWW, 'pkg', 'placelab_bg.wasm');
  if (!fs.existsSync(wasm)) throw new Error('www/pkg/placelab_bg.wasm is missing: run scripts/build.sh first');
  const raw = fs.readFileSync(wasm);
  const gz = zlib.gzipSync(raw, { level: 9 });
  console.log(`wasm size: ${raw.length} bytes raw, ${gz.length} bytes gzipped (level 9)`);

  const server = await startServer();
  const browser = await launch();
  try {
    // Navigation to first drawn example: performance.now() at the first drawing (0 = navigation start).
    const loads = [];
    for (let i = 0; i < LOADS; i++) {
      const page = await newPage(browser);
      await page.goto(server.url);
      await page.waitForFunction(() => window.placelab?.state.firstDrawnMs !== null, null, { timeout: 60000 });
      loads.push(await page.evaluate(() => window.placelab.state.firstDrawnMs));
      await page.close();
    }
    console.log(`navigation to first drawn example: ${loads.map((x) => fmt(x)).join(', ')} ms (median ${fmt(median(loads))} ms; first load includes compiling the wasm)`);

    const page = await newPage(browser);
    await page.goto(server.url);
    await waitSettled(page, 60000);
    const scenario = JSON.parse(fs.readFileSync(SCENARIO_FILE, 'utf8'));
    const policy = scenario.policies[0];
    console.log(`scenario: ${path.relative(REPO, SCENARIO_FILE)} (${scenario.workload.count} jobs, ${scenario.system.width}x${scenario.system.height} mesh, ${policy})`);
    const rates = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await runScenario(page, scenario);
      const rate = r.decisions / (r.ms / 1000);
      rates.push(rate);
      console.log(`${policy} run ${i + 1}: ${fmt(r.ms)} ms, ${r.decisions} decisions, ${r.placed} placed, ${fmt(rate)} decisions/s`);
    }
    console.log(`${policy}: median ${fmt(median(rates))} decisions/s over ${RUNS} runs`);

    const engines = await page.evaluate(() => window.placelab.state.engines);
    const policyParam = engines.find((e) => e.id === 'allocation')?.params.find((p) => p.path === 'policies');
    if (policyParam?.options?.some((o) => o.value === 'closed-min-naive')) {
      const count = opt('--naive-count', 300);
      const prefix = (p) => ({ ...scenario, name: `${scenario.name} (${p}, first ${count} jobs)`, policies: [p], workload: { ...scenario.workload, count } });
      const naiveRates = [];
      const bestRates = [];
      for (let i = 0; i < opt('--naive-runs', 1); i++) {
        const b = await runScenario(page, prefix(policy));
        const r = await runScenario(page, prefix('closed-min-naive'));
        if (b.decisions !== r.decisions) throw new Error('the naive rescan made other decisions');
        bestRates.push(b.decisions / (b.ms / 1000));
        naiveRates.push(r.decisions / (r.ms / 1000));
        console.log(`first ${count} jobs, run ${i + 1}: ${policy} ${fmt(b.ms, 1)} ms, closed-min-naive ${fmt(r.ms)} ms, ${r.decisions} decisions each`);
      }
      console.log(`first ${count} jobs: ${policy} ${fmt(median(bestRates))} decisions/s, closed-min-naive ${fmt(median(naiveRates))} decisions/s`);
      console.log(`speedup of ${policy} over closed-min-naive (same ${count} jobs, same run): ${fmt(median(bestRates) / median(naiveRates), 1)}x`);
    } else {
      console.log('closed-min-naive: not offered by this build, no speedup measured');
    }
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => { console.error(`bench failed: ${e.message}`); process.exit(1); });
