// Traces of real size from files: an SMPI -trace-ti folder (its index and the rank files it
// names) chosen together, and a 20 MB time-independent trace, are read as streams in workers and
// attached (the scenario names them, src/attach.rs); the reports equal `placelab trace`'s and
// `placelab run --attach`'s byte for byte; the main thread never blocks over 200 ms.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pickExample, waitSettled, artifact, useBrowser } from '../lib/harness.mjs';
import { readyPage, assertNoLongTask } from '../lib/longtasks.mjs';
import { buildCli, cli, sha256, CLI } from '../lib/cli.mjs';
import { REPO } from '../lib/server.mjs';

const env = useBrowser();

async function openFiles(page, files) {
  await page.evaluate(() => { window.__before = [window.placelab.lastReport, window.placelab.lastError]; });
  await page.getByTestId('open-file').setInputFiles(files);
  await page.waitForFunction(() => window.placelab.lastReport !== window.__before[0] || window.placelab.lastError !== window.__before[1], null, { timeout: 0 });
  await waitSettled(page);
}

describe('traces from files', () => {
  it('an SMPI trace folder and a 20 MB trace attach, run as the CLI runs them, with no long task', async () => {
    buildCli();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placelab-trace-'));
    const example = JSON.parse(fs.readFileSync(path.join(REPO, 'playground-examples', 'trace-smpi-lu.json'), 'utf8'));
    const ranks = example.trace.files.map((t, i) => {
      const f = path.join(dir, `lu_rank-${i + 1}.txt`);
      fs.writeFileSync(f, t);
      return f;
    });
    const index = path.join(dir, 'lu.txt');
    fs.writeFileSync(index, ranks.map((f) => `traces/${path.basename(f)}\n`).join(''));
    const platform = { ...example };
    delete platform.trace;
    delete platform.measured; // the page drops measured times when the trace changes (they belong to the program traced before)
    fs.writeFileSync(path.join(dir, 'platform.json'), JSON.stringify(platform));

    const page = await readyPage(env);
    await pickExample(page, 'trace-smpi-lu.json');
    // the rank files in another order than the index's: the index decides
    await openFiles(page, [ranks[2], index, ranks[0], ranks[3], ranks[1]]);
    assert.equal(await page.evaluate(() => window.placelab.lastError), null);
    const scenario = JSON.parse(await page.evaluate(() => window.placelab.scenarioText()));
    assert.equal(scenario.trace.attached, 'lu.txt');
    const native = spawnSync(CLI, ['trace', index, '--platform', path.join(dir, 'platform.json')], { maxBuffer: 1 << 30 });
    assert.equal(native.status, 0, native.stderr.toString());
    assert.equal(await page.evaluate(() => window.placelab.lastReportSha256), sha256(native.stdout), 'the folder read in the page gives placelab trace\'s report');

    // a 20 MB merged trace: 4 ranks passing a token around a ring, computing between
    const big = path.join(dir, 'ring.ti');
    const fd = fs.openSync(big, 'w');
    let bytes = 0;
    for (let block = 0; bytes < 20 << 20; block++) {
      const lines = [];
      for (let k = 0; k < 2000; k++) {
        const r = (block * 2000 + k) % 4;
        lines.push(`${r} compute ${1e6 + 1000 * r}`, `${r} send ${(r + 1) % 4} 65536`, `${(r + 1) % 4} recv ${r} 65536`);
      }
      const chunk = lines.join('\n') + '\n';
      fs.writeSync(fd, chunk);
      bytes += chunk.length;
    }
    fs.closeSync(fd);
    const t0 = Date.now();
    await openFiles(page, big);
    const ms = Date.now() - t0;
    assert.equal(await page.evaluate(() => window.placelab.lastError), null);
    const events = await page.evaluate(() => window.placelab.lastReport.report.trace?.events ?? null);
    console.log(`# ${bytes} bytes of trace (${events} events): read, attached and searched in ${ms} ms`);
    const text = await page.evaluate(() => window.placelab.scenarioText());
    const attached = cli(text, ['--attach', big]);
    assert.equal(attached.error, undefined);
    assert.equal(await page.evaluate(() => window.placelab.lastReportSha256), sha256(attached.stdout), 'and placelab run --attach gives the same report');
    await assertNoLongTask(page, '20 MB trace');
    await page.screenshot({ path: artifact('trace-20mb.png') });
    assert.deepEqual(page.problems, []);
    await page.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  it('a trace folder as .tar.gz and as .zip unpacks in a worker and runs as placelab trace runs the folder', async () => {
    buildCli();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placelab-trace-archive-'));
    const example = JSON.parse(fs.readFileSync(path.join(REPO, 'playground-examples', 'trace-smpi-jacobi.json'), 'utf8'));
    const folder = path.join(dir, 'jacobi');
    fs.mkdirSync(folder);
    const names = example.trace.files.map((t, i) => {
      fs.writeFileSync(path.join(folder, `jacobi_rank-${i + 1}.txt`), t);
      return `jacobi_rank-${i + 1}.txt`;
    });
    fs.writeFileSync(path.join(folder, 'jacobi.txt'), names.map((n) => `jacobi.txt_files/${n}\n`).join(''));
    fs.writeFileSync(path.join(folder, 'README'), 'the Jacobi sweep of scripts/smpi/jacobi.c\n');
    const platform = { ...example };
    delete platform.trace;
    delete platform.measured;
    fs.writeFileSync(path.join(dir, 'platform.json'), JSON.stringify(platform));
    // the archives, as tar and zip write them (deflated members)
    const made = spawnSync('python3', ['-c', `
import sys, tarfile, zipfile, os
d = sys.argv[1]
with tarfile.open(os.path.join(d, 'jacobi.tar.gz'), 'w:gz') as t:
    t.add(os.path.join(d, 'jacobi'), arcname='jacobi')
with zipfile.ZipFile(os.path.join(d, 'jacobi.zip'), 'w', zipfile.ZIP_DEFLATED) as z:
    for n in sorted(os.listdir(os.path.join(d, 'jacobi'))):
        z.write(os.path.join(d, 'jacobi', n), 'jacobi/' + n)
`, dir]);
    assert.equal(made.status, 0, made.stderr.toString());
    const native = spawnSync(CLI, ['trace', path.join(folder, 'jacobi.txt'), '--platform', path.join(dir, 'platform.json')], { maxBuffer: 1 << 30 });
    assert.equal(native.status, 0, native.stderr.toString());

    const page = await readyPage(env);
    await pickExample(page, 'trace-smpi-jacobi.json');
    for (const archive of ['jacobi.tar.gz', 'jacobi.zip']) {
      await openFiles(page, path.join(dir, archive));
      assert.equal(await page.evaluate(() => window.placelab.lastError), null, archive);
      const scenario = JSON.parse(await page.evaluate(() => window.placelab.scenarioText()));
      assert.equal(scenario.trace.attached, 'jacobi.txt', archive);
      assert.equal(await page.evaluate(() => window.placelab.lastReportSha256), sha256(native.stdout), `${archive} read in the page gives placelab trace's report of the folder`);
    }
    // an archive without an index is refused with a message, and the last good report stays
    fs.writeFileSync(path.join(dir, 'bad.zip'), fs.readFileSync(path.join(dir, 'jacobi.zip')).subarray(0, 100));
    await openFiles(page, path.join(dir, 'bad.zip'));
    const err = await page.evaluate(() => window.placelab.lastError);
    assert.match(err?.message ?? '', /bad\.zip: not a zip archive/);
    assert.equal(await page.evaluate(() => window.placelab.lastReportSha256), sha256(native.stdout), 'the last good report stays');
    await assertNoLongTask(page, 'trace archives');
    assert.deepEqual(page.problems, []);
    await page.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
