// The placement engine's page: the "Zhdanov & Korkhov, experiment 1" example shows one
// panel per strategy with the nodes coloured by task position, the ratio table beside the
// source's figures and the bar chart; the full 4,096-node example runs and draws without a long
// main-thread task; the launcher files of the case shown equal `placelab hostfile`'s, its SimGrid
// platform and deployment `placelab netsim`'s; a METIS task
// graph opened from a file becomes the job and runs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { REPO } from '../lib/server.mjs';
import { useBrowser, pickExample, waitSettled, artifact, typeRawJson } from '../lib/harness.mjs';
import { readyPage, observedPage, assertNoLongTask, GOAL_MS } from '../lib/longtasks.mjs';
import { execFileSync } from 'node:child_process';
import { CLI, buildCli, cli, link } from '../lib/cli.mjs';

const env = useBrowser();

/** Pixels of a canvas that are neither white nor grey (coloured by a task, an edge or a link). */
function colouredPixels(page, selector) {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let k = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, g, b] = [d[i], d[i + 1], d[i + 2]];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 40) k++;
    }
    return k;
  }, selector);
}

/** The report's fingerprint as `api::fingerprint` computes it (FNV-1a 64 of the bytes, and the length). */
function fingerprint(text) {
  const bytes = new TextEncoder().encode(text);
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return `${h.toString(16).padStart(16, '0')} ${bytes.length}`;
}

