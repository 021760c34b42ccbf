// A placement job given as its messages: the page draws when each message of the first round and
// each round ended, per strategy, with axes and a legend; the form edits the message list as a
// table (from, to, bytes, start; rows added and removed) and the given placement, the edited
// scenario runs as `placelab run` runs it, and a bad cell shows the engine's JSON path on that
// cell while the last good drawing stays; a messages CSV (as `placelab netsim --messages` reads
// it) opened becomes the job.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, waitSettled, artifact, runAfter } from '../lib/harness.mjs';
import { buildCli, cli, link } from '../lib/cli.mjs';
import { observedPage, assertNoLongTask } from '../lib/longtasks.mjs';

const env = useBrowser();
before(buildCli);

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

  it('2,500 messages: drawn as pixels, a redraw with no long main-thread task; the list is left to the raw JSON', async () => {
    // a seeded generator, so that the scenario is the same at every run
    let x = 1;
    const next = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
    const messages = Array.from({ length: 2500 }, () => ({ src: next(64), dst: next(64), bytes: [1000, 10000, 100000][next(3)], start: next(10000) / 1e6 }));
    // one message a line, as a person or a script would write it (a 150 kB single line is slow to lay out in any text box)
    const text = JSON.stringify({ version: 1, engine: 'place', name: '2,500 messages', seed: 1, system: { kind: 'torus2d', x: 8, y: 8 },
      job: { kind: 'messages', rounds: 1, messages: [] }, strategies: ['simple', 'advanced'] })
      .replace('"messages":[]', `"messages": [\n${messages.map((m) => JSON.stringify(m)).join(',\n')}\n]`);
    const page = await observedPage(env, link(text));
    await page.waitForFunction(() => window.placelab && ['done', 'error'].includes(document.body.dataset.status) && window.placelab.runCount > 0, null, { timeout: 0 });
    await waitSettled(page);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const drawn = await page.evaluate(() => window.placelab.view.ends());
    assert.equal(drawn.messages.points.length, 5000);
    // the plot holds both strategies' colours
    const colours = await page.getByTestId('message-ends-chart').evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const seen = new Set();
      for (let i = 0; i < d.length; i += 4) if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 60) seen.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
      return seen.size;
    });
    assert.ok(colours >= 2, `${colours} colours in the message chart`);
    // the view's drawing again (panels, charts, the 5,000 end times), watched alone: opening a
    // 125 kB scenario (the raw JSON box) is the page's startup, not this drawing
    await page.evaluate(() => { window.__longTasks.length = 0; });
    const drawnBefore = await page.evaluate(() => Number(document.querySelector('[data-drawn]').dataset.drawn));
    await page.evaluate(() => window.placelab.view.setCase(0));
    await page.waitForFunction((n) => Number(document.querySelector('[data-drawn]').dataset.drawn) > n, drawnBefore, { timeout: 0 });
    await page.evaluate(() => new Promise((r) => { requestAnimationFrame(() => setTimeout(r, 100)); }));
    await assertNoLongTask(page, '2,500 messages drawn');
    assert.equal(await page.getByTestId('param-job.messages').locator('tbody tr').count(), 0);
    assert.match(await page.getByTestId('param-job.messages').textContent(), /More than 500 rows: edit this list in the raw JSON/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('shows the given placement field with strategy given, and its errors under it', async () => {
    const page = await env.open();
    await pickExample(page, 'place-messages-given.json');
    const field = page.getByTestId('param-placement');
    const given = page.getByTestId('param-strategies').locator('input[value="given"]');
    assert.ok(await field.isVisible());
    await given.uncheck();
    assert.ok(!(await field.isVisible()));
    assert.equal(JSON.parse(await page.evaluate(() => window.placelab.scenarioText())).placement, undefined, 'no placement without strategy given');
    await given.check();
    assert.ok(await field.isVisible());
    assert.equal(await runAfter(page, () => page.getByTestId('run').click()), 'error');
    assert.match(await page.getByTestId('param-placement-error').textContent(), /^placement: missing: strategy given needs the host of each task/);
    await field.fill('[0, 1, 2, 3, 4, 5, 6, 64]');
    await field.press('Tab');
    assert.equal(await runAfter(page, () => page.getByTestId('run').click()), 'error');
    assert.match(await page.getByTestId('param-placement-error').textContent(), /^placement\[7\]: host 64: the system's hosts are 0 to 63/);
    await field.fill('[0, 1, 2, 3, 4, 5, 6, 63]');
    await field.press('Tab');
    assert.equal(await runAfter(page, () => page.getByTestId('run').click()), 'done');
    assert.ok(!(await page.getByTestId('param-placement-error').isVisible()));
    const want = cli(await page.evaluate(() => window.placelab.scenarioText()));
    assert.equal(`${await page.evaluate(() => window.placelab.reportText())}\n`, want.stdout.toString());
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
