// The moldable engine's page: the hand-checkable set draws one Gantt chart per method
// (machines across, time down, each job in its colour) with makespans, bounds and the source's
// delta metrics; a long GA run shows its curve and best schedule live and Stop keeps them; the
// schedule exports as SWF; TORQUE and SWF files import as moldable sets; no long main-thread task.
// Hovering a Gantt chart names the job under the pointer. The parallel GA: islands in several Web Workers give the report of one worker and of
// `placelab run` byte for byte (SHA-256), live results and progress keep coming, and Stop ends
// every island worker while the best schedule so far stays on screen. The part workers (the islands
// are parts of a split run, src/split.rs) speak the typed protocol: ids on requests and replies.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { useBrowser, pickExample, waitSettled, typeRawJson, artifact, moduleUrl } from '../lib/harness.mjs';
import { readyPage, assertNoLongTask, GOAL_MS } from '../lib/longtasks.mjs';
import { buildCli, cli, sha256 } from '../lib/cli.mjs';

const env = useBrowser();
before(buildCli);

/** The island workers alive now (playwright lists a page's nested workers too). */
const islandWorkers = (page) => page.workers().filter((w) => /partworker/.test(w.url()));

/** Waits (without a time limit) until no island worker is left. */
async function islandsGone(page) {
  while (islandWorkers(page).length > 0) await new Promise((r) => { setTimeout(r, 50); });
}

const ISLAND_NAME = 'islands';

/** A moldable GA with several islands; `workers` Web Workers asked for. */
const islandScenario = (workers, ga = {}, generate = { kind: 'random', jobs: 150 }) => ({ version: 1, engine: 'moldable',
  name: ISLAND_NAME, seed: 5, machines: 256, efficiency: generate.kind === 'random' ? 0.75 : undefined,
  ga: { cycles: 300, islands: 4, exchangeEvery: 25, workers, ...ga }, generate });

/**
 * While a GA runs and after Stop, the page shows that run alone: the live panel is the whole
 * drawing, the title names the run, and no table of an earlier report (perhaps another engine's)
 * is left under it.
 */
