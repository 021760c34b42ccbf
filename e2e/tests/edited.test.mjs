// An edited example says so: its name gets "(edited)" and its description "Edited from
// “<name>”.", in the page, in the report and in the share link; a name the user chose stays.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, waitSettled, typeRawJson } from '../lib/harness.mjs';
import { linkText } from '../lib/cli.mjs';

const env = useBrowser();

async function share(page) {
  await page.evaluate(() => { window.placelab.state.lastShareUrl = null; });
  await page.getByTestId('share').click();
  await page.waitForFunction(() => window.placelab.state.lastShareUrl);
  return JSON.parse(linkText(await page.evaluate(() => window.placelab.state.lastShareUrl)));
}

describe('edited scenarios', () => {
  it('marks an example edited in the form, in the title, the description and the share link', async () => {
    const page = await env.open();
    await pickExample(page, 'fig1-4x4.json');
    const original = await page.evaluate(async () => (await fetch('examples/fig1-4x4.json')).json());
    assert.equal(await page.getByTestId('result-title').textContent(), original.name);

    await page.getByTestId('param-system.width').fill('6');
    await page.getByTestId('param-system.width').dispatchEvent('change');
    const raw = JSON.parse(await page.getByTestId('raw-json').inputValue());
    assert.equal(raw.name, `${original.name} (edited)`);
    assert.equal(raw.description, `Edited from “${original.name}”. ${original.description}`);
    assert.match(await page.locator('#example-description').textContent(), /^Edited from “/);

    await page.getByTestId('run').click();
    await waitSettled(page);
    assert.equal(await page.getByTestId('result-title').textContent(), `${original.name} (edited)`);
    const shared = await share(page);
    assert.equal(shared.name, `${original.name} (edited)`);
    assert.equal(shared.system.width, 6);

    // Changed back, it is the example again, byte for byte.
    await page.getByTestId('param-system.width').fill('4');
    await page.getByTestId('param-system.width').dispatchEvent('change');
    assert.equal(await page.getByTestId('raw-json').inputValue(), await page.evaluate(async () => (await fetch('examples/fig1-4x4.json')).text()));
    await page.close();
  });

  it('marks raw JSON edits when run or shared, and keeps a name the user chose', async () => {
    const page = await env.open();
    await pickExample(page, 'fig1-4x4.json');
    const original = await page.evaluate(async () => (await fetch('examples/fig1-4x4.json')).text());
    const name = JSON.parse(original).name;
    await typeRawJson(page, original.replace('"width": 4', '"width": 5'));
    assert.equal((await share(page)).name, `${name} (edited)`);

    await pickExample(page, 'fig1-4x4.json');
    await typeRawJson(page, original.replace('"width": 4', '"width": 5').replace(JSON.stringify(name), '"my mesh"'));
    assert.equal((await share(page)).name, 'my mesh');
    await page.close();
  });
});
