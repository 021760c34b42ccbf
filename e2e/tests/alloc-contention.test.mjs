// Run time under contention on the allocation page: the Tianhe-1A example runs with the
// contention model on, gives in the browser the report pinned natively, and draws the run-time
// chart, the paper's claims judged from the report, and the table of run times beside Table 1.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { REPO } from '../lib/server.mjs';
import { useBrowser, pickExample } from '../lib/harness.mjs';
import { waitSettled } from '../lib/browser.mjs';
import { readyPage } from '../lib/longtasks.mjs';

const env = useBrowser();

/** The report's fingerprint as `api::fingerprint` computes it (FNV-1a 64 of the bytes, and the length). */
function fingerprint(text) {
  const bytes = new TextEncoder().encode(text);
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return `${h.toString(16).padStart(16, '0')} ${bytes.length}`;
}

describe('allocation run time under contention', () => {
  it('the Tianhe example draws run times per kernel, the claims and the Table 1 comparison', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'tianhe-npb-stream.json');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const text = await page.evaluate(() => window.placelab.reportText());
    const want = (await fs.readFile(path.join(REPO, 'tests/golden/tianhe-npb-stream.json.fingerprint'), 'utf8')).trim();
    assert.equal(fingerprint(text), want, "the browser's report differs from the native one");
    // the chart: bars in the policies' colours on a canvas of real size
    const coloured = await page.evaluate(() => {
      const c = document.querySelector('[data-testid=runtime-chart]');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let k = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 40) k++;
      return { k, w: c.width, h: c.height };
    });
    assert.ok(coloured.w > 300 && coloured.h > 200, JSON.stringify(coloured));
    assert.ok(coloured.k > 500, `the run-time chart has ${coloured.k} coloured pixels`);
    // the claims, judged from the report: the same verdicts as the figures give
    const report = JSON.parse(text).report;
    const rows = (p) => report.runs.find((r) => r.policy === p).contention.kernels;
    const seq = rows('sequential'), best = rows('closed-min-best');
    const ep = seq.filter((r) => r.kernel === 'EP').every((r, i) => Math.abs(r.runTime / best.find((b) => b.kernel === 'EP' && b.class === r.class).runTime - 1) < 0.005);
    const claims = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=claims] li')].map((li) => [li.dataset.claim, li.dataset.reproduced])));
    assert.deepEqual(Object.keys(claims).sort(), ['ep', 'faster', 'growth', 'is']);
    assert.equal(claims.ep, String(ep));
    const texts = await page.getByTestId('claims').innerText();
    assert.match(texts, /IS gains most/);
    // the table: 24 kernel/class rows with the paper's Table 1 figure and one column per policy
    const table = await page.evaluate(() => [...document.querySelectorAll('[data-testid=runtime-table] tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.equal(table.length, 24);
    const is = table.find((r) => r[0] === 'IS.C');
    assert.equal(is[2], '1');
    assert.equal(is.length, 3 + report.runs.length + 1);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('the form switches the model off and on, with the parser\'s defaults', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'tianhe-npb-stream.json');
    const control = page.getByTestId('param-contention.model');
    const raw = async () => JSON.parse(await page.getByTestId('raw-json').inputValue());
    assert.equal(await control.locator('option:checked').textContent(), 'On: SimGrid LV08 sharing');
    assert.equal(await page.getByTestId('param-contention.bandwidth').isVisible(), true);
    await control.selectOption({ label: 'Off (durations as given)' });
    assert.deepEqual((await raw()).contention, { model: 'off' });
    assert.equal(await page.getByTestId('param-contention.bandwidth').isVisible(), false);
    await page.getByTestId('run').click();
    await waitSettled(page);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const off = JSON.parse(await page.evaluate(() => window.placelab.reportText())).report;
    assert.equal(off.contention, undefined);
    await control.selectOption({ label: 'On: plain max-min sharing' });
    const on = (await raw()).contention;
    assert.deepEqual(on, { model: 'max-min', bandwidth: 6340000000, latency: 0.000002, otherRate: 50000000 });
    await page.getByTestId('run').click();
    await waitSettled(page);
    const report = JSON.parse(await page.evaluate(() => window.placelab.reportText())).report;
    assert.equal(report.contention.model, 'max-min');
    assert.equal(report.contention.bandwidth, on.bandwidth);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