describe('place page', () => {
  it('every placement example gives in the browser the report pinned natively', async () => {
    const page = await readyPage(env);
    const files = (await fs.readdir(path.join(REPO, 'playground-examples'))).filter((f) => f.startsWith('place-')).sort();
    assert.ok(files.length >= 5);
    for (const f of files) {
      await pickExample(page, f);
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', `${f}: ${JSON.stringify(await page.evaluate(() => window.placelab.lastError))}`);
      const text = await page.evaluate(() => window.placelab.reportText());
      const want = (await fs.readFile(path.join(REPO, 'tests/golden', `${f}.fingerprint`), 'utf8')).trim();
      assert.equal(fingerprint(text), want, `${f}: the browser's report differs from the native one`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('networks seen through their routes are drawn by their groups: a 5D torus, a dragonfly, a platform file', async () => {
    const page = await readyPage(env);
    for (const [f, line] of [['place-torus5d-bgq.json', /torus 4 x 4 x 4 x 4 x 2: 512 hosts/],
      ['place-dragonfly.json', /dragonfly SimGrid DRAGONFLY 5,2;4,2;6,1;4 \(groups of 96 nodes\): 480 hosts/],
      ['place-simgrid-two-clusters.json', /simgrid platform file, 2 groups of 32 hosts: 64 hosts, \d+ links of the file's own bandwidths/]]) {
      await pickExample(page, f);
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', f);
      assert.match(await page.getByTestId('place-info').textContent(), line);
      // every strategy drew its panel, the placed ones with a caption of their time
      const captions = await page.getByTestId('place-caption').allTextContents();
      assert.ok(captions.length >= 5, `${f}: ${captions.length} panels`);
      assert.ok(captions.filter((c) => /^time /.test(c)).length >= 4, `${f}: ${captions.join(' | ')}`);
      await page.screenshot({ path: artifact(f.replace('.json', '.png')), fullPage: true });
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('experiment 1: strategies side by side, ratios beside the source, bar chart', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'place-zk-exp1-torus3d.json');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const report = await page.evaluate(() => window.placelab.lastReport.report);
    assert.equal(await page.getByTestId('place-caption').count(), 5);
    // the ratio table: one row per job kind, ours / the source's in each strategy's cell
    const cells = await page.evaluate(() => [...document.querySelectorAll('[data-testid=ratio-table] td[data-strategy]')]
      .map((td) => ({ s: td.dataset.strategy, ratio: td.dataset.ratio, source: td.dataset.source })));
    assert.equal(cells.length, report.averages.length * report.strategies.length);
    const grid = report.averages.findIndex((a) => a.kind === 'GRID');
    const simpleCell = cells[grid * report.strategies.length + report.strategies.indexOf('simple')];
    assert.equal(simpleCell.source, '2.148', 'the source\'s torus3d GRID Simple figure');
    assert.equal(Number(simpleCell.ratio), report.averages[grid].ratios[report.strategies.indexOf('simple')]);
    // panels and chart are drawn in colour
    for (const sel of ['[data-testid=canvas][data-strategy=advanced]', '[data-testid=canvas][data-strategy=random]', '[data-testid=ratio-chart]']) {
      const k = await colouredPixels(page, sel);
      assert.ok(k > 200, `${sel}: only ${k} coloured pixels`);
    }
    assert.ok((await page.getByTestId('place-differences').count()) >= 1, 'the page says where our figures differ');
    // another case redraws the panels
    const before = await page.evaluate(() => document.querySelector('[data-testid=canvas]').toDataURL());
    await page.getByTestId('place-case').selectOption('3');
    await page.waitForFunction((b) => document.querySelector('[data-testid=canvas]').toDataURL() !== b, before, { timeout: 0 });
    await page.screenshot({ path: artifact('place-exp1.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('the full 4,096-node torus runs and draws without a long main-thread task', async () => {
    const page = await readyPage(env);
    const t0 = Date.now();
    await pickExample(page, 'place-full-4096.json');
    const ms = Date.now() - t0;
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    console.log(`# full 4,096-node example: run and draw ${ms} ms`);
    // big machines are drawn one panel per frame: wait for the whole pass
    await page.waitForFunction(() => Number(document.querySelector('[data-drawn]')?.dataset.drawn) >= 1, null, { timeout: 0 });
    const k = await colouredPixels(page, '[data-testid=canvas][data-strategy=advanced]');
    assert.ok(k > 1000, `advanced panel: only ${k} coloured pixels`);
    // the CUBE case: Identity lays the cube on the machine's own shape
    const drawnBefore = await page.evaluate(() => Number(document.querySelector('[data-drawn]').dataset.drawn));
    await page.evaluate(() => window.placelab.view.setCase(1));
    await page.waitForFunction((n) => Number(document.querySelector('[data-drawn]').dataset.drawn) > n, drawnBefore, { timeout: 0 });
    const id = await colouredPixels(page, '[data-testid=canvas][data-strategy=identity]');
    assert.ok(id > 1000, `identity panel: only ${id} coloured pixels`);
    const tasks = await page.evaluate(() => window.__longTasks);
    const worst = tasks.reduce((a, t) => (t.ms > a.ms ? t : a), { ms: 0 });
    console.log(`# 4,096 nodes: ${tasks.length} long tasks, longest ${worst.ms} ms`);
    assert.ok(worst.ms <= GOAL_MS, `main thread blocked ${worst.ms} ms`);
    await page.screenshot({ path: artifact('place-4096.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('batched ends: Random on the 64x64 torus with 1 MB messages finishes, and the page says the ends were batched', async () => {
    const page = await readyPage(env);
    const t0 = Date.now();
    await pickExample(page, 'place-random-4096-batched-ends.json');
    console.log(`# Random, 4,096 tasks, 1 MB, batched ends: run and draw ${Date.now() - t0} ms`);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    assert.match(await page.getByTestId('place-info').textContent(), /ends batched: a message with at most 2 % of its bytes left/);
    await page.waitForFunction(() => document.querySelector('[data-testid=place-caption][data-strategy=random]')?.textContent.includes('ends batched'), null, { timeout: 0 });
    const caption = await page.locator('[data-testid=place-caption][data-strategy=random]').textContent();
    assert.match(caption, /^time [0-9.]+ s · ratio [0-9.]+.* · [0-9,]+ ends batched/, caption);
    await page.screenshot({ path: artifact('place-random-batched-ends.png'), fullPage: true });
    const tasks = await page.evaluate(() => window.__longTasks);
    const worst = tasks.reduce((a, t) => (t.ms > a.ms ? t : a), { ms: 0 });
    assert.ok(worst.ms <= GOAL_MS, `main thread blocked ${worst.ms} ms`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('the largest Mapped run the limits admit (4,096 nodes, 1 MB, every strategy) finishes with no long main-thread task', async () => {
    const text = JSON.stringify({
      version: 1, engine: 'place', name: 'largest admitted Mapped run', seed: 1,
      system: { kind: 'torus3d', x: 16, y: 16, z: 16 },
      job: { kind: 'GRID', processes: 4096, rounds: 50, messageBytes: 1048576, wrap: true },
      strategies: ['simple', 'random', 'optimal', 'advanced', 'identity', 'mapped'], model: 'simgrid-lv08',
    });
    const t0 = Date.now();
    const page = await observedPage(env, link(text));
    await page.waitForFunction(() => window.placelab && ['done', 'error'].includes(document.body.dataset.status) && window.placelab.runCount > 0, null, { timeout: 0 });
    const ms = Date.now() - t0;
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const runs = await page.evaluate(() => window.placelab.lastReport.report.cases[0].runs.map((r) => [r.strategy, r.time]));
    console.log(`# largest admitted Mapped run: ${ms} ms from opening the link to the report; ${JSON.stringify(runs)}`);
    const time = Object.fromEntries(runs);
    for (const s of ['simple', 'optimal', 'advanced']) assert.ok(time.mapped <= time[s], `${s} is faster than mapped`);
    await assertNoLongTask(page, 'largest admitted Mapped run');
    await page.screenshot({ path: artifact('place-mapped-4096.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('downloads the placement of the case shown as the launcher files placelab hostfile writes', async () => {
    buildCli();
    const page = await readyPage(env);
    await pickExample(page, 'place-mapped-torus3d.json');
    const report = artifact('place-mapped.report.json');
    await fs.writeFile(report, await page.evaluate(() => window.placelab.reportText()));
    await page.getByTestId('place-case').selectOption('3');
    for (const [format, strategy, suffix] of [['mpich', '', 'machinefile'], ['rankfile', 'mapped', 'rankfile'], ['nodelist', 'advanced', 'nodelist']]) {
      await page.getByTestId('hostfile-format').selectOption(format);
      await page.getByTestId('hostfile-strategy').selectOption(strategy);
      const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-hostfile').click()]);
      assert.ok(dl.suggestedFilename().endsWith(`.${suffix}`), dl.suggestedFilename());
      const file = artifact(`download-${dl.suggestedFilename()}`);
      await dl.saveAs(file);
      const args = ['hostfile', report, '--format', format, '--case', '3', ...(strategy ? ['--strategy', strategy] : [])];
      const want = execFileSync(CLI, args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
      assert.equal(await fs.readFile(file, 'utf8'), want, `${format} ${strategy}`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('downloads the machine and a placement as the SimGrid files placelab netsim writes', async () => {
    buildCli();
    const page = await readyPage(env);
    await pickExample(page, 'place-messages-given.json');
    const report = artifact('place-messages.report.json');
    await fs.writeFile(report, await page.evaluate(() => window.placelab.reportText()));
    const r = await page.evaluate(() => window.placelab.lastReport.report);
    const got = {};
    for (const [format, strategy] of [['simgrid-platform', ''], ['simgrid-deployment', 'given'], ['simgrid-deployment', 'mapped']]) {
      await page.getByTestId('hostfile-format').selectOption(format);
      await page.getByTestId('hostfile-strategy').selectOption(strategy);
      const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-hostfile').click()]);
      assert.ok(dl.suggestedFilename().endsWith(format === 'simgrid-platform' ? '.platform.xml' : '.deployment.xml'), dl.suggestedFilename());
      const file = artifact(`download-${strategy}-${dl.suggestedFilename()}`);
      await dl.saveAs(file);
      got[`${format} ${strategy}`] = await fs.readFile(file, 'utf8');
      const args = ['hostfile', report, '--format', format, ...(strategy ? ['--strategy', strategy] : [])];
      assert.equal(got[`${format} ${strategy}`], execFileSync(CLI, args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString(), `${format} ${strategy}`);
    }
    // the same files from the network simulator's own writer, for the same machine and placement
    for (const strategy of ['given', 'mapped']) {
      const run = r.cases[0].runs.find((x) => x.strategy === strategy);
      const hostsFile = artifact(`place-messages-${strategy}.hosts`);
      await fs.writeFile(hostsFile, `${run.hosts.join('\n')}\n`);
      const [platform, deployment] = [artifact(`netsim-${strategy}.platform.xml`), artifact(`netsim-${strategy}.deployment.xml`)];
      execFileSync(CLI, ['netsim', '--system', 'torus2d', '--dims', r.system.dims.slice(0, 2).join(','), '--bandwidth', String(r.system.bandwidth),
        '--latency', String(r.system.latency), '--placement-file', hostsFile, '--write-platform', platform, '--write-deployment', deployment]);
      assert.equal(got['simgrid-platform '], await fs.readFile(platform, 'utf8'), 'platform');
      assert.equal(got[`simgrid-deployment ${strategy}`], await fs.readFile(deployment, 'utf8'), `deployment ${strategy}`);
      assert.equal(got[`simgrid-deployment ${strategy}`].match(/<actor /g).length, run.hosts.length);
    }
    assert.match(await page.getByTestId('notice').textContent(), /SimGrid deployment \(XML\): case 0 .*strategy mapped, 8 ranks/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('a METIS task graph opened from a file becomes the job', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'place-zk-exp1-torus2d-1mb.json');
    const text = '% 6 tasks in a ring, one heavy chord\n6 7 001\n2 1 6 1 4 9\n1 1 3 1\n2 1 4 1\n3 1 5 1 1 9\n4 1 6 1\n5 1 1 1\n';
    const runs = await page.evaluate(() => window.placelab.runCount);
    await page.getByTestId('open-file').setInputFiles({ name: 'ring.graph', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.waitForFunction((n) => window.placelab.runCount > n || window.placelab.lastError, runs, { timeout: 0 });
    await waitSettled(page);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const r = await page.evaluate(() => window.placelab.lastReport);
    assert.equal(r.engine, 'place');
    assert.equal(r.report.cases.length, 1);
    assert.equal(r.report.cases[0].kind, 'metis');
    assert.equal(r.report.cases[0].processes, 6);
    assert.equal(r.report.system.kind, 'torus2d', 'the system is kept');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
  it('the time limit in the form is the admission limit of the run and scales the simulation budget', async () => {
    // A scattered 1 MB GRID on a 16x16 torus needs about 50,000 recomputed flows: with
    // timeLimit 0.1 s its budget is 35,000, so Random stops there as `placelab run` says; more
    // strategies make the estimate pass the limit, and the scenario is refused naming it.
    buildCli();
    const page = await readyPage(env);
    await pickExample(page, 'place-zk-exp1-torus2d-1mb.json');
    const scenario = {
      version: 1, engine: 'place', name: 'time limit', seed: 1,
      system: { kind: 'torus2d', x: 16, y: 16 },
      job: { kind: 'GRID', processes: 256, rounds: 1, messageBytes: 1048576, wrap: true },
      strategies: ['random', 'advanced'], timeLimit: 0.1,
    };
    const text = JSON.stringify(scenario, null, 2);
    await typeRawJson(page, text);
    assert.equal(await page.getByTestId('param-timeLimit').inputValue(), '0.1', 'the form shows the limit');
    await page.getByTestId('run').click();
    await waitSettled(page, 0);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const shown = await page.evaluate(() => window.placelab.lastReportText);
    assert.equal(fingerprint(shown), fingerprint(cli(text).stdout.toString().trimEnd()), 'the page and the CLI give the same report');
    const runs = JSON.parse(shown).report.cases[0].runs;
    assert.equal(runs[0].time, null);
    assert.match(runs[0].reason, /over the budget of 35000 flows/);
    assert.ok(runs[1].time > 0, 'Advanced needs little and finishes');

    // three more strategies (Mapped's searches above all) take the estimate past 0.1 s
    await typeRawJson(page, JSON.stringify({ ...scenario, strategies: ['random', 'advanced', 'simple', 'optimal', 'mapped'] }, null, 2));
    await page.getByTestId('run').click();
    await waitSettled(page, 0);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'error');
    assert.match(await page.getByTestId('error-text').textContent(), /\$\.job: .*the limit is 0\.1 s/);
    assert.equal(await page.evaluate(() => window.placelab.lastReportText), shown, 'the last good report is kept');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
