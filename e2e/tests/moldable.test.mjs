// The moldable engine's page (issue 10): the hand-checkable set draws one Gantt chart per method
// (machines across, time down, each job in its colour) with makespans, bounds and the source's
// delta metrics; a long GA run shows its curve and best schedule live and Stop keeps them; the
// schedule exports as SWF; TORQUE and SWF files import as moldable sets; no long main-thread task.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { useBrowser, pickExample, waitSettled, typeRawJson, artifact, moduleUrl } from '../lib/harness.mjs';
import { readyPage, assertNoLongTask, GOAL_MS } from '../lib/longtasks.mjs';

const env = useBrowser();

async function open(page, name, text) {
  await page.evaluate(() => { window.__before = [window.placelab.lastReport, window.placelab.lastError]; });
  await page.getByTestId('open-file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction(() => window.placelab.lastReport !== window.__before[0] || window.placelab.lastError !== window.__before[1]);
  await waitSettled(page);
}

describe('moldable page', () => {
  it('draws the small set: four Gantt charts in job colours, makespans, bound and deltas', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'moldable-small.json');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const report = await page.evaluate(() => window.placelab.lastReport.report);
    const methods = await page.$$eval('[data-testid=canvas]', (cs) => cs.map((c) => [c.dataset.method, Number(c.dataset.makespan), c.dataset.valid]));
    assert.deepEqual(methods.map((m) => m[0]), ['nfdh', 'ffdh', 'bfdh', 'ga']);
    assert.ok(methods.every((m) => m[2] === 'ok'));
    assert.deepEqual(methods.map((m) => m[1]), report.methods.map((m) => m.makespan));
    const ga = report.methods.find((m) => m.method === 'ga');
    assert.ok(ga.makespan <= report.methods.find((m) => m.method === 'ffdh').makespan);
    assert.match(await page.getByTestId('ga-deltas').textContent(), /δ2 = \(T_FFDH − T\)\/T = \d+\.\d %/);
    // every job's colour shows in the GA chart
    const missing = await page.evaluate(async (commonUrl) => {
      const { jobColor } = await import(commonUrl);
      const c = document.querySelector('[data-testid=canvas][data-method=ga]');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const hex = (s) => [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));
      const out = [];
      for (let j = 0; j < window.placelab.lastReport.report.jobs; j++) {
        const [r, g, b] = hex(jobColor(j));
        let k = 0;
        for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 12) k++;
        if (k < 20) out.push(j);
      }
      return out;
    }, moduleUrl('draw/common.js'));
    assert.deepEqual(missing, [], 'jobs without their colour in the GA chart');
    assert.equal(await page.locator('[data-testid=moldable-table] tbody tr').count(), 4);
    await page.screenshot({ path: artifact('moldable-small.png'), fullPage: true });
    // the schedule as SWF: 18 fields per job line, one line per job
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-swf').click()]);
    const file = artifact(`download-${dl.suggestedFilename()}`);
    await dl.saveAs(file);
    assert.match(dl.suggestedFilename(), /\.schedule\.swf$/);
    const lines = (await fs.readFile(file, 'utf8')).split('\n').filter((l) => l && !l.startsWith(';'));
    assert.equal(lines.length, report.jobs);
    assert.ok(lines.every((l) => l.split(' ').length === 18));
    const tasks = await page.evaluate(() => window.__longTasks);
    assert.ok(tasks.every((t) => t.ms <= GOAL_MS), JSON.stringify(tasks));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('shows the GA live while it runs, and Stop keeps the best schedule so far', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'moldable-small.json');
    const long = { version: 1, engine: 'moldable', name: 'long GA', seed: 3, machines: 1024, efficiency: 0.75,
      ga: { cycles: 20000 }, generate: { kind: 'random', jobs: 400 } };
    await typeRawJson(page, JSON.stringify(long));
    await page.getByTestId('run').click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=moldable-live]')?.dataset.cycle) > 0, null, { timeout: 0 });
    const first = Number(await page.getByTestId('moldable-live').getAttribute('data-cycle'));
    await page.waitForFunction((c) => Number(document.querySelector('[data-testid=moldable-live]').dataset.cycle) > c, first, { timeout: 0 });
    await page.getByTestId('stop').click();
    await page.waitForFunction(() => document.body.dataset.status !== 'running', null, { timeout: 0 });
    const live = page.getByTestId('moldable-live');
    assert.ok(await live.isVisible(), 'the best schedule so far stays on screen');
    const makespan = Number(await live.getAttribute('data-makespan'));
    assert.ok(makespan > 0);
    assert.match(await page.getByTestId('live-caption').textContent(), /best makespan so far/);
    await page.screenshot({ path: artifact('moldable-live-stopped.png'), fullPage: true });
    const tasks = await page.evaluate(() => window.__longTasks);
    assert.ok(tasks.every((t) => t.ms <= GOAL_MS), JSON.stringify(tasks));
    await page.close();
  });

  it('imports TORQUE requests and SWF logs as moldable sets; a bad request names its line', async () => {
    const page = await env.open();
    await pickExample(page, 'moldable-small.json');
    await open(page, 'jobs.torque', '-L nodes=2@ppn=4@walltime=00:10:00\n-L nodes=1@ppn=8@walltime=600 -L nodes=4@ppn=8@weight=0.7@walltime=240\n');
    let report = await page.evaluate(() => window.placelab.lastReport.report);
    assert.equal(report.source, 'torque');
    assert.equal(report.jobs, 2);
    assert.equal(report.moldableJobs, 1);
    await open(page, 'log.swf', '; Version: 2.2\n1 0 -1 300 16 -1 -1 16 600 -1 1 1 1 -1 1 -1 -1 -1\n2 10 -1 200 4 -1 -1 4 400 -1 1 1 1 -1 1 -1 -1 -1\n');
    report = await page.evaluate(() => window.placelab.lastReport.report);
    assert.equal(report.source, 'swf');
    assert.match(report.speedup, /Amdahl/);
    await open(page, 'bad.torque', '-L nodes=1@walltime=10\n-L nodes=x@walltime=10\n');
    const err = await page.evaluate(() => window.placelab.lastError);
    assert.equal(err.path, '$.torque');
    assert.match(err.message, /^line 2, column 10:/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
