// A workload log of real size (50 MB, the size of the Parallel Workloads Archive's larger logs)
// opened in the page: the text worker streams it through the engine's SWF reader (no byte cap),
// the scenario names the file and pins its fingerprint instead of carrying it, the engine worker
// reads it again chunk by chunk and replays the first jobs; the main thread never blocks over
// 200 ms. The report equals `placelab run SCENARIO --attach LOG` byte for byte, and a link to the
// scenario asks for the file, then runs as it is once the file is chosen.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, pickExample, waitSettled, artifact } from '../lib/harness.mjs';
import { readyPage, assertNoLongTask } from '../lib/longtasks.mjs';
import { buildCli, cli, sha256, link, CLI } from '../lib/cli.mjs';
import { buildStudy, runStudy } from '../lib/studypanel.mjs';
import { spawnSync } from 'node:child_process';

const env = useBrowser();

/** A synthetic archive-like log of at least `bytes` bytes: seeded, so every run writes the same file. */
function writeLog(file, bytes) {
  let x = 12345n;
  const next = (m) => { x = (x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn; return Number(x >> 33n) % m; };
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let submit = 0;
  let id = 1;
  written += fs.writeSync(fd, '; Version: 2.2\n; Computer: e2e synthetic 256-node cluster\n; MaxNodes: 256\n; MaxProcs: 256\n');
  while (written < bytes) {
    const lines = [];
    for (let k = 0; k < 10000; k++, id++) {
      submit += next(120);
      const run = 1 + next(3600);
      const procs = 1 + next(64);
      const req = run + next(3600);
      lines.push(`${id} ${submit} -1 ${run} ${procs} -1 -1 ${procs} ${req} -1 1 ${1 + next(50)} 1 -1 ${1 + next(3)} 1 -1 -1`);
    }
    const chunk = lines.join('\n') + '\n';
    fs.writeSync(fd, chunk);
    written += chunk.length;
  }
  fs.closeSync(fd);
  return written;
}

describe('workload logs of real size', () => {
  it('a 50 MB SWF log attaches, runs with no long main-thread task, and a link asks for the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placelab-swf-'));
    const file = path.join(dir, 'big.swf');
    const bytes = writeLog(file, 50 << 20);
    const page = await readyPage(env);
    await pickExample(page, 'swf-log-16x16.json');
    await page.evaluate(() => { window.__before = window.placelab.lastReport; });
    const t0 = Date.now();
    await page.getByTestId('open-file').setInputFiles(file);
    await page.waitForFunction(() => window.placelab.lastReport !== window.__before || window.placelab.lastError, null, { timeout: 0 });
    await waitSettled(page);
    const ms = Date.now() - t0;
    assert.equal(await page.evaluate(() => window.placelab.lastError), null);
    const report = await page.evaluate(() => window.placelab.lastReport);
    const log = report.report.log;
    console.log(`# ${bytes} bytes of SWF: read, attached and replayed (${log.replayed} jobs) in ${ms} ms`);
    assert.equal(log.file, 'big.swf');
    assert.equal(log.digest.split(' ')[1], String(bytes), 'the fingerprint covers the whole file');
    assert.equal(log.replayed, 10000);
    assert.ok(log.keptNotReplayed > 600000, `lines after the replayed jobs are counted: ${log.keptNotReplayed}`);
    assert.equal(log.maxNodes, 256);
    const job = report.report.runs[0].jobs[0];
    assert.ok(job.user >= 1 && job.queue >= 1, 'user and queue kept');
    const scenario = JSON.parse(await page.evaluate(() => window.placelab.scenarioText()));
    assert.equal(scenario.workload.swfFile, 'big.swf');
    assert.equal(scenario.workload.swfDigest, log.digest);
    await assertNoLongTask(page, '50 MB SWF log');
    buildCli();
    const native = cli(await page.evaluate(() => window.placelab.scenarioText()), ['--attach', file]);
    assert.equal(native.error, undefined);
    assert.equal(await page.evaluate(() => window.placelab.lastReportSha256), sha256(native.stdout), 'page and CLI reports equal byte for byte');
    await page.screenshot({ path: artifact('swf-attach-50mb.png') });

    // a study over the attached log: its workers read the file too; the tidy table is the CLI's
    const count = await buildStudy(page, { axes: [{ field: 'workload.maxJobs', values: '500, 1000' }], replicates: 1, seed: 1, workers: 2 });
    assert.deepEqual(count, { points: 2, ok: true, error: '' });
    await runStudy(page);
    const progress = await page.evaluate(() => window.placelab.study.progress);
    assert.equal(progress.done, 2, await page.getByTestId('study-error').textContent());
    const studyText = await page.evaluate(() => window.placelab.study.studyText());
    fs.writeFileSync(path.join(dir, 'study.json'), studyText);
    const r = spawnSync(CLI, ['study', path.join(dir, 'study.json'), '-o', path.join(dir, 'out'), '--threads', '2', '--attach', file]);
    assert.equal(r.status, 0, r.stderr.toString());
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('study-tidy-csv').click()]);
    assert.equal(fs.readFileSync(await dl.path(), 'utf8'), fs.readFileSync(path.join(dir, 'out', 'tidy.csv'), 'utf8'), 'the page\'s tidy CSV is the CLI\'s');
    await assertNoLongTask(page, '50 MB SWF log and its study');

    // the same scenario opened from a link, without the file: the page says which file to choose
    const other = await env.open(link(JSON.stringify(scenario)));
    const err = await other.evaluate(() => window.placelab.lastError);
    assert.equal(err.path, '$.workload.swfFile');
    assert.match(err.message, /"big\.swf" is not attached/);
    // choosing it runs the linked scenario as it is
    await other.evaluate(() => { window.__before = window.placelab.lastReport; });
    await other.getByTestId('open-file').setInputFiles(file);
    await other.waitForFunction(() => window.placelab.lastReport !== window.__before, null, { timeout: 0 });
    await waitSettled(other);
    const again = await other.evaluate(() => window.placelab.lastReport);
    assert.equal(JSON.stringify(again.report.log), JSON.stringify(log));
    assert.deepEqual(page.problems, []);
    await other.close();
    await page.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
