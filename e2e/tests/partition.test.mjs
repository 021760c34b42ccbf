// The partitioning engine in the page: the Delaunay example drawn in part colours with
// its cut edges in red and figures that equal a recount from the part vectors; the part-file
// export equals the CLI's part vector; METIS files, edge lists and coordinates open through the
// file input (a bad file names its line); a 100,000-vertex mesh runs with progress and Stop and
// never blocks the main thread.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { useBrowser, pickExample, waitSettled, artifact } from '../lib/harness.mjs';
import { buildCli, cli, link } from '../lib/cli.mjs';
import { GOAL_MS, observedPage, assertNoLongTask, stopLatency } from '../lib/longtasks.mjs';

const env = useBrowser();
const SETTLE_MS = 600_000; // a bound for waiting, not a goal
const EXAMPLE = 'partition-delaunay-2000.json';

async function download(page, testId) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const file = artifact(`download-${dl.suggestedFilename()}`);
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), text: await fs.readFile(file, 'utf8') };
}

async function open(page, name, text) {
  await page.evaluate(() => { window.__before = [window.placelab.lastReport, window.placelab.lastError]; });
  await page.getByTestId('open-file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction(() => window.placelab.lastReport !== window.__before[0] || window.placelab.lastError !== window.__before[1]);
  await waitSettled(page);
}

/** In the page: for each run, the drawn cut edges recounted from the part vector, and pixel checks. */
async function inspect() {
  // a resize may have scheduled a redraw: let it happen first
  await new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(resolve)); });
  const hex = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
  const PALETTE = ['#0072B2', '#E69F00', '#56B4E9', '#009E73', '#F0E442', '#CC79A7',
    '#332288', '#44AA99', '#999933', '#88CCEE', '#AA4499', '#DDCC77'].map(hex);
  const { report } = window.placelab.lastReport;
  const d = report.drawing;
  const canvases = [...document.querySelectorAll('[data-testid=canvas]')];
  return report.runs.map((run, i) => {
    let cut = 0;
    for (let e = 0; e < d.edges.length / 2; e++) if (run.part[d.edges[2 * e]] !== run.part[d.edges[2 * e + 1]]) cut++;
    // pixels: interior vertices (no neighbour in another part) show their part's colour
    const canvas = canvases[i];
    const ctx = canvas.getContext('2d');
    const img = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const ratio = canvas.width / canvas.clientWidth;
    const boundary = new Uint8Array(d.xy.length / 2);
    for (let e = 0; e < d.edges.length / 2; e++) {
      const u = d.edges[2 * e], v = d.edges[2 * e + 1];
      if (run.part[u] !== run.part[v]) { boundary[u] = 1; boundary[v] = 1; }
    }
    let checked = 0, matching = 0, red = 0;
    for (let v = 0; v < boundary.length; v++) {
      if (boundary[v]) continue;
      const [bx, by, size] = window.placelab.view.vertexBox(i, v);
      const px = Math.floor((bx + size / 2) * ratio), py = Math.floor((by + size / 2) * ratio);
      const at = 4 * (py * canvas.width + px);
      const want = PALETTE[run.part[v] % 12];
      checked++;
      if (Math.abs(img[at] - want[0]) + Math.abs(img[at + 1] - want[1]) + Math.abs(img[at + 2] - want[2]) < 24) matching++;
    }
    for (let at = 0; at < img.length; at += 4) if (img[at] > 200 && img[at + 1] < 60 && img[at + 2] < 80) red++;
    return { method: run.method, cutRecount: cut, cutEdges: run.cutEdges, edgeCut: run.edgeCut, checked, matching, red,
      caption: document.querySelectorAll('[data-testid=part-caption]')[i].textContent };
  });
}

