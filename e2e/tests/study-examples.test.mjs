// The example studies one click away: the examples menu lists every study of
// playground-examples/studies/ in a "Studies" group; choosing one puts its base scenario in the
// editor (and runs it), loads the study into the panel and runs it, and the page's tidy table is
// what `placelab study` writes for the same study file, byte for byte.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { useBrowser, pickExample, artifact } from '../lib/harness.mjs';
import { buildCli, CLI } from '../lib/cli.mjs';
import { REPO } from '../lib/server.mjs';

const env = useBrowser();
before(buildCli);

const STUDIES = path.join(REPO, 'playground-examples', 'studies');

async function download(page, testId) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const file = artifact(`study-example-${dl.suggestedFilename()}`);
  await dl.saveAs(file);
  return fs.readFileSync(file, 'utf8');
}

describe('example studies', () => {
  it('the examples menu lists every example study under "Studies", by its name', async () => {
    const page = await env.open();
    const group = await page.evaluate(() => {
      const g = [...document.querySelectorAll('[data-testid=example-select] optgroup')].find((o) => o.label === 'Studies');
      return g ? [...g.querySelectorAll('option')].map((o) => ({ file: o.value, name: o.textContent })) : null;
    });
    assert.ok(group, 'no Studies group in the examples menu');
    const want = fs.readdirSync(STUDIES).filter((f) => f.endsWith('.json')).sort()
      .map((f) => ({ file: `studies/${f}`, name: JSON.parse(fs.readFileSync(path.join(STUDIES, f), 'utf8')).name }));
    assert.deepEqual(group, want);
    assert.deepEqual(page.problems, []);
  });

  it('choosing one loads its base and its axes, runs the study, and writes the CLI\'s tidy CSV byte for byte', async () => {
    const file = 'place-time-vs-size.json';
    const doc = JSON.parse(fs.readFileSync(path.join(STUDIES, file), 'utf8'));
    const page = await env.open();
    // the order of what happens: the base run drawn (the page's status), then the study running
    await page.evaluate(() => {
      window.__order = [];
      const watch = (node, who) => new MutationObserver(() => window.__order.push(`${who}:${node.dataset.status}`))
        .observe(node, { attributes: true, attributeFilter: ['data-status'] });
      watch(document.body, 'page');
      watch(document.querySelector('[data-testid=study-panel]'), 'study');
    });
    await pickExample(page, `studies/${file}`);
    assert.deepEqual(JSON.parse(await page.evaluate(() => window.placelab.scenarioText())), doc.base, 'the editor holds the study\'s base');
    assert.equal(await page.locator('#example-description').textContent(), doc.description);
    assert.equal(await page.evaluate(() => document.getElementById('study-details').open), true, 'the panel is open');
    const fields = await page.getByTestId('study-axis-field').evaluateAll((s) => s.map((x) => x.value));
    assert.deepEqual(fields, doc.axes.map((a) => a.path));
    await page.waitForFunction(() => window.placelab.study.progress?.finished, null, { timeout: 0 });
    const progress = await page.evaluate(() => window.placelab.study.progress);
    assert.equal(progress.stopped, false);
    const points = doc.axes.reduce((n, a) => n * (a.values ? a.values.length : Math.round((a.to - a.from) / a.step) + 1), 1) * doc.replicates.count;
    assert.equal(progress.done, points);
    assert.match(await page.getByTestId('study-progress').textContent(), new RegExp(`^Done: ${points} / ${points} points`));
    assert.ok(await page.getByTestId('study-chart').count() >= 1, 'the study is drawn');
    const order = await page.evaluate(() => window.__order);
    const baseDone = order.indexOf('page:done'), studyRunning = order.indexOf('study:running');
    assert.ok(baseDone >= 0 && studyRunning > baseDone, `the study starts once its base run is drawn: ${order.join(', ')}`);
    const tidy = await download(page, 'study-tidy-csv');

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placelab-study-example-'));
    const r = spawnSync(CLI, ['study', path.join(STUDIES, file), '-o', path.join(dir, 'out'), '--threads', '2']);
    assert.equal(r.status, 0, r.stderr.toString());
    assert.equal(tidy, fs.readFileSync(path.join(dir, 'out', 'tidy.csv'), 'utf8'), 'the page\'s tidy CSV is the CLI\'s');
    await page.screenshot({ path: artifact('study-example.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
  });
});
