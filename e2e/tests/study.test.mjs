// The Study panel: a study built from the form (an axis over a form field, replicates, the
// engine's headline metrics) runs on a pool of Web Workers; the charts are drawn as points arrive
// (one line per policy with its 95 % band, bars for a categorical axis, small multiples for two
// axes); the tidy and aggregate CSV equal the files `placelab study` wrote for the same study
// (e2e/fixtures/study-interarrival/, see its README); Stop keeps the finished points, whose rows
// are the CLI's rows of the same points; the study travels in a share link (v2) and comes back;
// a tidy CSV or JSON Lines file the CLI wrote draws the same charts; a bad axis value and a study
// over the page's limit are refused with a message before anything runs; no main-thread task
// over 200 ms while 1,000 points arrive.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import zlib from 'node:zlib';
import { useBrowser, pickExample, artifact } from '../lib/harness.mjs';
import { readyPage, assertNoLongTask } from '../lib/longtasks.mjs';
import { buildCli, CLI } from '../lib/cli.mjs';
import { buildStudy, settledCount, runStudy } from '../lib/studypanel.mjs';
import { REPO } from '../lib/server.mjs';

const env = useBrowser();
before(buildCli);

const FIXTURE = path.join(REPO, 'e2e', 'fixtures', 'study-interarrival');
const fixture = (name) => fs.readFileSync(path.join(FIXTURE, name), 'utf8');

/** Study workers alive now: the helper, and the point workers while a study runs. */
const studyWorkers = (page) => page.workers().filter((w) => /study\/worker/.test(w.url())).length;

async function download(page, testId) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const file = artifact(`study-${dl.suggestedFilename()}`);
  await dl.saveAs(file);
  return fs.readFileSync(file, 'utf8');
}

/** What each chart drew: [{kind, series, drawn, marks}]. */
const charts = (page) => page.evaluate(() => [...document.querySelectorAll('[data-testid=study-chart]')].map((c) => ({
  kind: c.dataset.kind, series: Number(c.dataset.series), drawn: Number(c.dataset.drawn), marks: JSON.parse(c.dataset.marks),
})));

/**
 * Inside the page: every mark's pixel shows its series' colour (the palette's), or, where marks
 * of several series coincide (two policies with the same mean), the colour of the one drawn last.
 */
async function marksInSeriesColours(page) {
  return page.evaluate(async () => {
    const { seriesColor } = await import(window.__studyDrawUrl);
    const problems = [];
    const hex = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
    for (const canvas of document.querySelectorAll('[data-testid=study-chart]')) {
      const ctx = canvas.getContext('2d');
      const marks = JSON.parse(canvas.dataset.marks);
      for (const [s, j, x, y] of marks) {
        const p = ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data;
        const top = Math.max(...marks.filter((m) => Math.hypot(m[2] - x, m[3] - y) < 4).map((m) => m[0]));
        const want = hex(seriesColor(top));
        const d = Math.abs(p[0] - want[0]) + Math.abs(p[1] - want[1]) + Math.abs(p[2] - want[2]);
        if (d > 60) problems.push(`series ${s} at x index ${j}: rgb(${p[0]},${p[1]},${p[2]}) not ${seriesColor(s)}`);
      }
    }
    return problems;
  });
}

async function studyPage(file) {
  const page = await env.open();
  const { moduleUrl } = await import('../lib/harness.mjs');
  await page.evaluate((u) => { window.__studyDrawUrl = u; }, moduleUrl('draw/study.js'));
  if (file) await pickExample(page, file);
  return page;
}

/** The fixture's study, as the form builds it (e2e/fixtures/study-interarrival/README.md). */
const FIXTURE_FORM = { axes: [{ field: 'workload.meanInterarrival', values: '0.8, 1.6, 3.2' }], replicates: 3, seed: 7 };

/** `placelab study` of `text` into a fresh directory: its files' texts by name. */
function cliStudy(text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placelab-study-'));
  fs.writeFileSync(path.join(dir, 'study.json'), text);
  const r = spawnSync(CLI, ['study', path.join(dir, 'study.json'), '-o', path.join(dir, 'out'), '--threads', '2']);
  assert.equal(r.status, 0, r.stderr.toString());
  const read = (n) => fs.readFileSync(path.join(dir, 'out', n), 'utf8');
  return { tidy: read('tidy.csv'), aggregate: read('aggregate.csv') };
}

