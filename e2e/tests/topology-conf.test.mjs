// A Slurm topology.conf in the allocation form: the field table's text control (a text box and
// its own Open file…) and the page's Open file… both make the file the scenario's machine, and the
// run equals `placelab run` of the same scenario; a bad file shows the engine's line and column
// under the text box, and the page keeps its last good drawing and report.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, waitSettled, runAfter } from '../lib/harness.mjs';
import { buildCli, cli } from '../lib/cli.mjs';

const env = useBrowser();
before(buildCli);

const CONF = '# three leaf switches under one core\nSwitchName=core Switches=leaf[1-3]\nSwitchName=leaf1 Nodes=cn[01-08]\nSwitchName=leaf2 Nodes=cn[09-16]\nSwitchName=leaf3 Nodes=cn[17-24]\n';
const BAD = 'SwitchName=core Switches=leaf[1-2]\nSwitchName=leaf1 Nodez=cn[01-08]\nSwitchName=leaf2 Nodes=cn[09-16]\n';

async function assertSameAsCli(page, what) {
  const scenario = await page.evaluate(() => window.placelab.scenarioText());
  const want = cli(scenario);
  assert.ok(want.stdout, `${what}: the CLI refused the scenario: ${want.error}`);
  assert.equal(`${await page.evaluate(() => window.placelab.reportText())}\n`, want.stdout.toString(), `${what}: the report is placelab run's`);
}

describe('Slurm topology.conf in the page', () => {
  it('shows the example\'s topology.conf in a text box of the form', async () => {
    const page = await env.open();
    await pickExample(page, 'slurm-tree-vs-closed-min.json');
    const box = page.getByTestId('param-system.topologyConf');
    assert.equal(await box.evaluate((e) => e.tagName), 'TEXTAREA');
    assert.equal(await box.inputValue(), await page.evaluate(() => JSON.parse(window.placelab.scenarioText()).system.topologyConf));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('opens a topology.conf with the page\'s Open file… and runs it as placelab run does', async () => {
    const page = await env.open();
    await pickExample(page, 'slurm-tree-vs-closed-min.json');
    const status = await runAfter(page, () => page.getByTestId('open-file').setInputFiles({ name: 'topology.conf', mimeType: 'text/plain', buffer: Buffer.from(CONF) }));
    assert.equal(status, 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const s = JSON.parse(await page.evaluate(() => window.placelab.scenarioText()));
    assert.deepEqual(s.system, { kind: 'slurmTopology', topologyConf: CONF });
    assert.deepEqual(s.policies, ['slurmTree', 'closed-min-best', 'sequential'], 'the policies are kept');
    assert.equal(await page.getByTestId('param-system.topologyConf').inputValue(), CONF);
    const r = await page.evaluate(() => window.placelab.lastReport.report);
    assert.equal(r.topology.nodes, 24);
    await assertSameAsCli(page, 'opened');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('runs a topology.conf under contention on its SimGrid platform file, as placelab run does', async () => {
    const page = await env.open();
    await pickExample(page, 'slurm-topology-contention-platform.json');
    assert.equal(await waitSettled(page), 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const box = page.getByTestId('param-contention.simgrid');
    assert.equal(await box.evaluate((e) => e.tagName), 'TEXTAREA', 'the platform file is a text box of the form');
    assert.match(await box.inputValue(), /<host id="tux001"/);
    await assertSameAsCli(page, 'platform');
    const r = JSON.parse(await page.evaluate(() => window.placelab.reportText())).report;
    assert.equal(r.contention.platform.hosts, 39);
    assert.equal(r.contention.bandwidth, undefined, 'no uniform bandwidth is claimed: the links are the file\'s');
    const seq = r.runs.find((x) => x.policy === 'sequential');
    assert.ok(seq.jobs.some((j) => j.contention.maxSlowdown > 1), 'sequential jobs share the oversubscribed links');
    const section = page.getByTestId('runtime-section');
    assert.match(await section.textContent(), /SimGrid platform file's links and routes: 39 hosts/);
    const slowedSeq = seq.jobs.filter((j) => j.contention.maxSlowdown > 1 + 1e-9).length;
    assert.match(await page.getByTestId('slowed').textContent(), new RegExp(`Sequential: ${slowedSeq} of ${seq.jobs.length} jobs slowed`, 'i'));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('fills the field from a file, shows a bad file\'s line and column, and keeps the last good drawing', async () => {
    const page = await env.open();
    await pickExample(page, 'slurm-tree-vs-closed-min.json');
    await page.getByTestId('param-system.topologyConf-file').setInputFiles({ name: 'cluster.conf', mimeType: 'text/plain', buffer: Buffer.from(CONF) });
    // the file is read asynchronously: wait for the text box to take it
    await page.waitForFunction((conf) => document.querySelector('[data-testid="param-system.topologyConf"]').value === conf, CONF);
    assert.equal(await page.getByTestId('param-system.topologyConf').inputValue(), CONF);
    assert.equal(await runAfter(page, () => page.getByTestId('run').click()), 'done');
    await assertSameAsCli(page, 'from the field');
    const good = await page.evaluate(() => ({ text: window.placelab.lastReportText, canvases: document.querySelectorAll('#drawing canvas').length, runs: window.placelab.runCount }));
    assert.ok(good.canvases > 0);

    // a bad file: the engine's message names its line and column, under the text box too
    const want = cli(JSON.stringify({ ...JSON.parse(await page.evaluate(() => window.placelab.scenarioText())), system: { kind: 'slurmTopology', topologyConf: BAD } }));
    assert.match(want.error, /line 2, column \d+/);
    await page.getByTestId('param-system.topologyConf').fill(BAD);
    assert.equal(await runAfter(page, () => page.getByTestId('run').click()), 'error');
    assert.equal(await page.getByTestId('error-text').textContent(), `refused before running: ${want.error}`);
    const fieldError = page.getByTestId('param-system.topologyConf-error');
    assert.ok(await fieldError.isVisible());
    assert.match(await fieldError.textContent(), /line 2, column \d+/);
    assert.equal(await page.getByTestId('param-system.topologyConf').getAttribute('aria-invalid'), 'true');
    // the caret is on the bad line
    const sel = await page.getByTestId('param-system.topologyConf').evaluate((e) => e.value.slice(0, e.selectionStart).split('\n').length);
    assert.equal(sel, 2);
    const after = await page.evaluate(() => ({ text: window.placelab.lastReportText, canvases: document.querySelectorAll('#drawing canvas').length, runs: window.placelab.runCount }));
    assert.deepEqual(after, good, 'the last good report and drawing stay');

    // fixed again: the error goes
    await page.getByTestId('param-system.topologyConf').fill(CONF);
    assert.equal(await runAfter(page, () => page.getByTestId('run').click()), 'done');
    assert.ok(!(await fieldError.isVisible()));
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
