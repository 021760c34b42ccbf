// Hovering the placement engine's drawing: each panel's hitTest finds every host at the point the
// layout gives for it (grids, networks drawn by their groups, trees); the tooltip names the host
// under the pointer, by its name on a SimGrid platform file, by its coordinates on a torus, with
// the tasks the strategy drawn put on it, or the background job on it, or "free"; over a tree's
// switch, its id and level. A dense tree's host row (hosts narrower than a pixel) shows under every
// pixel the colour of the host the tooltip names there. Truths come from the report's JSON text,
// not from the page's view of it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, moduleUrl, runScenario } from '../lib/harness.mjs';

const env = useBrowser();

/** The report as the engine wrote it (the page's text export; the panels show its first case). */
async function fullReport(page) {
  return JSON.parse(await page.evaluate(() => window.placelab.reportText())).report;
}

/** Moves the pointer over host `h` of panel `i`; returns the tooltip's text once shown. */
async function hoverHost(page, i, h) {
  const [x, y] = await page.evaluate(([k, host]) => window.placelab.view.hostPoint(k, host), [i, h]);
  const canvas = page.getByTestId('canvas').nth(i);
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + x, box.y + y);
  const tip = page.getByTestId('place-tooltip');
  await tip.waitFor({ state: 'visible' });
  return tip.textContent();
}

/** Moves the pointer away from the drawing and waits for the tooltip to go. */
async function leave(page) {
  await page.mouse.move(0, 0);
  await page.getByTestId('place-tooltip').waitFor({ state: 'hidden' });
}

/** The tasks of `run` (host of each task) on host `h`, in task order. */
const tasksOn = (run, h) => run.hosts.flatMap((x, t) => (x === h ? [t] : []));

