// Browser benchmark of the trace engine (not a test; issue 9's figures): a generated trace of
// about 100,000 events on 8 heterogeneous nodes (the platform of `cargo bench --bench trace`),
// searched by branch and bound in the page's worker and by `placelab run` natively in the same
// run, for the unbalanced LU (4:2:1:1, where the bound prunes) and the balanced block-cyclic LU
// (where it cannot). Plain exhaustive search (40,320 replays of 100,000 events) is over the
// page's admission limit, so its time comes from `cargo bench --bench trace`, natively.
// Usage: node e2e/bench-trace.mjs [--runs N]   (after scripts/build.sh)
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startServer, WWW } from './lib/server.mjs';
import { launch, loadedPage } from './lib/browser.mjs';
import { buildCli, CLI, sha256 } from './lib/cli.mjs';

const args = process.argv.slice(2);
const RUNS = (() => { const i = args.indexOf('--runs'); return i >= 0 ? Number(args[i + 1]) : 1; })();
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

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

const scenario = (c) => ({
  version: 1, engine: 'trace', name: 'bench', seed: 1, referenceRate: 5e8,
  generate: { program: c.program, size: c.size, ranks: 8, width: 5, iterations: 1 },
  ...platform(8), search: { method: 'branchAndBound' },
});

async function main() {
  if (!fs.existsSync(path.join(WWW, 'pkg', 'placelab_bg.wasm'))) throw new Error('run scripts/build.sh first');
  buildCli();
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await loadedPage(browser, server.url);
    for (const c of CASES) {
      const text = JSON.stringify(scenario(c));
      const web = [];
      const nat = [];
      let r = null;
      let natSha = null;
      for (let i = 0; i < RUNS; i++) {
        r = await page.evaluate(async (t) => {
          try { const x = await window.placelab.runInWorker(t); return { ms: x.ms, sha: x.sha256, report: x.view.report }; } catch (e) { return { error: e }; }
        }, text);
        if (r.error) throw new Error(`${r.error.path}: ${r.error.message}`);
        web.push(r.ms);
        const t0 = performance.now();
        const out = spawnSync(CLI, ['run', '-'], { input: text, maxBuffer: 1 << 30 });
        nat.push(performance.now() - t0);
        if (out.status !== 0) throw new Error(out.stderr.toString());
        natSha = sha256(out.stdout);
      }
      const s = r.report.search;
      const [tw, tn] = [median(web), median(nat)];
      console.log(`${c.name}, ${r.report.trace.events} events, 8 nodes, branch and bound: browser ${tw.toFixed(0)} ms, native placelab run ${tn.toFixed(0)} ms (same run, median of ${RUNS}): ratio ${(tw / tn).toFixed(2)}x; `
        + `visited ${s.visited}, proven ${s.proven}; goal under 2,000 ms in the browser: ${s.proven && tw < 2000 ? 'met' : 'NOT met'}; reports ${r.sha === natSha ? 'identical' : 'DIFFER'}`);
    }
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