describe('study panel', () => {
  let fixtureMarks = null;
  let fixtureWidth = null;

  it('builds a study from the form, runs it on two workers, draws a line per policy with its band, and writes the CLI\'s CSV byte for byte', async () => {
    const page = await studyPage('mesh64-random-stream.json');
    const count = await buildStudy(page, { ...FIXTURE_FORM, workers: 2 });
    assert.deepEqual(count, { points: 9, ok: true, error: '' });
    await runStudy(page);
    const progress = await page.evaluate(() => window.placelab.study.progress);
    assert.equal(progress.done, 9);
    assert.equal(progress.workers, 2);
    assert.equal(progress.stopped, false);
    assert.match(await page.getByTestId('study-progress').textContent(), /^Done: 9 \/ 9 points · ([\d.]+ points\/s|[\d.]+ s a point) · [\d.]+ s · 2 workers$/);

    const tidy = await download(page, 'study-tidy-csv');
    assert.equal(tidy, fixture('tidy.csv'), 'the page\'s tidy CSV is the CLI\'s byte for byte');
    assert.equal(await download(page, 'study-aggregate-csv'), fixture('aggregate.csv'), 'the aggregate CSV too');
    assert.equal(await download(page, 'study-tidy-jsonl'), fixture('tidy.jsonl'), 'and the tidy JSON Lines');

    const policies = new Set(fixture('tidy.csv').trim().split('\n').slice(1).map((l) => l.split(',')[4]));
    const drawn = await charts(page);
    await page.evaluate(() => { window.__marks0 = document.querySelector('[data-testid=study-chart]').dataset.marks; });
    assert.equal(drawn.length, 1);
    assert.equal(drawn[0].kind, 'line');
    assert.equal(drawn[0].series, policies.size, 'one line per policy');
    assert.equal(drawn[0].drawn, 3 * policies.size, 'a mean per policy and axis value');
    // mean hops: the policies' lines lie apart (utilization: two coincide)
    await page.getByTestId('study-metric').selectOption({ label: 'report.runs[*].summary.meanHops' });
    await page.waitForFunction(() => document.querySelector('[data-testid=study-chart]').dataset.marks !== window.__marks0, null, { timeout: 0 });
    assert.deepEqual(await marksInSeriesColours(page), []);
    await page.getByTestId('study-metric').selectOption({ index: 0 });
    // the chart's numbers are the aggregate table's
    const snap = await page.evaluate(() => window.placelab.study.snapshot);
    const agg = fixture('aggregate.csv').trim().split('\n').slice(1).map((l) => l.split(','));
    for (const c of snap.cells) {
      const row = agg.find((r) => Number(r[0]) === snap.axes[0].values[c.a[0]] && r[1] === snap.series[c.s] && r[2] === snap.metrics[c.m]);
      assert.ok(row, `an aggregate row for cell ${JSON.stringify(c)}`);
      assert.equal(c.n, Number(row[3]));
      if (row[5] !== '') assert.equal(c.mean, Number(row[5]));
      if (row[7] !== '') assert.equal(c.ciLow, Number(row[7]));
    }
    // the band: pixels between a line's mean and its CI bound are tinted (not the background)
    const banded = await page.evaluate(() => {
      const canvas = document.querySelector('[data-testid=study-chart]');
      const ctx = canvas.getContext('2d');
      let tinted = 0;
      for (let y = 30; y < canvas.height - 40; y += 2) for (let x = 60; x < canvas.width - 20; x += 2) {
        const p = ctx.getImageData(x, y, 1, 1).data;
        if (p[0] < 250 && p[0] > 150 && !(p[0] === p[1] && p[1] === p[2])) tinted += 1;
      }
      return tinted;
    });
    assert.ok(banded > 50, `a shaded confidence band is drawn (${banded} tinted pixels)`);
    fixtureMarks = drawn;
    fixtureWidth = await page.evaluate(() => document.getElementById('study-charts').clientWidth);
    assert.deepEqual(page.problems, []);
  });

  it('opens the CLI\'s tidy CSV and JSON Lines and draws the same charts', async () => {
    const page = await studyPage('mesh64-random-stream.json');
    await page.evaluate(() => { document.getElementById('study-details').open = true; });
    for (const name of ['tidy.csv', 'tidy.jsonl']) {
      await page.evaluate(() => { document.querySelector('[data-testid=study-panel]').dataset.status = 'idle'; });
      await page.getByTestId('study-open-file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(fixture(name)) });
      await page.waitForFunction(() => document.querySelector('[data-testid=study-panel]').dataset.status === 'file');
      const drawn = await charts(page);
      const width = await page.evaluate(() => document.getElementById('study-charts').clientWidth);
      if (fixtureMarks) assert.deepEqual(drawn, fixtureMarks, `${name}: the charts of the run (charts ${width} px wide, the run's ${fixtureWidth})`);
      else assert.equal(drawn[0].kind, 'line');
      assert.match(await page.getByTestId('study-progress').textContent(), new RegExp(`^${name.replace('.', '\\.')}: 9 points`));
    }
    // not a tidy table: a message, the charts stay
    await page.evaluate(() => { const e = document.querySelector('[data-testid=study-error]'); e.textContent = ''; e.hidden = true; });
    await page.getByTestId('study-open-file').setInputFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') });
    await page.waitForFunction(() => document.querySelector('[data-testid=study-error]').textContent.startsWith('other.csv'));
    assert.match(await page.getByTestId('study-error').textContent(), /^other\.csv: not a study's tidy table/);
    assert.equal((await charts(page)).length, 1);
    assert.deepEqual(page.problems, []);
  });

  it('Stop keeps the finished points: their charts, and tidy rows equal to the CLI\'s rows of the same points', async () => {
    const page = await studyPage('mesh64-random-stream.json');
    await buildStudy(page, { axes: [{ field: 'workload.meanInterarrival', values: '0.8, 1.6, 3.2, 6.4' }], replicates: 50, seed: 3, workers: 2 });
    await page.getByTestId('study-run').click();
    await page.waitForFunction(() => (window.placelab.study.progress?.done ?? 0) >= 4, null, { timeout: 0 });
    // while it runs, the line says what is left at the pace so far
    await page.waitForFunction(() => / left$/.test(document.querySelector('[data-testid=study-progress]').textContent)
      || document.querySelector('[data-testid=study-panel]').dataset.status !== 'running', null, { timeout: 0 });
    assert.match(await page.getByTestId('study-progress').textContent(),
      /^\d+ \/ 200 points · ([\d.]+ points\/s|[\d.]+ s a point) · [\d.]+ s · 2 workers · about [\d.]+ (s|min|h) left$/);
    await page.getByTestId('study-stop').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=study-panel]').dataset.status === 'stopped', null, { timeout: 0 });
    const progress = await page.evaluate(() => window.placelab.study.progress);
    assert.ok(progress.stopped && progress.done >= 4 && progress.done < 200, JSON.stringify(progress));
    assert.match(await page.getByTestId('study-progress').textContent(), new RegExp(`^Stopped: ${progress.done} / 200 points · [^]* · 2 workers$`));
    const snap = await page.evaluate(() => window.placelab.study.snapshot);
    assert.equal(snap.points, progress.done, 'the charts hold every finished point');
    assert.ok((await charts(page))[0].drawn > 0);
    while (studyWorkers(page) > 1) await new Promise((r) => { setTimeout(r, 50); }); // only the helper is left

    const partial = await download(page, 'study-tidy-csv');
    const full = cliStudy(await page.evaluate(() => window.placelab.study.studyText())).tidy.split('\n');
    const lines = partial.split('\n');
    assert.equal(lines[0], full[0]);
    const points = new Set(lines.slice(1).filter(Boolean).map((l) => l.split(',')[0]));
    assert.equal(points.size, progress.done);
    assert.deepEqual(lines.slice(1).filter(Boolean), full.slice(1).filter((l) => points.has(l.split(',')[0])),
      'the stopped run\'s rows are the CLI\'s rows of the same points, in point order');
    // the page runs again after Stop
    await buildStudy(page, { axes: [{ field: 'workload.meanInterarrival', values: '0.8, 1.6' }], replicates: 2, seed: 3 });
    await runStudy(page);
    assert.equal((await page.evaluate(() => window.placelab.study.progress)).done, 4);
    assert.deepEqual(page.problems, []);
  });

  it('puts the study in the share link (v2) and a new page opens it with the same study', async () => {
    const page = await studyPage('mesh64-random-stream.json');
    await buildStudy(page, { axes: [{ field: 'workload.meanInterarrival', values: '0.8, 1.6, 3.2' }, { field: 'workload.count', mode: 'step', from: 100, to: 300, step: 100 }], replicates: 4, seed: '18446744073709551615' });
    const text = await page.evaluate(() => window.placelab.study.studyText());
    await page.getByTestId('share').click();
    await page.waitForFunction(() => location.hash.startsWith('#v2.'));
    const hash = await page.evaluate(() => location.hash);
    const again = await env.open(hash);
    await again.waitForFunction(() => document.getElementById('study-details').open);
    const count = await settledCount(again);
    assert.deepEqual(count, { points: 36, ok: true, error: '' });
    assert.equal(await again.evaluate(() => window.placelab.study.studyText()), text, 'the same study document, byte for byte');
    assert.equal(await again.getByTestId('study-base-seed').inputValue(), '18446744073709551615');
    // a v2 link made outside the page (node's zlib) opens the same way
    const scenario = await again.evaluate(() => window.placelab.scenarioText());
    const doc = { axes: [{ path: 'workload.meanInterarrival', from: 1, to: 8, count: 4, scale: 'log' }], replicates: { count: 2, baseSeed: '5' }, metrics: ['report.runs[*].summary.meanWait'] };
    const frozen = await env.open(`#v2.${zlib.gzipSync(Buffer.from(JSON.stringify({ scenario, study: doc }))).toString('base64url')}`);
    await frozen.waitForFunction(() => document.getElementById('study-details').open);
    assert.deepEqual(await settledCount(frozen), { points: 8, ok: true, error: '' });
    assert.equal(await frozen.getByTestId('study-axis-scale').inputValue(), 'log');
    assert.equal(await frozen.getByTestId('study-metrics').inputValue(), 'report.runs[*].summary.meanWait');
    assert.deepEqual(frozen.problems, []);
    // a link without a study is still v1
    await again.evaluate(() => { document.getElementById('study-details').open = false; });
    await again.getByTestId('share').click();
    await again.waitForFunction(() => location.hash.startsWith('#v1.'));
    assert.deepEqual(page.problems, []);
    assert.deepEqual(again.problems, []);
  });

  it('refuses a bad axis value, an out-of-range value and a study over the limit with a message, before anything runs', async () => {
    const page = await studyPage('fig1-4x4.json');
    let count = await buildStudy(page, { axes: [{ field: 'system.width', values: '4, x' }], replicates: 2, seed: 1 });
    assert.equal(count.ok, false);
    assert.equal(count.error, 'axis system.width: "x" is not a number');
    count = await buildStudy(page, { axes: [{ field: 'system.width', values: '4, 600' }], replicates: 2, seed: 1 });
    assert.equal(count.ok, false);
    assert.match(count.error, /^\$\.axes\[0\]\.values\[1\]: axis system\.width: 600 is outside the field's range/);
    await page.getByTestId('study-run').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=study-progress]').textContent === 'Refused before running');
    assert.match(await page.getByTestId('study-error').textContent(), /values\[1\]: axis system\.width: 600/);
    assert.equal(studyWorkers(page), 1, 'no point worker started');
    count = await buildStudy(page, { axes: [{ field: 'system.width', values: '4, 8' }], replicates: 20000, seed: 1 });
    assert.equal(count.points, 40000);
    assert.equal(count.ok, false);
    assert.match(count.error, /^the study has 40,000 points \(2 combinations × 20,000 replicates\); the page runs at most 20,000/);
    assert.deepEqual(page.problems, []);
  });

  it('draws bars with error bars for a categorical axis and small multiples for two axes', async () => {
    const page = await studyPage('mesh64-random-stream.json');
    await buildStudy(page, { axes: [{ field: 'workload.sizeDistribution', values: 'uniform, logUniform' }, { field: 'workload.count', values: '50, 100, 150' }], replicates: 2, seed: 1 });
    await runStudy(page);
    const drawn = await charts(page);
    assert.equal(drawn.length, 3, 'one panel per value of the second axis');
    for (const c of drawn) {
      assert.equal(c.kind, 'bars');
      assert.equal(c.drawn, 2 * c.series);
    }
    assert.deepEqual(await marksInSeriesColours(page), []);
    // the PNG: the legend above the three panels
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('study-png').click()]);
    const png = fs.readFileSync(await dl.path());
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.ok(png.readUInt32BE(16) >= 3 * 260 && png.readUInt32BE(20) > 260, `PNG ${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`);
    assert.deepEqual(page.problems, []);
  });

  it('cuts at 0 the drawn interval of a metric that is never negative, says so in the legend, and keeps the table\'s', async () => {
    const page = await studyPage('mesh64-random-stream.json');
    await page.evaluate(() => { document.getElementById('study-details').open = true; });
    // two replicates a point: `report.a` is never negative (0 and 10: t's interval reaches -58.5),
    // `report.b` has a negative value, so its interval is drawn as computed
    const csv = 'point,replicate,seed,job.kind,status,report.a,report.b,error\n'
      + '0,0,1,STAR,ok,0,-1,\n0,1,2,STAR,ok,10,5,\n1,0,1,GRID,ok,2,3,\n1,1,2,GRID,ok,4,4,\n';
    await page.getByTestId('study-open-file').setInputFiles({ name: 'signs.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.waitForFunction(() => document.querySelector('[data-testid=study-panel]').dataset.status === 'file');
    const shown = async (m) => {
      await page.getByTestId('study-metric').selectOption({ index: m });
      return page.evaluate(() => ({
        legend: document.querySelector('[data-testid=study-legend]').getAttribute('aria-label'),
        y: JSON.parse(document.querySelector('[data-testid=study-chart]').dataset.yRange),
        ciLow: window.placelab.study.snapshot.cells.filter((c) => c.m === Number(document.querySelector('[data-testid=study-metric]').value)).map((c) => c.ciLow),
      }));
    };
    const a = await shown(0);
    assert.match(a.legend, /cut at 0: no value is negative/);
    assert.ok(a.ciLow.some((v) => v < 0), `the model keeps the interval as computed: ${a.ciLow}`);
    assert.equal(a.y[0], 0, `the axis starts at 0: ${a.y}`);
    const b = await shown(1);
    assert.doesNotMatch(b.legend, /cut at 0/);
    assert.ok(b.y[0] < 0, `a metric with a negative value keeps its interval below 0: ${b.y}`);
    // the table shows the interval as computed
    assert.match(await page.getByTestId('study-aggregate').textContent(), /-5\d\.\d+ – 6\d\.\d+/);
    // one replicate: no interval to draw, and the legend says so instead of naming one
    await page.evaluate(() => { document.querySelector('[data-testid=study-panel]').dataset.status = 'idle'; });
    const one = csv.split('\n').filter((l) => !/^\d+,1,/.test(l)).join('\n');
    await page.getByTestId('study-open-file').setInputFiles({ name: 'one.csv', mimeType: 'text/csv', buffer: Buffer.from(one) });
    await page.waitForFunction(() => document.querySelector('[data-testid=study-panel]').dataset.status === 'file');
    const single = await shown(0);
    assert.match(single.legend, /no confidence interval: one replicate each/);
    assert.doesNotMatch(single.legend, /95 %/);
    assert.deepEqual(page.problems, []);
  });

  it('keeps every main-thread task under 200 ms while 1,000 points arrive', async () => {
    const page = await readyPage(env);
    await pickExample(page, 'fig1-4x4.json');
    await buildStudy(page, { axes: [{ field: 'system.width', values: '4, 5, 6, 7, 8' }, { field: 'system.height', values: '4, 6' }], replicates: 100, seed: 1 });
    await page.evaluate(() => { window.__longTasks = []; }); // the tasks while the points arrive, not the page's loading
    await runStudy(page);
    assert.equal((await page.evaluate(() => window.placelab.study.progress)).done, 1000);
    assert.equal((await charts(page)).length, 2);
    await assertNoLongTask(page, '1,000 study points');
    assert.deepEqual(page.problems, []);
  });
});
