// The trace engine's page: every trace example draws its ranking, timeline and link
// fits (and predicted against measured when measured times are given), the timeline's pixels
// show each segment's kind where the report puts it, the machinefile download is the report's, a
// dropped trace becomes the scenario's trace, a bad trace names its line while the last good
// drawing stays, the search sentence names identical ranks when the report found some, and the
// 8-node example leaves no main-thread task over 200 ms.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { useBrowser, pickExample, waitSettled, artifact, moduleUrl } from '../lib/harness.mjs';
import { readyPage, assertNoLongTask } from '../lib/longtasks.mjs';
import { typeRawJson } from '../lib/harness.mjs';
import { REPO } from '../lib/server.mjs';

const env = useBrowser();

/** The trace examples of the menu: {file, nodes} (nodes null when they come from a SimGrid platform file). */
const EXAMPLES = fs.readdirSync(path.join(REPO, 'playground-examples')).filter((f) => f.endsWith('.json')).sort().flatMap((file) => {
  const doc = JSON.parse(fs.readFileSync(path.join(REPO, 'playground-examples', file), 'utf8'));
  return doc.engine === 'trace' ? [{ file, nodes: doc.nodes ? doc.nodes.length : null }] : [];
});

/** The six lines of the source's table 1 (MPE ALOG): one 7992-byte message, rank 0 to 1. */
const TABLE1 = '155 1 0 1 0 1189\n161 0 0 1 0 1335\n-101 0 0 1 0 1 1395 0 7992\n162 0 0 2 0 1 1575\n-102 1 0 0 0 1 2158 0 7992\n156 1 0 2 0 1 2198\n';

/** The SimGrid SMPI ground truth of the block LU (tests/fixtures/smpi/lu-block). */
const SMPI_EXAMPLE = 'trace-smpi-lu.json';

