// Stop terminates a long run (worker.terminate() and a fresh worker), and the page works after.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, waitSettled, typeRawJson, artifact } from '../lib/harness.mjs';

const env = useBrowser();

export const LONG_RUN = {
  version: 1, engine: 'allocation', name: 'long generated stream',
  system: { kind: 'mesh', width: 256, height: 256 },
  // Admitted by the engine's work estimate (about 6.4 s of the 10 s budget) and about 3 s long.
  policies: ['closed-min-best'],
  workload: { kind: 'generated', count: 9000, minTasks: 1, maxTasks: 4096, sizeDistribution: 'logUniform', meanInterarrival: 1, meanDuration: 400 },
};

describe('stop', () => {
  it('stops a long run at once and runs again afterwards', async () => {
    const page = await env.open();
    const before = await page.evaluate(() => window.placelab.lastReportText);
    await typeRawJson(page, JSON.stringify(LONG_RUN, null, 2));
    await page.getByTestId('run').click();
    await page.waitForTimeout(900);
    assert.equal(await page.evaluate(() => window.placelab.lastError), null);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'running', 'the long run finished too soon to test Stop');
    assert.ok(await page.getByTestId('progress').isVisible(), 'no progress shown after 0.9 s');
    await page.screenshot({ path: artifact('running.png') });
    await page.getByTestId('stop').click();
    await page.waitForFunction(() => document.body.dataset.status === 'idle');
    assert.match(await page.getByTestId('run-info').textContent(), /Stopped/);
    assert.equal(await page.evaluate(() => window.placelab.lastReportText), before, 'the last good report changed');
    assert.equal(await page.getByTestId('stop').isDisabled(), true);

    await pickExample(page, 'fig1-4x4.json');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');
    assert.match(await page.getByTestId('run-info').textContent(), /Ran in \d+ ms/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
