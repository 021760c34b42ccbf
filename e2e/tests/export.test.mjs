// Export buttons download the drawing (PNG), the exact report text and one newline (JSON) and the tables (CSV).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { useBrowser, pickExample, artifact } from '../lib/harness.mjs';
import { buildCli, CLI } from '../lib/cli.mjs';

const env = useBrowser();

async function download(page, testId) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const file = artifact(`download-${dl.suggestedFilename()}`);
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), bytes: await fs.readFile(file) };
}

describe('export', () => {
  it('downloads PNG, JSON and CSV', async () => {
    const page = await env.open();
    await pickExample(page, 'fig1-4x4.json');
    const reportText = await page.evaluate(() => window.placelab.lastReportText);
    const report = JSON.parse(reportText);

    const png = await download(page, 'export-png');
    assert.match(png.name, /\.png$/);
    assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const width = png.bytes.readUInt32BE(16), height = png.bytes.readUInt32BE(20);
    assert.ok(width > 200 && height > 150, `PNG is ${width}x${height}`);

    const json = await download(page, 'export-json');
    assert.match(json.name, /\.json$/);
    assert.equal(json.bytes.toString('utf8'), `${reportText}\n`, 'the JSON export is the report and one newline, as `placelab run` prints it');

    const csv = await download(page, 'export-csv');
    assert.match(csv.name, /\.csv$/);
    const lines = csv.bytes.toString('utf8').trim().split('\n');
    assert.equal(lines[0], ['metric', ...report.report.runs.map((r) => r.policy)].join(','));
    assert.equal(lines.length, 1 + Object.keys(report.report.runs[0].summary).length);

    const jobs = await download(page, 'export-jobs-csv');
    const jobLines = jobs.bytes.toString('utf8').trim().split('\n');
    assert.equal(jobLines.length, 1 + report.report.runs.reduce((a, r) => a + r.jobs.length, 0));
    assert.match(jobLines[0], /^policy,id,name/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('downloads a job\'s nodes under a policy as the launcher files placelab hostfile writes', async () => {
    buildCli();
    const page = await env.open();
    await pickExample(page, 'swf-log-16x16.json');
    const report = artifact('alloc-swf.report.json');
    await fs.writeFile(report, await page.evaluate(() => window.placelab.reportText()));
    const policies = await page.evaluate(() => window.placelab.lastReport.report.runs.map((r) => r.policy));
    for (const [format, policy, job] of [['mpich', policies[0], 0], ['rankfile', policies.at(-1), 5], ['nodelist', policies.at(-1), 12]]) {
      await page.getByTestId('hostfile-format').selectOption(format);
      await page.getByTestId('hostfile-strategy').selectOption(policy);
      await page.getByTestId('hostfile-job').fill(String(job));
      const got = await download(page, 'export-hostfile');
      const want = execFileSync(CLI, ['hostfile', report, '--format', format, '--strategy', policy, '--job', String(job)], { stdio: ['ignore', 'pipe', 'ignore'] });
      assert.equal(got.bytes.toString(), want.toString(), `${format} ${policy} job ${job}`);
      assert.ok(want.length > 0);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