describe('partitioning in the page', () => {
  it('draws the examples: parts in their colours, cut edges in red, figures equal to a recount', async () => {
    const page = await env.open();
    // [example, methods, whether its parts have interior vertices to check pixels on]
    for (const [file, methods, pixels] of [['partition-grid-64x64.json', 3, true], [EXAMPLE, 5, false]]) {
      await pickExample(page, file);
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', await page.getByTestId('error-text').textContent());
      assert.equal(await page.locator('[data-testid=canvas]').count(), methods, 'one panel per method');
      assert.equal(await page.locator('[data-testid=balance]').count(), methods, 'balance bars per method');
      const runs = await page.evaluate(inspect);
      for (const r of runs) {
        // unit edge weights: the edge cut is the number of cut edges, recounted from the part vector
        assert.equal(r.cutRecount, r.cutEdges, `${file} ${r.method}: cut edges`);
        assert.equal(r.cutRecount, r.edgeCut, `${file} ${r.method}: edge cut`);
        assert.match(r.caption, new RegExp(`^cut ${r.edgeCut.toLocaleString('en-US')} · volume`));
        if (pixels) assert.ok(r.checked > 100 && r.matching >= 0.9 * r.checked, `${file} ${r.method}: ${r.matching} of ${r.checked} interior vertices in their part's colour`);
        if (r.cutEdges > 0) assert.ok(r.red > 0, `${file} ${r.method}: no cut edge drawn in red`);
      }
      const cells = await page.locator('[data-testid=metrics-table] td[data-metric=edgeCut]').allTextContents();
      assert.deepEqual(cells.map(Number), runs.map((r) => r.edgeCut), 'the methods table shows each cut');
      const times = await page.locator('[data-testid=metrics-table] td[data-metric=ms]').allTextContents();
      assert.equal(times.length, methods);
      for (const t of times) assert.match(t, /^\d+$/, 'each method\'s time, measured by the page');
      if (pixels) {
        // hovering a vertex names it and its part
        const [bx, by, size] = await page.evaluate(() => window.placelab.view.vertexBox(1, 100));
        const box = await page.locator('[data-testid=canvas]').nth(1).boundingBox();
        await page.mouse.move(box.x + bx + size / 2, box.y + by + size / 2);
        const tip = page.getByTestId('part-tooltip');
        await tip.waitFor({ state: 'visible' });
        const part = await page.evaluate(() => window.placelab.lastReport.report.runs[1].part[100]);
        assert.match(await tip.textContent(), new RegExp(`^vertex 101 .*part ${part}: weight`));
        await page.mouse.move(0, 0);
      }
      await page.screenshot({ path: artifact(`partition-${file.replace('.json', '')}.png`), fullPage: true });
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('exports the chosen method\'s part file, equal to the CLI\'s part vector', async () => {
    buildCli();
    const page = await env.open();
    await pickExample(page, EXAMPLE);
    const scenario = await page.evaluate(() => window.placelab.scenarioText());
    const native = JSON.parse(cli(scenario).stdout.toString('utf8')).report;
    for (const method of ['rb', 'random']) {
      await page.selectOption('[data-testid=part-method]', method);
      const file = await download(page, 'export-part');
      assert.match(file.name, new RegExp(`\\.${method}\\.part\\.8$`));
      const want = native.runs.find((r) => r.method === method).part;
      assert.equal(file.text, `${want.join('\n')}\n`, `${method}: one part id per line, vertex 1 first`);
    }
    const parts = await download(page, 'export-jobs-csv');
    assert.match(parts.name, /\.parts\.csv$/);
    assert.equal(parts.text.trim().split('\n').length, 1 + 8, 'a header and one row per part');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('imports a METIS graph, its coordinates and an edge list through Open file; a bad file names its line', async () => {
    const page = await env.open();
    // from the allocation engine: a .graph file makes a partitioning scenario
    const graph = '% a 6-cycle with a chord\n6 7\n2 6\n1 3\n2 4 6\n3 5\n4 6\n1 5 3\n';
    await open(page, 'cycle.graph', graph);
    let view = await page.evaluate(() => window.placelab.lastReport);
    assert.equal(await page.evaluate(() => window.placelab.lastError), null);
    assert.equal(view.engine, 'partition');
    assert.equal(view.name, 'cycle.graph (METIS graph)');
    assert.deepEqual([view.report.graph.vertices, view.report.graph.edges], [6, 7]);
    assert.equal(view.report.drawing.kind, 'layout', 'no coordinates: a force-directed layout');

    await open(page, 'cycle.xyz', '0 0\n1 0\n2 1\n1 2\n0 2\n-1 1\n');
    view = await page.evaluate(() => window.placelab.lastReport);
    assert.equal(view.report.drawing.kind, 'coordinates');
    assert.equal(view.report.graph.vertices, 6, 'the same graph');

    await open(page, 'broken.graph', '3 2\n2\n1 3\n2 9\n');
    const err = await page.evaluate(() => window.placelab.lastError);
    assert.equal(err.path, '$.graph.text');
    assert.match(err.message, /^line 4:/);
    assert.equal(await page.evaluate(() => window.placelab.lastReport.report.graph.vertices), 6, 'the last good result stays');

    // an edge list named .txt is recognised by its content
    await open(page, 'pairs.txt', '0 1\n1 2\n2 0\n3 4 5\n');
    view = await page.evaluate(() => window.placelab.lastReport);
    assert.equal(view.report.graph.kind, 'edgeList');
    assert.deepEqual([view.report.graph.vertices, view.report.graph.components], [5, 2]);
    const text = await page.evaluate(() => window.placelab.scenarioText());
    assert.match(text, /"k": 8/, 'the current scenario\'s other fields are kept');
    await page.screenshot({ path: artifact('partition-import.png') });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('runs a 100,000-vertex Delaunay mesh with progress and Stop, never blocking the main thread', async () => {
    const scenario = JSON.stringify({ version: 1, engine: 'partition', name: '100,000-vertex Delaunay mesh', seed: 1,
      graph: { kind: 'delaunay', n: 100000 }, k: 16, methods: ['kway', 'rb', 'strong', 'linear', 'random'] });
    const page = await observedPage(env, link(scenario));
    await page.waitForFunction(() => document.body.dataset.status === 'running', null, { timeout: SETTLE_MS });
    await page.waitForFunction(() => !document.querySelector('[data-testid=progress]').hidden, null, { timeout: SETTLE_MS });
    const ms = await stopLatency(page);
    console.log(`# Stop answered in ${ms} ms`);
    assert.ok(ms <= GOAL_MS, `Stop took ${ms} ms`);

    await page.getByTestId('run').click();
    await waitSettled(page, SETTLE_MS);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', await page.getByTestId('error-text').textContent());
    console.log(`# 100,000-vertex mesh, 5 methods: ${await page.getByTestId('run-info').textContent()}`);
    // the panels are drawn one per animation frame: wait for the last caption
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=part-caption]')].every((c) => c.textContent));
    await page.screenshot({ path: artifact('partition-100k.png') });
    await assertNoLongTask(page, '100,000-vertex Delaunay mesh, stopped then run to the end');
    const cuts = await page.evaluate(() => window.placelab.lastReport.report.runs.map((r) => [r.cutEdges, r.cut.reduce((a, b) => a + b, 0)]));
    for (const [all, drawn] of cuts) assert.equal(drawn, all, 'every edge is in the drawing, so every cut edge is flagged');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
