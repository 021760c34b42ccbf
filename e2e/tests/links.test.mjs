// Share links round-trip; broken and hostile links show an error, load the default example,
// and never run or insert HTML.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { useBrowser, pickExample, defaultExample, waitSettled, artifact } from '../lib/harness.mjs';

const env = useBrowser();
const b64url = (buf) => Buffer.from(buf).toString('base64url');
const link = (text) => `#v1.${b64url(zlib.gzipSync(Buffer.from(text)))}`;
const XSS = '<img src=x onerror="window.__pwned=1">';

async function assertNoInjectedHtml(page) {
  const state = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    imgs: document.querySelectorAll('img, script:not([type=module]), iframe').length,
  }));
  assert.equal(state.pwned, null, 'a handler from the link ran');
  assert.equal(state.imgs, 0, 'the link inserted elements');
}

describe('share links', () => {
  it('round-trips a scenario: the link opened in a new page gives the same report text', async () => {
    const page = await env.open();
    await pickExample(page, 'fig1-4x4.json');
    await page.getByTestId('share').click();
    await page.waitForFunction(() => window.placelab.state.lastShareUrl);
    const url = await page.evaluate(() => window.placelab.state.lastShareUrl);
    assert.match(url, /#v1\.[A-Za-z0-9_-]+$/);
    assert.equal(await page.evaluate(() => location.href), url);
    const reportText = await page.evaluate(() => window.placelab.lastReportText);
    const other = await env.page();
    await other.goto(url);
    await waitSettled(other);
    assert.equal(await other.evaluate(() => window.placelab.lastReportText), reportText);
    assert.equal(await other.evaluate(() => window.placelab.lastError), null);
    assert.equal(await other.getByTestId('error-panel').isVisible(), false);
    assert.deepEqual(other.problems, []);
    await other.screenshot({ path: artifact('shared-link.png') });
    await page.close(); await other.close();
  });

  it('decodes a frozen v1 link made by another encoder (fixture)', async () => {
    const scenario = {
      version: 1, engine: 'allocation', name: 'frozen link',
      system: { kind: 'mesh', width: 4, height: 4 }, policies: ['sequential'],
      workload: { kind: 'set', jobs: [{ name: 'a', tasks: 4 }] },
    };
    const page = await env.open(link(JSON.stringify(scenario)));
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');
    assert.equal(await page.evaluate(() => window.placelab.lastReport.name), 'frozen link');
    await page.close();
  });

  it('runs a scenario whose name holds HTML, showing it as text', async () => {
    const scenario = {
      version: 1, engine: 'allocation', name: XSS,
      system: { kind: 'mesh', width: 4, height: 4 }, policies: ['sequential'],
      workload: { kind: 'set', jobs: [{ name: XSS, tasks: 4 }] },
    };
    const page = await env.open(link(JSON.stringify(scenario)));
    await page.locator('.jobs-details > summary').click();
    const [x, y] = await page.evaluate(() => window.placelab.view.nodeSample(0));
    const box = await page.getByTestId('canvas').first().boundingBox();
    await page.mouse.move(box.x + x, box.y + y);
    await page.waitForTimeout(200);
    assert.equal(await page.getByTestId('result-title').textContent(), XSS);
    await assertNoInjectedHtml(page);
    await page.close();
  });

  const hostile = {
    'garbage after the prefix': '#v1.garbage',
    'characters outside base64url': '#v1.<img src=x onerror=alert(1)>',
    'an unknown version': '#v9.AAAA',
    'no version prefix': '#hello',
    'not gzip': `#v1.${b64url('just some plain text, not gzip')}`,
    'gzip of text that is not JSON': link(`<script>window.__pwned=1</script>${XSS}`),
    'gzip of JSON that is not a scenario': link(JSON.stringify({ name: XSS })),
    'gzip of a JSON array': link('[1, 2, 3]'),
    'truncated gzip': `#v1.${b64url(zlib.gzipSync(Buffer.from('{"version":1}')).subarray(0, 12))}`,
    'a gzip bomb (8 MiB of spaces)': `#v1.${b64url(zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024, 32)))}`,
    'an over-long link': `#v1.${'A'.repeat(2_050_000)}`,
  };
  for (const [what, hash] of Object.entries(hostile)) {
    it(`rejects a link with ${what}: error shown, default example loaded, no HTML`, async () => {
      const page = await env.open(hash);
      const def = await defaultExample(page);
      const errorText = await page.getByTestId('error-panel').textContent();
      assert.ok(await page.getByTestId('error-panel').isVisible(), 'error panel hidden');
      assert.match(errorText, /link/i);
      assert.equal(await page.evaluate(() => window.placelab.lastReport?.name), def.name);
      assert.equal(await page.getByTestId('example-select').inputValue(), def.file);
      await assertNoInjectedHtml(page);
      assert.deepEqual(page.problems, []);
      if (what === 'garbage after the prefix') await page.screenshot({ path: artifact('broken-link.png') });
      await page.close();
    });
  }
});
