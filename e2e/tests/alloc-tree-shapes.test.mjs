// The allocation drawing's tree geometry without a browser (its pure functions, imported from
// www/): on an imported Slurm topology.conf tree (the `slurm-tree-vs-closed-min` example, whose
// report comes from `placelab run`), every switch is drawn over the middle of its nodes, a click
// on it names it, every link has a midpoint, and the routes the page recomputes for each placed
// job have the counts the engine reported (the contention heat map's routes are the engine's).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../lib/server.mjs';
import { buildCli, cli } from '../lib/cli.mjs';
import { layoutFor, routerCenter, hitTest, linkMidpoint } from '../../www/draw/allocation.js';
import { jobFootprint } from '../../www/draw/traffic.js';

describe('allocation drawing of an imported tree', () => {
  buildCli();
  const text = fs.readFileSync(path.join(REPO, 'playground-examples', 'slurm-tree-vs-closed-min.json'), 'utf8');
  const report = JSON.parse(cli(text).stdout.toString()).report;
  const topo = report.topology;

  it('draws each switch over its nodes, names it on a hit, and joins every link', () => {
    for (const width of [390, 1280]) {
      const lay = layoutFor(topo, width);
      topo.switches.forEach((s, u) => {
        const [x, y] = routerCenter(lay, u);
        assert.ok(Math.abs(x - (lay.ox + (s.firstNode + s.nodeCount / 2) * lay.spacing)) < 1e-9, `switch ${s.name}`);
        const hit = hitTest(lay, x, y);
        assert.deepEqual([hit.type, hit.id, hit.name], ['router', u, s.name]);
      });
      for (let l = 0; l < topo.links; l++) assert.ok(linkMidpoint(lay, l).every(Number.isFinite), `link ${l}`);
    }
  });

  it('recomputes every placed job\'s routes with the engine\'s counts', () => {
    let jobs = 0;
    for (const run of report.runs) {
      for (const j of run.jobs) {
        if (!j.placed) continue;
        const f = jobFootprint(topo, { ranges: j.nodeRanges, tasks: j.tasks, routers: j.routers, links: j.links });
        assert.ok(!f.approximate, `${run.policy} job ${j.id}`);
        jobs++;
      }
    }
    assert.ok(jobs >= 30, `${jobs} jobs`);
  });
});
