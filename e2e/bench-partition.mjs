// Browser benchmark (not a test) of the partitioning engine against gpmetis, in one run on the
// same graphs: each graph is generated natively (`placelab graph`, seed 1) for gpmetis and by the
// page's engine from the same fields and seed; our multilevel k-way runs in the page's worker
// (its time is the worker's timing of the engine's `kway` phase, so the graph's generation is not
// counted), gpmetis natively (its own "Partitioning" time). Prints both cuts and times and the
// geometric means of the ratios. Installs Debian's metis when gpmetis is missing.
// Usage: node e2e/bench-partition.mjs [--runs N] [--quick]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, WWW } from './lib/server.mjs';
import { launch, newPage, waitSettled } from './lib/browser.mjs';
import { CLI, buildCli } from './lib/cli.mjs';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 3;
const QUICK = args.includes('--quick');
const KS = QUICK ? [8, 64] : [2, 8, 64];

/** [label, generator fields of the scenario, `placelab graph` arguments] */
const GRAPHS = [
  ['grid2d-100x100', { kind: 'grid2d', width: 100, height: 100 }, ['grid2d', '--dims', '100,100']],
  ['delaunay-10000', { kind: 'delaunay', n: 10000 }, ['delaunay', '--n', '10000']],
  ['geometric-10000', { kind: 'geometric', n: 10000 }, ['geometric', '--n', '10000']],
  ['cube3d-22', { kind: 'cube3d', width: 22, height: 22, depth: 22 }, ['cube3d', '--dims', '22,22,22']],
  ...(QUICK ? [] : [
    ['delaunay-100000', { kind: 'delaunay', n: 100000 }, ['delaunay', '--n', '100000']],
    // sparse: k-way re-bisects pairs of parts on its coarse levels (k >= 3)
    ['tree-100000', { kind: 'binaryTree', n: 100000 }, ['tree', '--n', '100000']],
  ]),
];

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

function ensureGpmetis() {
  if (spawnSync('sh', ['-c', 'command -v gpmetis']).status === 0) return;
  console.log('installing Debian metis (gpmetis) ...');
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  execFileSync(sudo.length ? 'sudo' : 'apt-get', [...(sudo.length ? ['apt-get'] : []), 'install', '-y', '--no-install-recommends', 'metis'], { stdio: 'inherit' });
}

function gpmetis(file, k) {
  const r = spawnSync('gpmetis', ['-ufactor=30', file, String(k)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gpmetis failed: ${r.stdout}${r.stderr}`);
  const cut = Number(/Edgecut:\s*(\d+)/.exec(r.stdout)[1]);
  const secs = Number(/Partitioning:\s*([\d.]+)/.exec(r.stdout)[1]);
  return { cut, ms: secs * 1000 };
}

async function ours(page, fields, k) {
  const scenario = JSON.stringify({ version: 1, engine: 'partition', name: 'bench', seed: 1, graph: fields, k, ufactor: 30, methods: ['kway'] });
  const result = await page.evaluate(async (text) => {
    try { return await window.placelab.runInWorker(text); } catch (e) { return { error: e }; }
  }, scenario);
  if (result.error) throw new Error(`${result.error.path}: ${result.error.message}`);
  const phase = result.view.phases.find((p) => p.name === 'kway');
  return { cut: result.view.report.runs[0].edgeCut, ms: phase.ms };
}

async function main() {
  if (!fs.existsSync(path.join(WWW, 'pkg', 'placelab_bg.wasm'))) throw new Error('www/pkg is missing: run scripts/build.sh first');
  ensureGpmetis();
  buildCli();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placelab-bench-'));
  const server = await startServer();
  const browser = await launch();
  const cutRatios = [];
  const timeRatios = [];
  try {
    const page = await newPage(browser);
    await page.goto(server.url);
    await waitSettled(page, 60000);
    console.log(`${'graph'.padEnd(18)} ${'k'.padStart(3)} ${'ours'.padStart(7)} ${'gpmetis'.padStart(7)} ${'cut ratio'.padStart(9)} ${'ours ms (wasm)'.padStart(14)} ${'gpmetis ms'.padStart(10)} ${'time ratio'.padStart(10)}`);
    for (const [label, fields, genArgs] of GRAPHS) {
      const file = path.join(dir, `${label}.graph`);
      execFileSync(CLI, ['graph', ...genArgs, '--seed', '1', '-o', file], { stdio: 'ignore' });
      for (const k of KS) {
        const o = []; const g = [];
        for (let i = 0; i < RUNS; i++) { o.push(await ours(page, fields, k)); g.push(gpmetis(file, k)); }
        const oc = o[0].cut; const gc = g[0].cut;
        const om = median(o.map((x) => x.ms)); const gm = median(g.map((x) => x.ms));
        cutRatios.push(oc / Math.max(gc, 1));
        timeRatios.push(om / Math.max(gm, 0.01));
        console.log(`${label.padEnd(18)} ${String(k).padStart(3)} ${String(oc).padStart(7)} ${String(gc).padStart(7)} ${(oc / Math.max(gc, 1)).toFixed(3).padStart(9)} ${om.toFixed(1).padStart(14)} ${gm.toFixed(1).padStart(10)} ${(om / Math.max(gm, 0.01)).toFixed(2).padStart(10)}`);
      }
    }
    console.log(`\nbrowser (wasm in Chromium) vs gpmetis (native), same graphs, same run, median of ${RUNS}:`);
    console.log(`  edge cut ratio, geometric mean: ${geomean(cutRatios).toFixed(3)}`);
    console.log(`  time ratio, geometric mean: ${geomean(timeRatios).toFixed(2)}x (goal <= 3x)`);
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(`bench failed: ${e.message}`); process.exit(1); });
