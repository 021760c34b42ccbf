// Errors a user understands (page side): the page shows the engine's own message, the
// same as the CLI's, because the text goes to the engine as text (never a parsed object).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitSettled, typeRawJson } from '../lib/harness.mjs';
import { buildCli, cli, link } from '../lib/cli.mjs';

const env = useBrowser();
before(buildCli);

const errorText = (page) => page.getByTestId('error-text').textContent();

describe('messages', () => {
  it('says what the engine says of a link nested 100,000 levels deep, keeping it in the editor', async () => {
    const text = `{"version": 1, "engine": "allocation", "name": "deep", "x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const want = cli(text);
    assert.ok(want.error, 'the CLI ran a 100,000-level scenario');
    const page = await env.open(link(text));
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'error');
    const shown = await errorText(page);
    assert.doesNotMatch(shown, /call stack|structuredClone|could not be cloned/i);
    assert.equal(shown, `refused before running: ${want.error}`);
    assert.equal(await page.evaluate(() => window.placelab.scenarioText()), text, 'the scenario left the editor');
    assert.ok((await page.getByTestId('raw-json').inputValue()).length < 2000, 'the nesting is not folded');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('says "refused before running: <path>: <message>" for a scenario over a limit, not "Failed after"', async () => {
    const text = JSON.stringify({
      version: 1, engine: 'allocation', name: 'too big',
      system: { kind: 'mesh', width: 512, height: 512 }, policies: ['sequential', 'random', 'hilbert'],
      workload: { kind: 'generated', count: 100000 },
    });
    const want = cli(text);
    assert.match(want.error ?? '', /^\$\.workload: /);
    const page = await env.open();
    await typeRawJson(page, text);
    await page.getByTestId('run').click();
    await waitSettled(page);
    // The engine may word it "<path>: refused before running: …" itself: the page says it once, first.
    assert.equal(await errorText(page), `refused before running: ${want.error.replace(/^(\S+: )refused before running: /, '$1')}`);
    assert.equal(await page.getByTestId('run-info').textContent(), 'Refused before running');
    await page.close();
  });
});
