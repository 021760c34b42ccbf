// Browser benchmark of the selection engine (not a test; the figures in docs/benchmarks.md), each with a baseline
// measured in the same run, printed as a ratio:
// 1. T(P) over 10,000 stations with the user's formulas: the engine's time in the worker, and a
//    keystroke in the To field until the page has drawn the new curve (goal: under 50 ms, so the
//    curve follows each keystroke): the live preview (every P evaluated, the curve thinned to the
//    points the chart shows; the complete report follows when typing pauses); baseline: the same
//    with 100 stations (nothing to thin), and the complete run of the 10,000 stations.
// 2. Subsystem selection N = 64, M = 12 (8 x 8 torus, the example), exact branch and bound: time
//    and whether it proved its optimum (goal: under 2 s); baseline: the 20-machine rack example.
// 3. The reservation protocol, 1,000 stations and 50 initiators; baseline 100 stations and 5.
// Usage: node e2e/bench-select.mjs [--runs N] [--keys N]
import fs from 'node:fs';
import path from 'node:path';
import { startServer, REPO, WWW } from './lib/server.mjs';
import { launch, waitSettled, loadedPage } from './lib/browser.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : dflt; };
const RUNS = opt('--runs', 5);
const KEYS = opt('--keys', 8);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const fmt = (x, d = 1) => x.toFixed(d);