describe('place drawing tooltips', () => {
  it('hitTest finds every host (and every tree switch) where the layout draws it', async () => {
    const page = await env.open();
    for (const f of ['place-zk-exp1-torus2d-1mb.json', 'place-zk-exp1-torus3d.json', 'place-torus5d-bgq.json', 'place-dragonfly.json',
      'place-simgrid-two-clusters.json', 'place-fattree.json', 'place-thintree.json']) {
      await pickExample(page, f);
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', f);
      const wrong = await page.evaluate(() => {
        const { view } = window.placelab;
        const sys = window.placelab.lastReport.report.system;
        const out = [];
        for (let i = 0; view.drawn(i); i++) {
          for (let h = 0; h < sys.hosts; h++) {
            const [x, y] = view.hostPoint(i, h);
            const hit = view.hit(i, x, y);
            if (hit?.type !== 'host' || hit.id !== h) out.push(`panel ${i}: host ${h} at (${x}, ${y}) gives ${JSON.stringify(hit)}`);
          }
          const layout = view.drawn(i).layout;
          for (let s = 0; s < sys.switches && !sys.dims && !sys.groups; s++) {
            const [x, y] = layout.center(sys.hosts + s);
            const hit = view.hit(i, x, y);
            if (hit?.type !== 'switch' || hit.id !== s || hit.level !== sys.switchLevel[s]) out.push(`panel ${i}: switch ${s} gives ${JSON.stringify(hit)}`);
          }
          if (view.hit(i, -1, -1) !== null) out.push(`panel ${i}: a hit outside the drawing`);
        }
        return out;
      });
      assert.deepEqual(wrong.slice(0, 10), [], f);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('a dense tree\'s host row shows, under every pixel, the colour of the host the tooltip names there', async () => {
    const page = await env.open();
    // 4,096 hosts in about a thousand pixels: the row is written as one image, a pixel a host
    const scenario = {
      version: 1, engine: 'place', name: 'dense thin tree', seed: 3, model: 'simgrid-lv08', strategies: ['random'],
      system: { kind: 'thinTree', simgrid: '3;16,16,16;1,4,4;1,1,1' },
      job: { kind: 'GRID', processes: 1024, rounds: 1, messageBytes: 1, wrap: true },
    };
    await runScenario(page, scenario);
    assert.equal(await page.evaluate(() => window.placelab.lastError?.message ?? null), null);
    await page.waitForFunction(() => !window.placelab.view.drawing());
    const run = (await fullReport(page)).cases[0].runs[0];
    const out = await page.evaluate(async ([url, hosts]) => {
      const { taskColor, IDLE } = await import(url);
      const { view } = window.placelab;
      const taskOf = new Map(hosts.map((h, t) => [h, t]));
      const idle = [1, 3, 5].map((i) => parseInt(IDLE.slice(i, i + 2), 16));
      const dpr = window.devicePixelRatio || 1;
      const canvas = document.querySelector('[data-testid=canvas]');
      const layout = view.drawn(0).layout;
      const y = view.hostPoint(0, 0)[1];
      const row = canvas.getContext('2d').getImageData(0, Math.floor(y * dpr), Math.round(layout.width * dpr), 1).data;
      const bad = [];
      const seen = new Set();
      for (let px = 0; px < row.length / 4; px++) {
        const hit = view.hit(0, (px + 0.5) / dpr, y);
        if (hit?.type !== 'host') { bad.push(`pixel ${px}: ${JSON.stringify(hit)}`); continue; }
        seen.add(hit.id);
        const t = taskOf.get(hit.id);
        const want = t === undefined ? idle : taskColor(t / (hosts.length - 1));
        const got = [row[4 * px], row[4 * px + 1], row[4 * px + 2]];
        if (got.some((v, k) => v !== want[k])) bad.push(`pixel ${px}, host ${hit.id}: rgb(${got}) not rgb(${want})`);
      }
      return { bad: bad.slice(0, 10), pixels: row.length / 4, hosts: seen.size };
    }, [moduleUrl('draw/place.js'), run.hosts]);
    assert.deepEqual(out.bad, []);
    assert.ok(out.pixels >= 300 && out.hosts === out.pixels, `${out.pixels} pixels, ${out.hosts} hosts shown: one host a pixel`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('names a platform file\'s host and the task on it, and a free host', async () => {
    const page = await env.open();
    await pickExample(page, 'place-simgrid-two-clusters.json');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');
    const r = await fullReport(page);
    assert.equal(r.system.kind, 'simgrid');
    assert.equal(r.system.hostNames.length, r.system.hosts);
    const i = r.cases[0].runs.findIndex((x) => x.strategy === 'advanced');
    const run = r.cases[0].runs[i];
    assert.ok(run.placed);
    const h = run.hosts[5];
    const text = await hoverHost(page, i, h);
    assert.ok(text.startsWith(`host ${h} (${r.system.hostNames[h]})\n`), text);
    assert.match(text, new RegExp(`^${run.label}: tasks? ${tasksOn(run, h).join(', ')}$`, 'm'));
    assert.ok(tasksOn(run, h).includes(5));
    // a host the job left free (48 tasks on 64 hosts), in the same panel
    const free = [...Array(r.system.hosts).keys()].find((x) => !run.hosts.includes(x));
    const freeText = await hoverHost(page, i, free);
    assert.equal(freeText, `host ${free} (${r.system.hostNames[free]})\nfree`);
    await leave(page);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('gives a torus host its coordinates, its task, or the background job on it', async () => {
    const page = await env.open();
    await pickExample(page, 'place-zk-exp2-torus2d-1mb.json');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');
    const r = await fullReport(page);
    assert.deepEqual(r.system.dims, [8, 8, 1]);
    assert.ok(r.background.jobs.length > 0);
    const run = r.cases[0].runs[0];
    assert.ok(run.placed);
    const h = run.hosts[run.hosts.length - 1];
    const text = await hoverHost(page, 0, h);
    assert.ok(text.startsWith(`host ${h} (x ${h % 8}, y ${Math.floor(h / 8)})\n`), text);
    assert.match(text, new RegExp(`^${run.label}: tasks? ${tasksOn(run, h).join(', ')}$`, 'm'));
    // a host of a background job: the job's index, kind and strategy
    const k = r.background.jobs.findIndex((j) => j.hosts.length > 0);
    const b = r.background.jobs[k].hosts[0];
    const busyText = await hoverHost(page, 0, b);
    assert.equal(busyText, `host ${b} (x ${b % 8}, y ${Math.floor(b / 8)})\nbusy: background job ${k} (${r.background.jobs[k].kind}/${r.background.jobs[k].strategy})`);
    await leave(page);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  it('names a tree\'s switch and level', async () => {
    const page = await env.open();
    await pickExample(page, 'place-fattree.json');
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');
    const r = await fullReport(page);
    const s = r.system.switches - 1;
    const [x, y] = await page.evaluate((v) => window.placelab.view.drawn(0).layout.center(v), r.system.hosts + s);
    const canvas = page.getByTestId('canvas').first();
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + x, box.y + y);
    const tip = page.getByTestId('place-tooltip');
    await tip.waitFor({ state: 'visible' });
    assert.match(await tip.textContent(), new RegExp(`^switch ${s} \\(level ${r.system.switchLevel[s]}`));
    await leave(page);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
