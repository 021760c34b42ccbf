// A placement job given as its messages: the page draws when each message of the first round and
// each round ended, per strategy, with axes and a legend; the form edits the message list as a
// table (from, to, bytes, start; rows added and removed) and the given placement, the edited
// scenario runs as `placelab run` runs it, and a bad cell shows the engine's JSON path on that
// cell while the last good drawing stays; a messages CSV (as `placelab netsim --messages` reads
// it) opened becomes the job.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, waitSettled, artifact } from '../lib/harness.mjs';
import { buildCli, cli } from '../lib/cli.mjs';

const env = useBrowser();
before(buildCli);

async function runAfter(page, act) {
  const before = await page.evaluate(() => window.placelab.runCount);
  await act();
  await page.waitForFunction((n) => window.placelab.runCount > n || (window.placelab.lastError && document.body.dataset.status === 'error'), before, { timeout: 0 });
  await waitSettled(page);
  return page.evaluate(() => document.body.dataset.status);
}

const cell = (page, row, key) => page.getByTestId('param-job.messages').locator('tbody tr').nth(row).locator(`input[data-key="${key}"]`);

describe('a messages job in the page', () => {
  it('draws each message\'s and each round\'s end time per strategy, with axes and a legend', async () => {
    const page = await env.open();
    await pickExample(page, 'place-messages-given.json');
    assert.ok(await page.getByTestId('message-ends').isVisible());
    const r = await page.evaluate(() => window.placelab.lastReport.report);
    const placed = r.cases[0].runs.filter((x) => x.placed && x.messageEnds);
    assert.ok(placed.length >= 2);
    const drawn = await page.evaluate(() => window.placelab.view.ends());
    const count = (points, k) => points.filter((p) => p.series === k).length;
    placed.forEach((x, k) => {
      assert.equal(count(drawn.messages.points, k), Object.keys(x.messageEnds).length, `${x.strategy} messages`);
      assert.equal(count(drawn.rounds.points, k), x.roundEnds.length, `${x.strategy} rounds`);
    });
    for (const id of ['message-ends-chart', 'round-ends-chart', 'message-ends-legend']) {
      const h = await page.getByTestId(id).evaluate((c) => c.height);
      assert.ok(h > 10, `${id} is drawn`);
    }
    assert.match(await page.getByTestId('message-ends-legend').getAttribute('aria-label'), /Given/i);
    await page.getByTestId('message-ends').screenshot({ path: artifact('place-message-ends.png') });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('edits the message list as a table; the edited scenario runs as placelab run runs it', async () => {
    const page = await env.open();
    await pickExample(page, 'place-messages-given.json');
    const rows = page.getByTestId('param-job.messages').locator('tbody tr');
    assert.equal(await rows.count(), 10);
    assert.equal(await cell(page, 0, 'bytes').inputValue(), '1000000');
    await cell(page, 3, 'bytes').fill('2e6');
    await cell(page, 3, 'bytes').press('Tab');
    await page.getByTestId('param-job.messages-add').click();
    await cell(page, 10, 'src').fill('7');
    await cell(page, 10, 'dst').fill('0');
    await cell(page, 10, 'bytes').fill('250000');
    await cell(page, 10, 'start').fill('0.003');
    await cell(page, 10, 'start').press('Tab');
    await rows.nth(0).locator('.row-remove').click();
    await page.getByTestId('param-placement').fill('[0, 1, 2, 3, 4, 5, 6, 7]');
    await page.getByTestId('param-placement').press('Tab');
    const s = JSON.parse(await page.evaluate(() => window.placelab.scenarioText()));
    assert.equal(s.job.messages.length, 10);
    assert.deepEqual(s.job.messages[2], { src: 1, dst: 2, bytes: 2e6, start: 0 });
    assert.deepEqual(s.job.messages[9], { src: 7, dst: 0, bytes: 250000, start: 0.003 });
    assert.deepEqual(s.job.messages[8], { src: 3, dst: 3, bytes: 1e6 }, 'an empty start stays out');
    assert.deepEqual(s.placement, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.equal(await runAfter(page, () => page.getByTestId('run').click()), 'done');
    const want = cli(await page.evaluate(() => window.placelab.scenarioText()));
    assert.ok(want.stdout, want.error);
    assert.equal(`${await page.evaluate(() => window.placelab.reportText())}\n`, want.stdout.toString());
    const given = (await page.evaluate(() => window.placelab.lastReport.report)).cases[0].runs.find((x) => x.strategy === 'given');
    assert.equal(Object.keys(given.messageEnds).length, 10);
    assert.deepEqual(Object.values(given.hosts), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('opens a messages CSV as the job, and names a bad line\'s line and column', async () => {
    const page = await env.open();
    await pickExample(page, 'place-messages-given.json');
    const csv = 'src,dst,bytes,start\n# a ring of 4 and one late message\n0,1,1e6\n1,2,1e6\n2,3,1e6\n3,0,1e6\n0,2,500000,0.002\n';
    const status = await runAfter(page, () => page.getByTestId('open-file').setInputFiles({ name: 'ring.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }));
    assert.equal(status, 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const s = JSON.parse(await page.evaluate(() => window.placelab.scenarioText()));
    assert.equal(s.job.kind, 'messages');
    assert.deepEqual(s.job.messages.at(-1), { src: 0, dst: 2, bytes: 500000, start: 0.002 });
    assert.equal(s.job.messages.length, 5);
    assert.equal(s.placement, undefined, 'the given placement of 8 tasks goes');
    assert.ok(!s.strategies.includes('given'));
    assert.deepEqual(s.system, { kind: 'torus2d', x: 8, y: 8 }, 'the system is kept');
    const want = cli(await page.evaluate(() => window.placelab.scenarioText()));
    assert.equal(`${await page.evaluate(() => window.placelab.reportText())}\n`, want.stdout.toString());
    assert.equal(await page.getByTestId('param-job.messages').locator('tbody tr').count(), 5);

    await page.getByTestId('open-file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('0,1,1e6\n1,x,5\n') });
    await page.waitForFunction(() => !document.querySelector('[data-testid=error-panel]').hidden);
    assert.match(await page.getByTestId('error-text').textContent(), /^bad\.csv: line 2, column 3: task 'x' is not a whole number/);
    assert.equal(JSON.parse(await page.evaluate(() => window.placelab.scenarioText())).job.messages.length, 5, 'the scenario stays');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('shows a bad cell\'s JSON path on that cell and keeps the last good drawing', async () => {
    const page = await env.open();
    await pickExample(page, 'place-messages-given.json');
    const good = await page.evaluate(() => window.placelab.lastReportText);
    await cell(page, 4, 'dst').fill('99999');
    await cell(page, 4, 'dst').press('Tab');
    const want = cli(await page.evaluate(() => window.placelab.scenarioText()));
    assert.match(want.error, /job\.messages\[4\]\.dst/);
    assert.equal(await runAfter(page, () => page.getByTestId('run').click()), 'error');
    assert.equal(await page.getByTestId('error-text').textContent(), `refused before running: ${want.error}`);
    assert.match(await page.getByTestId('param-job.messages-error').textContent(), /job\.messages\[4\]\.dst/);
    assert.equal(await cell(page, 4, 'dst').getAttribute('aria-invalid'), 'true');
    assert.equal(await cell(page, 4, 'src').getAttribute('aria-invalid'), null);
    assert.equal(await page.evaluate(() => window.placelab.lastReportText), good);
    assert.ok(await page.getByTestId('message-ends').isVisible(), 'the last good drawing stays');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
