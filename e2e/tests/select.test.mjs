// The selection engine's page: the table-2 examples select W1-W7, W1-W6, W1-W5; a formula
// edited in the form re-runs as it is typed and the curve follows; a bad formula names its JSON path
// and character while the last good drawing stays; the protocol timeline's scrubber moves through
// time; no main-thread task over 200 ms meanwhile.
import { describe, it } from 'node:test';
import fs from 'node:fs/promises';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, waitSettled, typeRawJson, artifact } from '../lib/harness.mjs';
import { readyPage, assertNoLongTask, GOAL_MS } from '../lib/longtasks.mjs';
import { stationsScenario } from '../bench-select.mjs';

const env = useBrowser();

const snapshot = (page, testid) => page.evaluate((id) => document.querySelector(`[data-testid=${id}]`)?.toDataURL() ?? null, testid);

/** Waits for a run after `count` runs to settle (a result or an error). */
async function nextRun(page, runs, errorsBefore) {
  await page.waitForFunction(([n, e]) => window.placelab.runCount > n || (window.placelab.lastError && JSON.stringify(window.placelab.lastError) !== e),
    [runs, errorsBefore], { timeout: 0 });
  return waitSettled(page);
}

/** A reservation scenario with every failure mode and fix visible: three jobs at once, losses, leases. */
export const PROTOCOL = {
  version: 1, engine: 'select', name: 'three jobs at once', seed: 3,
  reservation: {
    stations: 12,
    initiators: [{ start: 0, wants: 5, holdFor: 60 }, { start: 0, wants: 5, holdFor: 60 }, { start: 2, wants: 4, holdFor: 40 }],
    delay: { min: 1, max: 8 }, loss: 0.05, lossOfRelease: 0.5,
    fixes: { orderedClaims: true, leaseTimeout: 40 },
  },
};

