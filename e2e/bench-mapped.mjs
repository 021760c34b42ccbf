// Browser benchmark of Mapped (ours) on 4,096 tasks (not a test; the figures in
// docs/benchmarks.md): the time of a run with Mapped alone (objective hopBytes: its starts, its
// searches, one simulation of a 1-byte round) against a run with Advanced alone as the same-run
// baseline, in the page's worker and by `placelab run` natively; reports compared by hash.
// Usage: node e2e/bench-mapped.mjs [--runs N]   (after scripts/build.sh)
import { workerAndNative, withBenchPage } from './lib/samerun.mjs';

const args = process.argv.slice(2);
const RUNS = (() => { const i = args.indexOf('--runs'); return i >= 0 ? Number(args[i + 1]) : 1; })();

const CASES = [
  ['torus3d 16x16x16, wrapped CUBE', { kind: 'torus3d', x: 16, y: 16, z: 16 }, 'CUBE'],
  ['torus3d 16x16x16, wrapped GRID 64x64', { kind: 'torus3d', x: 16, y: 16, z: 16 }, 'GRID'],
  ['torus2d 64x64, wrapped GRID', { kind: 'torus2d', x: 64, y: 64 }, 'GRID'],
  ['fat tree 4-ary 6-tree, TREE', { kind: 'fatTree', levels: 6, down: 4 }, 'TREE'],
];

function scenario(system, kind, strategy) {
  return JSON.stringify({
    version: 1, engine: 'place', name: 'bench', seed: 1, system,
    job: { kind, processes: 4096, rounds: 1, messageBytes: 1, wrap: true },
    strategies: [strategy], objective: 'hopBytes', model: 'simgrid-lv08',
  });
}

async function main() {
  await withBenchPage(async (page) => {
    for (const [name, system, kind] of CASES) {
      const adv = await workerAndNative(page, scenario(system, kind, 'advanced'), RUNS);
      const m = await workerAndNative(page, scenario(system, kind, 'mapped'), RUNS);
      const hb = (r) => r.report.cases[0].runs[0].hopBytes;
      console.log(`${name}, 4,096 tasks: Mapped browser ${m.browserMs.toFixed(0)} ms, native ${m.nativeMs.toFixed(0)} ms; `
        + `Advanced browser ${adv.browserMs.toFixed(0)} ms, native ${adv.nativeMs.toFixed(0)} ms (same run, median of ${RUNS}): `
        + `Mapped/Advanced time ${(m.browserMs / adv.browserMs).toFixed(2)}x in the browser; hop-bytes ${hb(m)} vs ${hb(adv)} `
        + `(${(hb(m) / hb(adv)).toFixed(3)}x); reports ${m.identical && adv.identical ? 'identical' : 'DIFFER'}`);
    }
  });
}

main().catch((e) => { console.error(e); process.exit(1); });
