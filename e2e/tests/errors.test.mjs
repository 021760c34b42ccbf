// Bad input: raw JSON that does not parse, and a scenario with an impossible value.
// Both show an error and keep the last good drawing; fixing the input runs again.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, waitSettled, canvasSnapshot, typeRawJson, artifact } from '../lib/harness.mjs';

const env = useBrowser();

describe('errors', () => {
  it('shows a parse error for broken raw JSON without touching the form or the drawing', async () => {
    const page = await env.open();
    await pickExample(page, 'fig1-4x4.json');
    const before = await canvasSnapshot(page);
    const runs = await page.evaluate(() => window.placelab.runCount);
    const width = page.getByTestId('param-system.width');
    assert.equal(await width.inputValue(), '4');

    await typeRawJson(page, '{"version": 1, "engine": "allocation", "system": {"kind": "mesh", "width": 9,');
    const rawError = page.getByTestId('raw-error');
    assert.ok(await rawError.isVisible());
    assert.match(await rawError.textContent(), /line 1, column \d+/);
    assert.equal(await width.inputValue(), '4', 'the form followed broken JSON');

    await page.getByTestId('run').click();
    await waitSettled(page);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'error');
    assert.match(await page.getByTestId('error-panel').textContent(), /\$: the raw JSON does not parse/);
    assert.equal(await canvasSnapshot(page), before, 'the last good drawing changed');
    assert.equal(await page.evaluate(() => window.placelab.runCount), runs);
    await page.close();
  });

  it('shows the JSON path of an impossible value and keeps the last good drawing', async () => {
    const page = await env.open();
    await pickExample(page, 'fig1-4x4.json');
    const before = await canvasSnapshot(page);
    const good = await page.evaluate(() => window.placelab.lastReportText);
    const scenario = JSON.parse(await page.getByTestId('raw-json').inputValue());
    scenario.system.width = 0;
    await typeRawJson(page, JSON.stringify(scenario, null, 2));
    assert.equal(await page.getByTestId('param-system.width').inputValue(), '0', 'the form did not follow the raw JSON');
    await page.getByTestId('run').click();
    await waitSettled(page);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'error');
    const err = await page.evaluate(() => window.placelab.lastError);
    assert.equal(err.path, '$.system.width');
    assert.ok(err.message.length > 0);
    assert.equal(await page.getByTestId('error-text').textContent(), `refused before running: ${err.path}: ${err.message}`);
    assert.equal(await canvasSnapshot(page), before);
    assert.equal(await page.evaluate(() => window.placelab.lastReportText), good);
    await page.screenshot({ path: artifact('error-kept-drawing.png'), fullPage: true });

    // Fix it through the form: the raw JSON follows, and the run succeeds.
    await page.getByTestId('param-system.width').fill('4');
    await page.getByTestId('param-system.width').dispatchEvent('change');
    assert.equal(JSON.parse(await page.getByTestId('raw-json').inputValue()).system.width, 4);
    await page.getByTestId('run').click();
    await waitSettled(page);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');
    assert.equal(await page.getByTestId('error-panel').isVisible(), false);
    assert.equal(await page.evaluate(() => window.placelab.lastReportText), good);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('reports garbage scenarios as errors, not crashes', async () => {
    const page = await env.open();
    for (const text of ['{}', '{"version": 2, "engine": "allocation"}', '{"version": 1, "engine": "nope"}',
      '{"version": 1, "engine": "allocation", "system": {"kind": "mesh", "width": 4, "height": 4}, "workload": {"kind": "set", "jobs": [{"name": "x", "tasks": -1}]}}']) {
      await typeRawJson(page, text);
      await page.getByTestId('run').click();
      await waitSettled(page);
      const err = await page.evaluate(() => window.placelab.lastError);
      assert.ok(err && err.message, `no error for ${text}`);
      assert.match(err.path, /^\$/, `error path for ${text}: ${err.path}`);
    }
    // The engine still works afterwards.
    await pickExample(page, 'fig1-4x4.json');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');
    await page.close();
  });
});
