// The page and the CLI agree byte for byte: the text the user wrote (or the link carried) reaches the
// engine unchanged, so the report or the error equals `placelab run` output (release binary), and
// the JSON export equals its stdout, newline included.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { useBrowser, waitSettled, typeRawJson, pickExample, artifact } from '../lib/harness.mjs';
import { REPO } from '../lib/server.mjs';
import { buildCli, cli, sha256, link } from '../lib/cli.mjs';

const env = useBrowser();
before(buildCli);

const TAIL = '"engine": "allocation", "name": "bytes", "system": {"kind": "mesh", "width": 4, "height": 4}, '
  + '"policies": ["sequential"], "workload": {"kind": "set", "jobs": [{"tasks": 3}, {"tasks": 5}]}}';
/** Inputs that a JavaScript number cannot carry. */
export const EXACT_CASES = {
  'a seed above 2^53': `{"version": 1, "seed": 9007199254740993, ${TAIL}`,
  'the largest seed, 2^64 - 1': `{"version": 1, "seed": 18446744073709551615, ${TAIL}`,
  '"version": 1.0': `{"version": 1.0, ${TAIL}`,
  'a width of 1e400': `{"version": 1, ${TAIL.replace('"width": 4', '"width": 1e400')}`,
};

/** The page's outcome of its last run: {sha256, text} of the report (with newline) or {error}. */
async function pageOutcome(page) {
  return page.evaluate(async () => {
    const p = window.placelab;
    if (document.body.dataset.status === 'error') return { error: p.lastError.path ? `${p.lastError.path}: ${p.lastError.message}` : p.lastError.message };
    return { sha256: p.lastReportSha256, text: `${await p.reportText()}\n` };
  });
}

function assertSameAsCli(got, want, label) {
  if (want.error) {
    assert.equal(got.error, want.error, `${label}: the page's error differs from the CLI's`);
  } else {
    assert.equal(got.error, undefined, `${label}: the page refused what the CLI runs`);
    assert.equal(got.text, want.stdout.toString('utf8'), `${label}: the report differs from the CLI's`);
    assert.equal(got.sha256, sha256(want.stdout), `${label}: the fingerprint differs from the CLI's`);
  }
}

async function runRaw(page, text) {
  await typeRawJson(page, text);
  await page.getByTestId('run').click();
  await waitSettled(page);
}

describe('byte for byte', () => {
  it('runs typed scenario text exactly as the CLI does (big seeds, 1.0, 1e400)', async () => {
    const page = await env.open();
    for (const [label, text] of Object.entries(EXACT_CASES)) {
      await runRaw(page, text);
      assert.equal(await page.evaluate(() => window.placelab.scenarioText()), text, `${label}: the text sent is not the text typed`);
      assertSameAsCli(await pageOutcome(page), cli(text), label);
    }
    await page.close();
  });

  it('runs the text a link carries exactly as the CLI does', async () => {
    for (const [label, text] of Object.entries(EXACT_CASES)) {
      const page = await env.open(link(text));
      assert.equal(await page.evaluate(() => window.placelab.scenarioText()), text, `${label}: the link's text changed`);
      assertSameAsCli(await pageOutcome(page), cli(text), label);
      await page.close();
    }
  });

  it('edits a value in the form without touching any other byte of the text', async () => {
    const page = await env.open();
    const text = EXACT_CASES['the largest seed, 2^64 - 1'].replace('"version": 1', '"version": 1.0');
    await typeRawJson(page, text);
    assert.equal(await page.getByTestId('param-seed').inputValue(), '18446744073709551615', 'the form does not show the literal seed');
    await page.getByTestId('param-system.width').fill('6');
    await page.getByTestId('param-system.width').dispatchEvent('change');
    const want = text.replace('"width": 4', '"width": 6');
    assert.equal(await page.getByTestId('raw-json').inputValue(), want);
    // Not a number: the field says so and the text keeps its value.
    await page.getByTestId('param-system.width').fill('six');
    await page.getByTestId('param-system.width').dispatchEvent('change');
    assert.equal(await page.getByTestId('raw-json').inputValue(), want);
    assert.match(await page.getByTestId('raw-error').textContent(), /"six" is not a number; the scenario keeps 6/);
    await page.getByTestId('param-system.width').fill('6');
    await page.getByTestId('param-system.width').dispatchEvent('change');
    assert.equal(await page.getByTestId('raw-error').isVisible(), false);
    await page.getByTestId('run').click();
    await waitSettled(page);
    assertSameAsCli(await pageOutcome(page), cli(want), 'edited in the form');
    await page.close();
  });

  it('writes a seed typed in the form as the exact number, up to 2^64 - 1', async () => {
    const page = await env.open();
    const text = EXACT_CASES['a seed above 2^53'];
    await typeRawJson(page, text);
    await page.getByTestId('param-seed').fill('18446744073709551615');
    await page.getByTestId('param-seed').dispatchEvent('change');
    const want = text.replace('9007199254740993', '18446744073709551615');
    assert.equal(await page.getByTestId('raw-json').inputValue(), want, 'the seed must be written as a JSON number, digit for digit');
    await page.getByTestId('run').click();
    await waitSettled(page);
    assertSameAsCli(await pageOutcome(page), cli(want), 'seed edited in the form');
    await page.close();
  });

  it('exports the JSON report with the same checksum as `placelab run` prints', async () => {
    const page = await env.open();
    for (const file of ['fig1-4x4.json', 'mesh64-random-stream.json']) {
      await pickExample(page, file);
      const want = cli(await fs.readFile(path.join(REPO, 'playground-examples', file), 'utf8'));
      const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
      const saved = artifact(`bytes-${file}`);
      await dl.saveAs(saved);
      const bytes = await fs.readFile(saved);
      assert.equal(bytes.length, want.stdout.length, `${file}: the export has ${bytes.length} bytes, the CLI ${want.stdout.length}`);
      assert.equal(sha256(bytes), sha256(want.stdout), `${file}: the export's checksum differs from the CLI's`);
      assert.equal(await page.evaluate(() => window.placelab.lastReportSha256), sha256(want.stdout));
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
