// A SimGrid platform file as the placement engine's machine: the page's Open file… makes an
// .xml file the scenario's system (kind simgrid), the form shows it in a text box, and the run
// equals `placelab run` of the same scenario; a malformed file shows the engine's line and
// column and the page keeps its last good report.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { useBrowser, pickExample, waitSettled, artifact, runAfter } from '../lib/harness.mjs';
import { buildCli, cli } from '../lib/cli.mjs';

const env = useBrowser();
before(buildCli);

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

describe('SimGrid platform files in the placement page', () => {
  it('opens a platform file as the machine and runs it as placelab run does; a bad file keeps the last report', async () => {
    const xml = await fs.readFile(path.join(REPO, 'tests/fixtures/simgrid-xml/cluster_dragonfly.xml'), 'utf8');
    const page = await env.open();
    await pickExample(page, 'place-zk-exp1-torus2d-1mb.json');
    const status = await runAfter(page, () => page.getByTestId('open-file').setInputFiles({ name: 'cluster_dragonfly.xml', mimeType: 'text/xml', buffer: Buffer.from(xml) }));
    assert.equal(status, 'done', JSON.stringify(await page.evaluate(() => window.placelab.lastError)));
    const scenario = await page.evaluate(() => window.placelab.scenarioText());
    const s = JSON.parse(scenario);
    assert.deepEqual(s.system, { kind: 'simgrid', platform: xml });
    assert.equal(s.job.kind, 'GRID', 'the job is kept');
    const box = page.getByTestId('param-system.platform');
    assert.equal(await box.evaluate((e) => e.tagName), 'TEXTAREA');
    assert.equal(await box.inputValue(), xml);
    const want = cli(scenario);
    assert.ok(want.stdout, `the CLI refused it: ${want.error}`);
    const good = await page.evaluate(() => window.placelab.reportText());
    assert.equal(`${good}\n`, want.stdout.toString(), 'the report is placelab run\'s');
    const r = await page.evaluate(() => window.placelab.lastReport.report);
    assert.equal(r.system.kind, 'simgrid');
    assert.equal(r.system.hostNames.length, r.system.hosts);
    // the file's one DRAGONFLY cluster gives its levels: nodes, routers, chassis, groups
    assert.deepEqual(r.system.groups, [2, 5, 4, 3]);
    assert.match(await page.getByTestId('place-info').textContent(), /simgrid platform file, host groups 2 x 5 x 4 x 3 \(lowest level first\): 120 hosts/);
    await page.screenshot({ path: artifact('simgrid-platform.png'), fullPage: true });
    // a malformed file: the engine's line and column, the last good report kept
    const bad = xml.replace('<cluster', '<clustre');
    const after = await runAfter(page, () => page.getByTestId('open-file').setInputFiles({ name: 'bad.xml', mimeType: 'text/xml', buffer: Buffer.from(bad) }));
    assert.equal(after, 'error');
    const shown = await page.getByTestId('error-text').textContent();
    assert.match(shown, /system\.platform: platform:\d+:\d+/, shown);
    assert.equal(await page.evaluate(() => window.placelab.reportText()), good, 'the last good report stays');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