async function open(page, name, text) {
  await page.evaluate(() => { window.__before = [window.placelab.lastReport, window.placelab.lastError]; });
  await page.getByTestId('open-file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction(() => window.placelab.lastReport !== window.__before[0] || window.placelab.lastError !== window.__before[1], null, { timeout: 0 });
  await waitSettled(page);
}

/**
 * Inside the page: every pixel column of every rank's row of the drawn timeline against the
 * report's segments. Recomputed here from the segments: the time each kind covers in the
 * column; the pixel at the row's middle must show the kind covering the most (columns where two
 * kinds cover nearly the same are skipped), or the background where nothing does. Returns the
 * problems (the first 20), the columns checked and the kinds seen.
 */
function checkTimeline(page) {
  return page.evaluate(async (url) => {
    const { SEGMENT_KINDS, TIMELINE_BACKGROUND } = await import(url);
    const tl = window.placelab.lastReport.report.timeline;
    const map = window.placelab.view.timeline;
    const canvas = document.querySelector('[data-testid=trace-timeline]');
    const dpr = window.devicePixelRatio || 1;
    const img = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const hex = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
    const colors = SEGMENT_KINDS.map((k) => hex(k.color));
    const seg = tl.segments, ranks = tl.nodes.length, cols = map.columns, K = SEGMENT_KINDS.length;
    const per = tl.makespan / cols;
    const cover = new Float64Array(ranks * cols * K);
    for (let i = 0; i < seg.length; i++) {
      for (let c = Math.max(0, Math.floor(seg.start[i] / per) - 1); c < cols; c++) {
        const lo = c * per, hi = (c + 1) * per;
        if (seg.end[i] <= lo) break;
        if (seg.start[i] >= hi) continue;
        cover[(seg.rank[i] * cols + c) * K + seg.kind[i]] += Math.min(hi, seg.end[i]) - Math.max(lo, seg.start[i]);
      }
    }
    const problems = [];
    let checked = 0;
    const seen = new Set();
    for (let r = 0; r < ranks; r++) {
      const y = Math.floor((map.rowY(r) + map.rowH / 2) * dpr);
      for (let c = 0; c < cols; c++) {
        const v = Array.from(cover.subarray((r * cols + c) * K, (r * cols + c + 1) * K));
        const order = v.map((x, k) => [x, k]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
        if (order[0][0] > 0 && order[0][0] - order[1][0] < per * 1e-6) continue;
        const want = order[0][0] > 0 ? colors[order[0][1]] : hex(TIMELINE_BACKGROUND);
        const at = (y * canvas.width + Math.floor((map.left + c + 0.5) * dpr)) * 4;
        const p = img.data.subarray(at, at + 3);
        checked++;
        if (order[0][0] > 0) seen.add(order[0][1]);
        if (Math.abs(p[0] - want[0]) + Math.abs(p[1] - want[1]) + Math.abs(p[2] - want[2]) > 12 && problems.length < 20) {
          problems.push(`rank ${r} column ${c}: rgb(${[...p]}) where the segments say ${order[0][0] > 0 ? SEGMENT_KINDS[order[0][1]].id : 'nothing'}`);
        }
      }
    }
    return { problems, checked, kinds: [...seen].sort(), ranks, cols };
  }, moduleUrl('draw/trace.js'));
}

describe('trace page', () => {
  it('has trace examples, one of them on 8 nodes', () => {
    assert.ok(EXAMPLES.length >= 2, JSON.stringify(EXAMPLES));
    assert.ok(EXAMPLES.some((e) => e.nodes === 8), 'an 8-node example');
  });

  for (const { file } of EXAMPLES) {
    it(`${file}: draws the ranking, the timeline (pixels as the report says), the links and the search's figures`, async () => {
      const page = await readyPage(env);
      await pickExample(page, file);
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
      const report = await page.evaluate(() => window.placelab.lastReport.report);
      for (const id of ['trace-ranking', 'trace-timeline', 'trace-links', 'legend']) {
        const size = await page.evaluate((t) => { const c = document.querySelector(`[data-testid=${t}]`); return c ? [c.width, c.height] : null; }, id);
        assert.ok(size && size[0] > 100 && size[1] > 20, `${id}: ${size}`);
      }
      assert.equal(await page.locator('[data-testid=trace-scatter]').count(), report.measured ? 1 : 0);
      const tl = await checkTimeline(page);
      assert.deepEqual(tl.problems, []);
      assert.ok(tl.checked >= tl.ranks * tl.cols * 0.9, `only ${tl.checked} of ${tl.ranks * tl.cols} columns checked`);
      assert.ok(tl.kinds.includes(0), 'computation drawn');
      const best = page.getByTestId('trace-best');
      assert.equal(await best.getAttribute('data-hosts'), report.best.hosts);
      assert.equal(await best.getAttribute('data-hosts'), report.ranking[0].hosts);
      const search = await page.getByTestId('trace-search').textContent();
      assert.match(search, report.search.proven ? /the best is proven optimal/ : /not proven, the best is within .* of the lower bound/);
      assert.match(search, new RegExp(`${report.search.visited.toLocaleString('en-US')} assignments visited`));
      // identical ranks are named exactly when the report found some
      const id = report.search.identicalRanks;
      if (id) assert.match(search, new RegExp(`identical ranks \\(${id.generators.join(', ')} found to leave the trace unchanged\\): only assignments with rank ${id.pivot} on the least node class`));
      else assert.doesNotMatch(search, /identical ranks/);
      if (report.measured) assert.match(await page.getByTestId('trace-measured').textContent(), /error a = \|t_n − t_m\| \/ t_m = \d+\.\d %/);
      assert.equal(await page.locator('[data-testid=trace-ranking-table] tbody tr').count(), Math.min(200, report.ranking.length));
      await page.screenshot({ path: artifact(`trace-${file.replace('.json', '')}.png`), fullPage: true });
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  it('downloads the best assignment as the report\'s machinefile, and the PNG, JSON and CSV exports', async () => {
    const page = await readyPage(env);
    await pickExample(page, EXAMPLES[0].file);
    const machinefile = await page.evaluate(async () => JSON.parse(await window.placelab.reportText()).report.best.machinefile);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-machinefile').click()]);
    assert.match(dl.suggestedFilename(), /\.machinefile$/);
    const file = artifact(`download-${dl.suggestedFilename()}`);
    await dl.saveAs(file);
    assert.equal(await fsp.readFile(file, 'utf8'), machinefile);
    const ranks = await page.evaluate(() => window.placelab.lastReport.report.trace.ranks);
    assert.equal(machinefile.trim().split('\n').length, ranks);
    for (const [id, re] of [['export-png', /\.png$/], ['export-json', /\.report\.json$/], ['export-csv', /\.summary\.csv$/], ['export-jobs-csv', /\.ranking\.csv$/], ['export-timeline', /\.timeline\.csv$/]]) {
      const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
      assert.match(d.suggestedFilename(), re);
      if (id === 'export-timeline') {
        const saved = artifact(`download-${d.suggestedFilename()}`);
        await d.saveAs(saved);
        const rows = (await fsp.readFile(saved, 'utf8')).trim().split('\n');
        const segments = await page.evaluate(() => window.placelab.lastReport.report.timeline.segments.length);
        assert.equal(rows[0], 'rank,node,kind,start,end,peer,bytes');
        assert.equal(rows.length, segments + 1);
      }
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('a trace dropped on another engine\'s scenario becomes a trace scenario, one node per rank', async () => {
    const page = await env.open();
    assert.notEqual(await page.evaluate(() => window.placelab.lastReport.engine), 'trace');
    await open(page, 'table1.alog', TABLE1);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const envelope = await page.evaluate(() => window.placelab.lastReport);
    assert.equal(envelope.engine, 'trace');
    assert.equal(envelope.report.source, 'alog');
    assert.deepEqual(envelope.report.nodes.map((n) => n.name), ['node0', 'node1']);
    // two identical nodes: one distinct assignment standing for both
    assert.deepEqual(envelope.report.ranking.map((r) => r.equivalents), [2]);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('a dropped trace becomes the scenario\'s trace; a bad one names its line and the last drawing stays', async () => {
    const page = await env.open();
    await pickExample(page, SMPI_EXAMPLE);
    const first = await page.evaluate(() => window.placelab.lastReport.report);
    const nodes = first.nodes.length;
    // SimGrid's per-rank files of the example's own trace, merged into one file: the same answer
    const merged = [0, 1, 2, 3].map((r) => fs.readFileSync(path.join(REPO, 'tests/fixtures/smpi/lu-block', `rank-${r}.txt`), 'utf8')).join('');
    await open(page, 'smpi_simgrid.txt', merged);
    const ti = await page.evaluate(() => window.placelab.lastReport.report);
    assert.equal(ti.source, 'ti');
    assert.equal(ti.best.hosts, first.best.hosts);
    assert.equal(ti.best.time, first.best.time);
    // one rank's file dropped on the example (one text per rank): that rank's text replaced
    await pickExample(page, SMPI_EXAMPLE);
    await open(page, 'smpi_0_rank-3.txt', fs.readFileSync(path.join(REPO, 'tests/fixtures/smpi/lu-block/rank-2.txt'), 'utf8'));
    const files = await page.evaluate(() => JSON.parse(window.placelab.scenarioText()).trace.files.map((f) => f.split('\n')[0]));
    assert.deepEqual(files, ['0 init', '1 init', '2 init', '3 init']);
    assert.equal(await page.evaluate(() => window.placelab.lastReport.report.best.hosts), first.best.hosts);
    // our text format, two ranks: the nodes of the example stay, the measured times go
    await open(page, 'pingpong.txt', '# two ranks\nranks 2\n0 compute 0.01\n0 send 1 8000\n1 recv 0 8000\n1 compute 0.02\n1 send 0 8000\n0 recv 1 8000\n');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    let report = await page.evaluate(() => window.placelab.lastReport.report);
    assert.equal(report.source, 'text');
    assert.equal(report.trace.ranks, 2);
    assert.equal(report.nodes.length, nodes);
    assert.equal(report.measured ?? null, null);
    // the six lines of the source's table 1 as an ALOG file: one 7992-byte message, rank 0 to 1
    const table1 = TABLE1;
    await open(page, 'table1.alog', table1);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    report = await page.evaluate(() => window.placelab.lastReport.report);
    assert.equal(report.source, 'alog');
    assert.deepEqual([report.trace.ranks, report.trace.messages, report.trace.bytes], [2, 1, 7992]);
    // the same lines in a .txt file are recognised by their content
    await open(page, 'table1.txt', table1.replace('1189', '1190'));
    assert.equal(await page.evaluate(() => window.placelab.lastReport.report.source), 'alog');
    const before = await page.evaluate(() => ({ report: window.placelab.lastReport, png: document.querySelector('[data-testid=trace-timeline]').toDataURL() }));
    // a bad trace: an unknown event on line 3
    await open(page, 'bad.txt', 'ranks 2\n0 compute 0.01\n0 bcast 1 8000\n1 recv 0 8000\n');
    const err = await page.evaluate(() => window.placelab.lastError);
    assert.ok(err, 'an error');
    assert.match(err.path, /^\$\.trace/);
    assert.match(err.message, /line 3\b/);
    assert.match(await page.getByTestId('error-text').textContent(), /line 3\b/);
    const after = await page.evaluate(() => ({ same: window.placelab.lastReport === window.__before[0], png: document.querySelector('[data-testid=trace-timeline]').toDataURL() }));
    assert.ok(after.same, 'the last good report stays');
    assert.equal(after.png, before.png, 'the last good timeline stays');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('node ratios and links edited in the form re-rank the assignments', async () => {
    const page = await env.open();
    await pickExample(page, SMPI_EXAMPLE);
    const before = await page.evaluate(() => window.placelab.lastReport.report);
    const field = page.getByTestId('param-nodes');
    assert.deepEqual(JSON.parse(await field.inputValue()).map((n) => n.ratio), before.nodes.map((n) => n.ratio));
    // the slowest host h3 made as fast as h0: it is no longer worth avoiding
    const nodes = before.nodes.map((n) => ({ name: n.name, ratio: n.name === 'h3' ? 1 : n.ratio }));
    const runs = await page.evaluate(() => window.placelab.runCount);
    await field.fill(JSON.stringify(nodes));
    await field.dispatchEvent('change');
    await page.getByTestId('run').click();
    await page.waitForFunction((n) => window.placelab.runCount > n, runs, { timeout: 0 });
    await waitSettled(page);
    let report = await page.evaluate(() => window.placelab.lastReport.report);
    assert.deepEqual(report.nodes.map((n) => n.ratio), [1, 1.25, 2, 1]);
    assert.ok(report.best.time < before.best.time, `${report.best.time} < ${before.best.time}`);
    // a default link for every pair instead of the fitted ones
    const links = page.getByTestId('param-links'), dflt = page.getByTestId('param-defaultLink');
    await links.fill('[]');
    await links.dispatchEvent('change');
    await dflt.fill('{"a0": 0.001, "a1": 0}');
    await dflt.dispatchEvent('change');
    const runs2 = await page.evaluate(() => window.placelab.runCount);
    await page.getByTestId('run').click();
    await page.waitForFunction((n) => window.placelab.runCount > n, runs2, { timeout: 0 });
    await waitSettled(page);
    report = await page.evaluate(() => window.placelab.lastReport.report);
    assert.ok(report.links.every((l) => l.origin === 'default' && l.a0 === 0.001 && l.a1 === 0), JSON.stringify(report.links.slice(0, 2)));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('on a 390 px phone the page is no wider than the screen', async () => {
    const page = await env.open('', { viewport: { width: 390, height: 844 } });
    for (const file of [SMPI_EXAMPLE, EXAMPLES.find((e) => e.nodes === 8).file]) {
      await pickExample(page, file);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${file}: the page is ${width} px wide`);
    }
    await page.screenshot({ path: artifact('trace-phone.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('the block-cyclic LU on 8 nodes is proven by exhaustive search in two workers, as one worker reports it', async () => {
    const page = await readyPage(env);
    const t0 = Date.now();
    await pickExample(page, 'trace-lu-cyclic-8-workers.json');
    const ms = Date.now() - t0;
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const two = await page.evaluate(() => ({ search: window.placelab.lastReport.report.search, sha: window.placelab.lastReportSha256 }));
    assert.equal(two.search.proven, true);
    assert.equal(two.search.replays, 40320);
    console.log(`# block-cyclic LU, 8 nodes, exhaustive in 2 workers: example chosen to drawn ${ms} ms`);
    // one worker, then two again (both warm): the same report, byte for byte
    const scenario = JSON.parse(await page.evaluate(() => window.placelab.scenarioText()));
    const runWith = async (workers) => {
      scenario.search.workers = workers;
      await typeRawJson(page, JSON.stringify(scenario));
      await waitSettled(page, 0);
      const runs = await page.evaluate(() => window.placelab.runCount);
      const t = Date.now();
      await page.getByTestId('run').click();
      await page.waitForFunction((n) => window.placelab.runCount > n && ['done', 'error'].includes(document.body.dataset.status), runs, { timeout: 0 });
      console.log(`# ${workers} worker(s), warm: Run to drawn ${Date.now() - t} ms`);
      return page.evaluate(() => ({ search: window.placelab.lastReport.report.search, sha: window.placelab.lastReportSha256 }));
    };
    assert.deepEqual((await runWith(1)).search, two.search);
    assert.equal((await runWith(2)).sha, two.sha);
    await assertNoLongTask(page, 'block-cyclic LU in two workers and one');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('the 8-node example answers with no main-thread task over 200 ms', async () => {
    const eight = EXAMPLES.find((e) => e.nodes === 8);
    const page = await readyPage(env);
    await pickExample(page, eight.file);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const search = await page.evaluate(() => window.placelab.lastReport.report.search);
    console.log(`# ${eight.file}: ${JSON.stringify(search)}`);
    await assertNoLongTask(page, eight.file);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