describe('select page', () => {
  for (const [file, want] of [['select-table2-run1.json', 'W1-W7'], ['select-table2-run2.json', 'W1-W6'], ['select-table2-run3.json', 'W1-W5']]) {
    it(`${file}: the chosen set ${want} is shown with the curve, the time lost and the source's figures`, async () => {
      const page = await readyPage(env);
      await pickExample(page, file);
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
      const chosen = page.getByTestId('chosen-set');
      assert.match(await chosen.textContent(), new RegExp(`Chosen: ${want} `));
      const report = await page.evaluate(() => window.placelab.lastReport.report.workstations);
      const n = Number(want.slice(4));
      assert.deepEqual([...report.best.stations].sort(), Array.from({ length: n }, (_, i) => `W${i + 1}`).sort());
      assert.match(await page.getByTestId('lost').textContent(), /Using every station \(P = 8\) would take .* lost/);
      assert.match(await page.getByTestId('reference').textContent(), /computed .* s, measured .* s/);
      // the chosen bar is outlined in black: some black pixels in the curve's plot area
      const dark = await page.evaluate(() => {
        const c = document.querySelector('[data-testid=select-curve]');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let k = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] < 30 && d[i + 1] < 30 && d[i + 2] < 30) k++;
        return k;
      });
      assert.ok(dark > 100, `only ${dark} black pixels in the curve`);
      await page.screenshot({ path: artifact(`select-${file.replace('.json', '')}.png`), fullPage: true });
      assert.deepEqual(page.problems, []);
      await assertNoLongTask(page, file);
      await page.close();
    });
  }

  it('follows a formula as it is typed, and keeps the last good drawing on a bad one', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'select-table2-run1.json');
    await page.getByTestId('param-model.preset').selectOption({ label: 'My own formulas' });
    await waitSettled(page);
    const to = page.getByTestId('param-model.to');
    await to.fill('');
    // Typed key by key: each keystroke re-runs (newest queued), and the curve ends on the last text.
    let runs = await page.evaluate(() => window.placelab.runCount);
    await to.pressSequentially('N/P', { delay: 30 });
    await page.waitForFunction((n) => window.placelab.runCount > n && !window.placelab.state.running, runs, { timeout: 0 });
    await waitSettled(page);
    const first = await page.evaluate(() => window.placelab.view.curveValues());
    assert.equal(await page.evaluate(() => window.placelab.scenarioText().includes('"to": "N/P"')), true);
    // with To = N/P and no other terms, T(1) = N / (1 - eta(W1)) and T falls with P
    assert.ok(first[0] > first[3], `T(1) = ${first[0]} not above T(4) = ${first[3]}`);
    const drawnFirst = await snapshot(page, 'select-curve');
    runs = await page.evaluate(() => window.placelab.runCount);
    await to.pressSequentially(' + 500*P', { delay: 30 });
    await page.waitForFunction((n) => window.placelab.runCount > n && !window.placelab.state.running, runs, { timeout: 0 });
    await waitSettled(page);
    const second = await page.evaluate(() => window.placelab.view.curveValues());
    assert.notDeepEqual(second, first, 'the curve did not follow the formula');
    assert.notEqual(await snapshot(page, 'select-curve'), drawnFirst, 'the drawing did not change');
    assert.match(await page.getByTestId('chosen-set').textContent(), /Chosen: /);

    // A bad formula: the error names $.model.to and the character; the drawing stays.
    const good = await snapshot(page, 'select-curve');
    const goodReport = await page.evaluate(() => window.placelab.lastReportText);
    const errBefore = JSON.stringify(await page.evaluate(() => window.placelab.lastError));
    runs = await page.evaluate(() => window.placelab.runCount);
    await to.fill('N/P + 500*P +* 2'); // one edit (typing it would run the valid prefixes too)
    await nextRun(page, runs, errBefore);
    await page.waitForFunction(() => document.body.dataset.status === 'error', null, { timeout: 0 });
    const err = await page.evaluate(() => window.placelab.lastError);
    assert.equal(err.path, '$.model.to');
    assert.match(err.message, /at character \d+/);
    assert.match(await page.getByTestId('error-text').textContent(), /\$\.model\.to: .*at character \d+/);
    assert.equal(await snapshot(page, 'select-curve'), good, 'the last good drawing changed');
    assert.equal(await page.evaluate(() => window.placelab.lastReportText), goodReport);
    // fixed, the error goes and the curve is drawn again
    await to.fill('N/P + 400*P');
    await page.waitForFunction(() => document.body.dataset.status === 'done' && !window.placelab.state.running, null, { timeout: 0 });
    assert.ok(await page.getByTestId('error-panel').isHidden());
    assert.deepEqual(page.problems, []);
    await assertNoLongTask(page, 'typing formulas');
    await page.close();
  });

  it('previews a 10,000-station curve at each keystroke, then draws the complete report when typing pauses', async () => {
    const page = await readyPage(env);
    const scenario = stationsScenario(10000);
    await typeRawJson(page, JSON.stringify(scenario));
    await page.getByTestId('run').click();
    await waitSettled(page);
    const to = page.getByTestId('param-model.to');
    await to.focus();
    await page.keyboard.press('End');
    await to.pressSequentially(' + 1', { delay: 40 });
    // the preview: drawn at once, thinned, the exports that need the complete report off
    await page.waitForFunction(() => document.body.dataset.status === 'live', null, { timeout: 0 });
    const preview = await page.evaluate(() => ({
      points: window.placelab.view.curveValues().length, json: document.getElementById('export-json').disabled,
      info: document.getElementById('run-info').textContent, previewOf: window.placelab.lastReport.report.workstations.previewOf,
    }));
    assert.ok(preview.points < 10000 && preview.points > 1000, `preview points ${preview.points}`);
    assert.equal(preview.json, true, 'the JSON export waits for the complete report');
    assert.match(preview.info, /Preview in \d+ ms/);
    assert.deepEqual(preview.previewOf, { curvePoints: 10000, stations: 10000 });
    // then the complete report of the same text, as if Run had been pressed
    await page.waitForFunction(() => document.body.dataset.status === 'done' && !window.placelab.state.running, null, { timeout: 0 });
    const complete = await page.evaluate(() => ({
      points: window.placelab.view.curveValues().length, json: document.getElementById('export-json').disabled,
      sha: window.placelab.lastReportSha256, scenario: window.placelab.scenarioText(),
    }));
    assert.equal(complete.points, 10000);
    assert.equal(complete.json, false);
    const again = await page.evaluate(async (t) => (await window.placelab.runInWorker(t)).sha256, complete.scenario);
    assert.equal(again, complete.sha, 'the complete report is the one Run gives');
    assert.deepEqual(page.problems, []);
    await assertNoLongTask(page, 'previews of 10,000 stations');
    await page.close();
  });

  it('steps through the reservation protocol with the scrubber', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'select-table2-run1.json');
    const runs = await page.evaluate(() => window.placelab.runCount);
    await typeRawJson(page, JSON.stringify(PROTOCOL, null, 2));
    await page.waitForFunction((n) => window.placelab.runCount > n && !window.placelab.state.running, runs, { timeout: 0 });
    await waitSettled(page);
    const checks = page.getByTestId('reservation-checks');
    assert.equal(await checks.getAttribute('data-double-allocation'), 'false');
    assert.match(await checks.textContent(), /no station ever given to two jobs/);
    const scrubber = page.getByTestId('timeline-scrubber');
    const tMax = Number(await scrubber.getAttribute('max'));
    assert.ok(tMax > 50, `time runs to ${tMax}`);
    const caption = page.getByTestId('timeline-caption');
    assert.equal(Number(await caption.getAttribute('data-time')), tMax);
    const atEnd = await snapshot(page, 'timeline');
    const seen = [];
    for (const t of [5, Math.round(tMax / 3), Math.round((2 * tMax) / 3)]) {
      await scrubber.fill(String(t));
      await page.waitForFunction((v) => document.querySelector('[data-testid=timeline-caption]').dataset.time === String(v), t, { timeout: 0 });
      seen.push(await snapshot(page, 'timeline'));
      assert.match(await caption.textContent(), new RegExp(`^t = ${t} of ${tMax}: `));
    }
    assert.equal(new Set([...seen, atEnd]).size, 4, 'the timeline did not change as the scrubber moved');
    // early on, messages are in flight; the outcomes table lists every job
    await scrubber.fill('5');
    await page.waitForFunction(() => document.querySelector('[data-testid=timeline-caption]').dataset.time === '5', null, { timeout: 0 });
    assert.match(await caption.textContent(), /[1-9]\d* message\(s\) in flight/);
    assert.equal(await page.getByTestId('outcomes-table').locator('tbody tr').count(), 3);
    // a window of ticks ending at the cursor redraws the timeline
    const whole = await snapshot(page, 'timeline');
    await page.getByTestId('timeline-window').selectOption('50');
    await page.waitForFunction((w) => document.querySelector('[data-testid=timeline]').toDataURL() !== w, whole, { timeout: 0 });
    // the Jobs CSV is the protocol's event list, the CSV the T(P) curve (absent here: no stations)
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jobs-csv').click()]);
    const file = artifact(`select-${dl.suggestedFilename()}`);
    await dl.saveAs(file);
    const lines = (await fs.readFile(file, 'utf8')).trim().split('\n');
    const report = JSON.parse(await page.evaluate(() => window.placelab.lastReportText)).report.reservation;
    assert.equal(lines[0], 'time,arrive,kind,from,to,tid,station,lost');
    assert.equal(lines.length - 1, report.events.length);
    await page.screenshot({ path: artifact('select-protocol.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await assertNoLongTask(page, 'protocol timeline');
    await page.close();
  });

  it('shows the partial-reservation starvation and its fix side by side in the report', async () => {
    const page = await readyPage(env);
    const scenario = (ordered) => JSON.stringify({
      version: 1, engine: 'select', name: `contention ${ordered}`, seed: 1,
      reservation: { stations: 40, initiators: [{ wants: 30, holdFor: 100 }, { wants: 30, holdFor: 100 }], delay: { min: 1, max: 20 }, maxRetries: 8, fixes: { orderedClaims: ordered } },
    });
    for (const [ordered, status] of [[false, 'starved'], [true, 'done']]) {
      const runs = await page.evaluate(() => window.placelab.runCount);
      await typeRawJson(page, scenario(ordered));
      await page.waitForFunction((n) => window.placelab.runCount > n && !window.placelab.state.running, runs, { timeout: 0 });
      await waitSettled(page);
      const statuses = await page.getByTestId('outcomes-table').locator('tbody tr td:nth-child(6)').allTextContents();
      assert.deepEqual(statuses, [status, status], `orderedClaims ${ordered}`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('draws the all-to-all layouts and the subsystem tables', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'select-alltoall-layouts.json');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');
    assert.ok(await page.getByTestId('layouts-chart').isVisible());
    const ranks = await page.evaluate(() => window.placelab.lastReport.report.layouts.ranks.map((r) => r.rank));
    for (const r of ranks) assert.equal(await page.getByTestId(`layouts-table-${r}`).count(), 1, `rank ${r} has no table`);
    await pickExample(page, 'select-subsystem-racks.json');
    const rows = await page.getByTestId('subsystem-table').locator('tbody tr').allTextContents();
    assert.equal(rows.length, 3);
    assert.match(rows[0], /exact/);
    assert.match(await page.getByTestId('subsystem-summary').textContent(), /from the exact optimum/);
    assert.deepEqual(page.problems, []);
    await assertNoLongTask(page, 'all-to-all');
    await page.close();
  });
});