/** A seeded linear congruential generator in [0, 1) (the benchmark's inputs only). */
function lcg(seed) {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

/** Q stations with loads in [0, 0.9), a custom wave-equation-like model. */
export function stationsScenario(q) {
  const r = lcg(42);
  return {
    version: 1, engine: 'select', name: `T(P) over ${q} stations`, seed: 1,
    stations: Array.from({ length: q }, (_, i) => ({ name: `W${i + 1}`, load: Math.round(r() * 900) / 1000 })),
    model: {
      preset: 'custom', N: 1e7, nstep: 1000,
      ts: 'P * (alpha + 8 * beta * N / P)', tc: '2 * nstep * (alpha + 8 * beta) * min(P - 1, 1)',
      tr: 'P * (alpha + 8 * beta * N / P)', to: 'nstep * (N / P) * (3 * t_mult + 4 * t_add)',
    },
  };
}

export function protocolScenario(stations, initiators) {
  const r = lcg(2024);
  return {
    version: 1, engine: 'select', name: `protocol ${stations} x ${initiators}`, seed: 1,
    reservation: {
      stations, loads: Array.from({ length: stations }, () => Math.round(r() * 1000) / 1000),
      initiators: Array.from({ length: initiators }, () => ({
        start: Math.floor(r() * 2000), wants: Math.floor((5 + Math.floor(r() * 36)) * stations / 1000) + 1, threshold: 0.8, holdFor: 200 + Math.floor(r() * 800),
      })),
      delay: { min: 1, max: 20 }, loss: 0.01, maxEvents: 5000, maxTime: 50000, fixes: { orderedClaims: true, leaseTimeout: 200 },
    },
  };
}

async function inWorker(page, scenario) {
  const result = await page.evaluate(async (text) => {
    try { const r = await window.placelab.runInWorker(text); return { ms: r.ms, report: r.view.report }; } catch (e) { return { error: e }; }
  }, JSON.stringify(scenario));
  if (result.error) throw new Error(`${result.error.path}: ${result.error.message}`);
  return result;
}

async function timeWorker(page, scenario, runs = RUNS) {
  const ms = [];
  let report = null;
  for (let i = 0; i < runs; i++) { const r = await inWorker(page, scenario); ms.push(r.ms); report = r.report; }
  return { ms: median(ms), all: ms, report };
}

/** Loads `scenario` into the editor, then types KEYS digits into the To formula; ms per keystroke until drawn. */
async function keystrokes(page, scenario) {
  await page.evaluate((t) => {
    const raw = document.querySelector('[data-testid=raw-json]');
    raw.value = t;
    raw.dispatchEvent(new Event('input', { bubbles: true }));
  }, JSON.stringify(scenario));
  await page.waitForTimeout(400);
  await page.getByTestId('run').click();
  await waitSettled(page, 120000);
  const to = page.getByTestId('param-model.to');
  await to.fill(`${scenario.model.to} + 1`);
  await page.waitForFunction(() => document.body.dataset.status === 'done' && !window.placelab.state.running, null, { timeout: 120000 });
  const out = [];
  for (let k = 0; k < KEYS; k++) {
    out.push(await page.evaluate((digit) => new Promise((resolve) => {
      const input = document.querySelector('[data-testid="param-model.to"]');
      const n = window.placelab.runCount;
      const t0 = performance.now();
      input.value += digit;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      // the page sets data-status to done once the curve and the tables are shown
      const seen = new MutationObserver(() => {
        // drawn: the live preview (status live) or, when the engine had nothing to thin, the complete report
        if (window.placelab.runCount > n && ['live', 'done'].includes(document.body.dataset.status)) { seen.disconnect(); resolve(performance.now() - t0); }
      });
      seen.observe(document.body, { attributes: true, attributeFilter: ['data-status'] });
    }), String(k % 10)));
  }
  return median(out);
}

async function main() {
  if (!fs.existsSync(path.join(WWW, 'pkg', 'placelab_bg.wasm'))) throw new Error('run scripts/build.sh first');
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await loadedPage(browser, server.url);

    const big = await timeWorker(page, stationsScenario(10000));
    const small = await timeWorker(page, stationsScenario(100));
    console.log(`T(P) over 10,000 stations, in the worker: ${fmt(big.ms)} ms (median of ${RUNS}: ${big.all.map((x) => fmt(x)).join(', ')}); baseline 100 stations ${fmt(small.ms, 2)} ms; ratio ${fmt(big.ms / small.ms)}x for 100x the stations; chosen P = ${big.report.workstations.best?.p}`);
    const kBig = await keystrokes(page, stationsScenario(10000));
    const kSmall = await keystrokes(page, stationsScenario(100));
    console.log(`keystroke in the To formula until the new curve is drawn: 10,000 stations ${fmt(kBig)} ms (goal < 50 ms: ${kBig < 50 ? 'met' : 'NOT met'}); baseline 100 stations ${fmt(kSmall)} ms; ratio ${fmt(kBig / kSmall, 2)}x`);

    const example = (f) => JSON.parse(fs.readFileSync(path.join(REPO, 'playground-examples', f), 'utf8'));
    const torus = await timeWorker(page, example('select-subsystem-torus64.json'), 3);
    const racks = await timeWorker(page, example('select-subsystem-racks.json'), 3);
    const s = torus.report.subsystem;
    console.log(`subsystem N = 64, M = 12 exact (8x8 torus): ${fmt(torus.ms)} ms (goal < 2000 ms: ${torus.ms < 2000 ? 'met' : 'NOT met'}), proven ${s.exact?.proven}, ${s.exact?.work} nodes, heuristic gap ${s.gapPercent}%; baseline N = 20, M = 5: ${fmt(racks.ms, 2)} ms; ratio ${fmt(torus.ms / racks.ms)}x`);

    const pBig = await timeWorker(page, protocolScenario(1000, 50), 3);
    const pSmall = await timeWorker(page, protocolScenario(100, 5), 3);
    const stepsBig = pBig.report.reservation.counts.steps, stepsSmall = pSmall.report.reservation.counts.steps;
    const done = pBig.report.reservation.outcomes.filter((o) => o.status === 'done').length;
    console.log(`reservation protocol 1,000 stations x 50 initiators (ordered claims, leases, 1% loss): ${fmt(pBig.ms)} ms, ${stepsBig} events (${fmt(stepsBig / pBig.ms / 1000, 2)} M events/s), ${done}/50 done, double allocation ${pBig.report.reservation.checks.doubleAllocation}; baseline 100 x 5: ${fmt(pSmall.ms, 2)} ms, ${stepsSmall} events (${fmt(stepsSmall / pSmall.ms / 1000, 2)} M events/s); time ratio ${fmt(pBig.ms / pSmall.ms)}x for ${fmt(stepsBig / stepsSmall)}x the events`);
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

if (process.argv[1]?.endsWith("bench-select.mjs")) main().catch((e) => { console.error(e); process.exit(1); });
