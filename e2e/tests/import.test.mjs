// Open file: a scenario (JSON) replaces the editor's scenario; an SWF workload log becomes the
// allocation scenario's workload and runs; a bad log shows the engine's error with its line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, waitSettled, artifact } from '../lib/harness.mjs';

const env = useBrowser();

const SWF = [
  '; Version: 2.2',
  '; Computer: e2e',
  '1   0 -1 300 16 -1 -1 16 600 -1 1 1 1 -1 1 -1 -1 -1',
  '2  10 -1 200  4 -1 -1  4 400 -1 1 1 1 -1 1 -1 -1 -1',
  '3  20 -1  -1  8 -1 -1  8 100 -1 5 1 1 -1 1 -1 -1 -1',
  '4  30 -1 100  9 -1 -1  9 100 -1 1 1 1 -1 1 -1 -1 -1',
].join('\n');

async function open(page, name, text) {
  // The file is read off the main thread, so the page may still show the previous run when the
  // input event returns: wait for a new report or a new error, then for the page to settle.
  await page.evaluate(() => { window.__before = [window.placelab.lastReport, window.placelab.lastError]; });
  await page.getByTestId('open-file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction(() => window.placelab.lastReport !== window.__before[0] || window.placelab.lastError !== window.__before[1]);
  await waitSettled(page);
}

describe('import', () => {
  it('replays an SWF log on the current machine', async () => {
    const page = await env.open();
    await pickExample(page, 'fig1-4x4.json');
    await open(page, 'tiny.swf', SWF);
    const report = await page.evaluate(() => window.placelab.lastReport);
    assert.equal(await page.evaluate(() => window.placelab.lastError), null);
    assert.equal(report.report.workload, 'stream');
    assert.deepEqual(report.report.runs[0].jobs.map((j) => j.name), ['swf1', 'swf2', 'swf4'], 'the job without a run time is skipped');
    assert.equal(report.report.topology.width, 4, 'the machine of the current scenario');
    await page.screenshot({ path: artifact('swf-import.png') });

    await open(page, 'bad.swf', '1 0 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n2 nope');
    const err = await page.evaluate(() => window.placelab.lastError);
    assert.equal(err.path, '$.workload.swf');
    assert.equal(err.message, 'line 2, column 3: "nope" is not a number');
    assert.equal(await page.evaluate(() => window.placelab.lastReport.report.runs[0].jobs.length), 3, 'the last good result stays');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('opens a scenario file', async () => {
    const page = await env.open();
    const scenario = { version: 1, engine: 'allocation', name: 'from a file', system: { kind: 'mesh', width: 3, height: 3 },
      policies: ['closed-min-best'], workload: { kind: 'set', jobs: [{ tasks: 4 }] } };
    await open(page, 'scenario.json', JSON.stringify(scenario));
    const report = await page.evaluate(() => window.placelab.lastReport);
    assert.equal(report.name, 'from a file');
    assert.equal(report.report.runs[0].jobs[0].diameter, 2);
    await page.close();
  });
});