async function assertOnlyThisRun(page, title) {
  assert.equal(await page.locator('#result-title').textContent(), title);
  const drawing = await page.evaluate(() => [...document.querySelector('#drawing').children].map((c) => c.dataset.testid));
  assert.deepEqual(drawing, ['moldable-live']);
  const tables = await page.evaluate(() => [...document.querySelector('#tables').children].map((c) => c.dataset.testid ?? c.tagName));
  assert.deepEqual(tables, ['tables-pending']);
  assert.ok(await page.getByTestId('export-json').isDisabled(), 'no JSON export of an earlier report');
}

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
    // hovering a job in the GA chart names it: variant, start, end, machines (from the complete report)
    const full = JSON.parse(await page.evaluate(() => window.placelab.lastReportText)).report;
    const gaRows = full.methods.find((m) => m.method === 'ga').schedule;
    for (const i of [0, gaRows.length - 1]) {
      const row = gaRows[i];
      const point = await page.evaluate((k) => window.placelab.view.ganttPoint('ga', k), i);
      const canvas = page.locator('[data-testid=canvas][data-method=ga]');
      await canvas.scrollIntoViewIfNeeded();
      const box = await canvas.boundingBox();
      await page.mouse.move(box.x + point.x, box.y + point.y);
      const tip = page.getByTestId('gantt-tooltip');
      await tip.waitFor({ state: 'visible' });
      const text = await tip.textContent();
      const [first, count] = row.machines[0];
      assert.ok(text.startsWith(`${full.jobList[row.job].name} · Genetic algorithm · variant ${row.variant + 1} of ${full.jobList[row.job].variants.length} (${row.ranks} ranks)`), text);
      assert.match(text, new RegExp(`start ${row.start}, end ${row.end} · machines ${first}${count > 1 ? `–${first + count - 1}` : ''}`));
    }
    await page.mouse.move(0, 0);
    await page.getByTestId('gantt-tooltip').waitFor({ state: 'hidden' });
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
    // long, but admitted: about 9 s natively by its estimate (20,000 cycles would be refused)
    const long = { version: 1, engine: 'moldable', name: 'long GA', seed: 3, machines: 1024, efficiency: 0.75,
      ga: { cycles: 12000 }, generate: { kind: 'random', jobs: 400 } };
    await typeRawJson(page, JSON.stringify(long));
    await page.getByTestId('run').click();
    await page.waitForFunction(() => document.body.dataset.status === 'error'
      || Number(document.querySelector('[data-testid=moldable-live]')?.dataset.cycle) > 0, null, { timeout: 0 });
    assert.notEqual(await page.evaluate(() => document.body.dataset.status), 'error', await page.getByTestId('error-text').textContent());
    const first = Number(await page.getByTestId('moldable-live').getAttribute('data-cycle'));
    await page.waitForFunction((c) => Number(document.querySelector('[data-testid=moldable-live]').dataset.cycle) > c, first, { timeout: 0 });
    await page.getByTestId('stop').click();
    await page.waitForFunction(() => document.body.dataset.status !== 'running', null, { timeout: 0 });
    const live = page.getByTestId('moldable-live');
    assert.ok(await live.isVisible(), 'the best schedule so far stays on screen');
    const makespan = Number(await live.getAttribute('data-makespan'));
    assert.ok(makespan > 0);
    assert.match(await page.getByTestId('live-caption').textContent(), /^GA stopped at cycle [\d,]+ of [\d,]+: best makespan so far/);
    await assertOnlyThisRun(page, 'long GA (stopped: the best so far)');
    // PNG exports the live panel, named after the stopped run
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
    assert.match(dl.suggestedFilename(), /^long.GA.*\.png$/);
    const png = await fs.readFile(await dl.path());
    assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
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

  it('runs the GA islands in several Web Workers with the report of one worker and of placelab run, byte for byte', async () => {
    const page = await readyPage(env);
    const threads = await page.evaluate(() => navigator.hardwareConcurrency);
    const cases = [islandScenario(4), islandScenario(3, { decoder: 'list', islands: 3, cycles: 120, exchangeEvery: 20 }, { kind: 'guillotine', jobs: 120, height: 500 })];
    for (const s of cases) {
      const text = JSON.stringify(s);
      const started = [];
      const onWorker = (w) => { if (/partworker/.test(w.url())) started.push(w.url()); };
      page.on('worker', onWorker);
      const before = await page.evaluate(() => window.placelab.runCount);
      await typeRawJson(page, text);
      await page.getByTestId('run').click();
      await page.waitForFunction((n) => window.placelab.runCount > n || window.placelab.lastError, before, { timeout: 0 });
      await waitSettled(page);
      page.off('worker', onWorker);
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
      // min(ga.workers, islands, hardware threads, 8) island workers, none left once the run is over
      const expected = Math.min(s.ga.workers, s.ga.islands, threads, 8);
      assert.equal(started.length, expected >= 2 ? expected : 0, `island workers started (${threads} threads)`);
      await islandsGone(page);
      const parallel = await page.evaluate(() => window.placelab.lastReportSha256);
      const one = await page.evaluate((t) => window.placelab.runInWorker(t).then((r) => r.sha256), JSON.stringify({ ...s, ga: { ...s.ga, workers: 1 } }));
      const native = cli(text);
      assert.ok(native.stdout, native.error);
      assert.equal(parallel, one, 'W workers and one worker');
      assert.equal(parallel, sha256(native.stdout), 'W workers and placelab run');
      const report = await page.evaluate(() => window.placelab.lastReport.report);
      assert.equal(report.ga.islands, s.ga.islands);
      assert.equal(report.ga.curve.length, s.ga.cycles + 1);
      assert.ok(report.methods.every((m) => m.valid === 'ok'));
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('speaks the typed worker protocol with a part worker: replies repeat the request id, unknown types are logged and refused', async () => {
    const page = await readyPage(env);
    const warnings = [];
    page.on('console', (msg) => { if (msg.type() === 'warning') warnings.push(msg.text()); });
    const scenario = JSON.stringify(islandScenario(2, { cycles: 10, islands: 2 }, { kind: 'random', jobs: 20 }));
    const replies = await page.evaluate(async ({ url, scenario }) => {
      const worker = new Worker(new URL(url, document.baseURI), { type: 'module' });
      const got = [];
      const ask = (msg) => new Promise((resolve) => {
        worker.onmessage = ({ data }) => { got.push(data); resolve(); };
        worker.postMessage(msg);
      });
      await ask({ type: 'bogus', id: 7 });
      await ask({ type: 'init', id: 8, scenario, parts: [1] });
      await ask({ type: 'step', id: 9, mail: [[0, new Uint32Array([0, 1, 0])]] });
      await ask({ type: 'step', id: 10, mail: [[1, new Uint32Array([0, 1, 0])]] });
      await ask({ type: 'step', id: 11, mail: [[1, new Uint32Array([5])]] });
      worker.terminate();
      return got.map((d) => ({ type: d.type, id: d.id, error: d.error ?? null, answers: d.answers?.map(([i, w]) => [i, w.constructor.name]) ?? null }));
    }, { url: moduleUrl('partworker.js'), scenario });
    assert.deepEqual(replies.map((r) => [r.type, r.id]), [['error', 7], ['ready', 8], ['error', 9], ['answers', 10], ['error', 11]]);
    assert.match(replies[0].error.message, /unknown message type "bogus"/);
    assert.match(replies[2].error.message, /part 0 is not hosted here/);
    assert.deepEqual(replies[3].answers, [[1, 'Uint32Array']]);
    // the engine's errors reach the pool through the one funnel: {path, message}
    assert.equal(replies[4].error.path, '$');
    assert.match(replies[4].error.message, /^the mail of island 1: fewer than 3 words/);
    assert.ok(warnings.some((w) => /unknown message type/.test(w)), `a warning for the unknown type: ${warnings}`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('shows the parallel GA live with its progress, and Stop ends every island worker and keeps the best so far', async () => {
    const page = await readyPage(env);
    const threads = await page.evaluate(() => navigator.hardwareConcurrency);
    await typeRawJson(page, JSON.stringify(islandScenario(4, { cycles: 5000 }, { kind: 'random', jobs: 250 })));
    await page.getByTestId('run').click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=moldable-live]')?.dataset.cycle) > 0 || window.placelab.lastError, null, { timeout: 0 });
    assert.equal(await page.evaluate(() => window.placelab.lastError), null);
    const first = Number(await page.getByTestId('moldable-live').getAttribute('data-cycle'));
    await page.waitForFunction((c) => Number(document.querySelector('[data-testid=moldable-live]').dataset.cycle) > c, first, { timeout: 0 });
    // while it runs, the page shows this run only: the default example's drawing, title and tables are gone
    await assertOnlyThisRun(page, `${ISLAND_NAME} (running)`);
    const during = islandWorkers(page).length;
    assert.equal(during, Math.min(4, threads, 8) >= 2 ? Math.min(4, threads, 8) : 0, 'island workers while running');
    // the progress bar follows the cycles
    await page.waitForFunction(() => document.querySelector('#progress progress').value > 0, null, { timeout: 0 });
    const makespans = [];
    for (let k = 0; k < 2; k++) {
      const c = Number(await page.getByTestId('moldable-live').getAttribute('data-cycle'));
      await page.waitForFunction((x) => Number(document.querySelector('[data-testid=moldable-live]').dataset.cycle) > x, c, { timeout: 0 });
      makespans.push(Number(await page.getByTestId('moldable-live').getAttribute('data-makespan')));
    }
    assert.ok(makespans[1] <= makespans[0], `the best so far never gets worse: ${makespans}`);
    await page.getByTestId('stop').click();
    await page.waitForFunction(() => document.body.dataset.status !== 'running', null, { timeout: 0 });
    await islandsGone(page);
    const live = page.getByTestId('moldable-live');
    assert.ok(await live.isVisible(), 'the best schedule so far stays on screen');
    assert.ok(Number(await live.getAttribute('data-makespan')) > 0);
    assert.match(await page.getByTestId('live-caption').textContent(), /^GA stopped at cycle [\d,]+ of [\d,]+: best makespan so far/);
    // the stopped pool posts nothing more: the live panel stays as it was
    const cycle = await live.getAttribute('data-cycle');
    await page.waitForTimeout(1500);
    assert.equal(await live.getAttribute('data-cycle'), cycle);
    await assertOnlyThisRun(page, `${ISLAND_NAME} (stopped: the best so far)`);
    await page.screenshot({ path: artifact('moldable-parallel-stopped.png'), fullPage: true });
    await assertNoLongTask(page, 'parallel GA');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
