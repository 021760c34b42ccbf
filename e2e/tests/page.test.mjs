// The page loads cleanly, draws the default example, and draws Fig. 1 exactly as the report says.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, defaultExample, checkDrawingAgainstReport, artifact } from '../lib/harness.mjs';

const env = useBrowser();

describe('page', () => {
  it('loads without console errors and draws the default example', async () => {
    const page = await env.open();
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');
    const def = await defaultExample(page);
    const report = await page.evaluate(() => window.placelab.lastReport);
    assert.equal(report.name, def.name);
    assert.equal(await page.getByTestId('example-select').inputValue(), def.file);
    assert.equal(await page.getByTestId('result-title').textContent(), def.name || 'Untitled scenario');
    assert.equal(await page.getByTestId('canvas').count(), report.report.runs.length);
    const { problems } = await checkDrawingAgainstReport(page);
    assert.deepEqual(problems, []);
    const version = await page.locator('#version').textContent();
    assert.match(version, /^v\d/);
    await page.screenshot({ path: artifact('default-example.png'), fullPage: true });
    assert.deepEqual(page.problems, [], 'console errors');
    await page.close();
  });

  it('draws Fig. 1 with job colours and contention colours only where the report says contended', async () => {
    const page = await env.open();
    assert.equal(await pickExample(page, 'fig1-4x4.json'), 'done');
    const report = await page.evaluate(() => window.placelab.lastReport);
    assert.equal(report.report.topology.kind, 'mesh');
    const { problems, stats } = await checkDrawingAgainstReport(page);
    assert.deepEqual(problems, []);
    for (const s of stats) assert.ok(s.jobColors >= 1, `${s.policy}: no job colour drawn`);
    for (const run of report.report.runs) {
      if (run.policy.startsWith('closed-min')) {
        assert.equal(run.frames[0].contendedRouters.length, 0, `${run.policy} shares a router on Fig. 1`);
      }
    }
    await page.screenshot({ path: artifact('fig1.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('shows sequential contention in heat colours and closed-min without on a set that needs it', async () => {
    // A 4x4 mesh with jobs of 3, 5 and 4 nodes: sequential cuts across rows; closed-min uses rectangles.
    const page = await env.open();
    const scenario = {
      version: 1, engine: 'allocation', name: 'contention check',
      system: { kind: 'mesh', width: 4, height: 4 }, policies: ['sequential', 'closed-min-best'],
      workload: { kind: 'set', jobs: [{ name: 'a', tasks: 3 }, { name: 'b', tasks: 5 }, { name: 'c', tasks: 4 }] },
    };
    await page.evaluate((s) => {
      const raw = document.querySelector('[data-testid=raw-json]');
      raw.value = JSON.stringify(s);
      raw.dispatchEvent(new Event('input'));
    }, scenario);
    const n = await page.evaluate(() => window.placelab.runCount);
    await page.getByTestId('run').click();
    await page.waitForFunction((k) => window.placelab.runCount > k || document.body.dataset.status === 'error', n);
    const report = await page.evaluate(() => window.placelab.lastReport.report);
    const { problems, stats } = await checkDrawingAgainstReport(page);
    assert.deepEqual(problems, []);
    const seq = stats.find((s) => s.policy === 'sequential');
    const best = stats.find((s) => s.policy === 'closed-min-best');
    assert.equal(seq.hotRouters, report.runs[0].frames[0].contendedRouters.length);
    assert.ok(seq.hotRouters > 0, 'sequential should share routers here');
    assert.equal(best.hotRouters, 0);
    await page.screenshot({ path: artifact('contention.png'), fullPage: true });
    await page.close();
  });

  it('shows the metrics table exactly as in the report', async () => {
    const page = await env.open();
    await pickExample(page, 'fig1-4x4.json');
    const result = await page.evaluate(() => {
      const report = window.placelab.lastReport.report;
      const cells = [...document.querySelectorAll('[data-testid=metrics-table] td')];
      const heads = [...document.querySelectorAll('[data-testid=metrics-table] thead th')].slice(1).map((th) => th.textContent);
      const bad = [];
      for (const td of cells) {
        const want = report.runs[Number(td.dataset.run)].summary[td.dataset.metric];
        if (td.dataset.value !== JSON.stringify(want ?? null)) bad.push(`${td.dataset.metric}/${td.dataset.run}: ${td.dataset.value} vs ${JSON.stringify(want)}`);
        const shown = td.textContent;
        if (typeof want === 'number' && Math.abs(Number(shown) - want) > Math.max(1e-3, Math.abs(want) * 1e-3)) bad.push(`${td.dataset.metric}: shows ${shown}, report ${want}`);
      }
      const keys = Object.keys(report.runs[0].summary);
      return { bad, cells: cells.length, expected: keys.length * report.runs.length, heads, labels: report.runs.map((r) => r.label) };
    });
    assert.deepEqual(result.bad, []);
    assert.equal(result.cells, result.expected);
    assert.deepEqual(result.heads, result.labels);
    // Per-job table: open it and compare the first policy's rows.
    await page.locator('.jobs-details > summary').click();
    await page.getByTestId('jobs-table').waitFor();
    const jobs = await page.evaluate(() => {
      const report = window.placelab.lastReport.report;
      const rows = [...document.querySelectorAll('[data-testid=jobs-table] tbody tr')];
      const head = [...document.querySelectorAll('[data-testid=jobs-table] thead th')].map((th) => th.textContent);
      const nameCol = head.indexOf('name');
      return { rows: rows.length, jobs: report.runs[0].jobs.length, names: rows.map((r) => r.children[nameCol].textContent), want: report.runs[0].jobs.map((j) => j.name) };
    });
    assert.equal(jobs.rows, Math.min(500, jobs.jobs));
    assert.deepEqual(jobs.names, jobs.want.slice(0, 500));
    await page.close();
  });

  it('shows a tooltip with the node, its job and its metrics on hover', async () => {
    const page = await env.open();
    await pickExample(page, 'fig1-4x4.json');
    const [x, y] = await page.evaluate(() => window.placelab.view.nodeSample(5));
    const box = await page.getByTestId('canvas').first().boundingBox();
    await page.mouse.move(box.x + x, box.y + y);
    const tip = page.locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    const text = await tip.textContent();
    assert.match(text, /node 5 \(x 1, y 1\)/);
    assert.match(text, /diameter/);
    await page.close();
  });
});
