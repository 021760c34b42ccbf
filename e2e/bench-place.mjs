// Browser benchmark of the placement engine on the simulator's slow case (not a test; the figures in
// docs/benchmarks.md): a 16x16x16 torus3d, a 4,096-task wrapped GRID, 1 MB messages, 5 rounds, LV08, the
// five strategies side by side (Random's scattered placement is the slow one), then Random alone,
// in the page's worker and by `placelab run` natively in the same run; reports compared by hash.
// Usage: node e2e/bench-place.mjs [--runs N]   (after scripts/build.sh)
import { workerAndNative, withBenchPage } from './lib/samerun.mjs';

const args = process.argv.slice(2);
const RUNS = (() => { const i = args.indexOf('--runs'); return i >= 0 ? Number(args[i + 1]) : 1; })();

const SCENARIO = {
  version: 1, engine: 'place', name: 'bench', seed: 1,
  system: { kind: 'torus3d', x: 16, y: 16, z: 16 },
  job: { kind: 'GRID', processes: 4096, rounds: 5, messageBytes: 1e6, wrap: true },
  model: 'simgrid-lv08',
};

async function main() {
  await withBenchPage(async (page) => {
    // the five strategies side by side, then Random alone (the simulator's slow case finishing)
    for (const [label, strategies] of [['five strategies', undefined], ['Random alone', ['random']]]) {
      const text = JSON.stringify(strategies ? { ...SCENARIO, strategies } : SCENARIO);
      const r = await workerAndNative(page, text, RUNS);
      const runs = r.report.cases[0].runs.map((x) => `${x.strategy} ${x.time === null || x.time === undefined ? 'not simulated' : `${x.time.toFixed(6)} s`}`);
      const [tw, tn] = [r.browserMs, r.nativeMs];
      console.log(`4,096-node torus3d, wrapped GRID, 1 MB, 5 rounds, ${label}: browser ${tw.toFixed(0)} ms, native placelab run ${tn.toFixed(0)} ms (same run, median of ${RUNS}): ratio ${(tw / tn).toFixed(2)}x; `
        + `${runs.join(', ')}; reports ${r.identical ? 'identical' : 'DIFFER'}`);
    }
  });
}

main().catch((e) => { console.error(e); process.exit(1); });
