// Layout and drawings at phone and desktop widths: no page-wide horizontal scroll on a 390 px phone
// and a compact toolbar; policy panels sharing one row at 1280 px; select boxes that show their
// whole text; the contention heat map (layers, legend, job colours kept visible, counts); the
// slider's time equal to every caption's; the SWF example's "Jobs read from the log" field.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, pickExample, moduleUrl, artifact, checkDrawingAgainstReport, runScenario } from '../lib/harness.mjs';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const EXAMPLES = ['tianhe-npb-stream.json', 'mesh64-random-stream.json', 'swf-log-16x16.json',
  'fallbacks-8x8.json', 'tree-4ary.json', 'fig1-4x4.json'];
/** Room a select keeps beside its text for the drop-down arrow (Chromium: 20 px and more). */
const SELECT_ARROW_PX = 18;

async function openAt(env, viewport, example) {
  const page = await env.open('', { viewport });
  if (example && example !== await page.evaluate(() => document.querySelector('[data-testid=example-select]').value)) {
    await pickExample(page, example);
  }
  return page;
}

/** Visible selects whose longest option does not fit: [{select, text, need, have}]. */
function cutSelects(page) {
  return page.evaluate((arrow) => {
    const ctx = document.createElement('canvas').getContext('2d');
    const out = [];
    for (const s of document.querySelectorAll('select')) {
      if (!s.offsetParent) continue;
      const cs = getComputedStyle(s);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      for (const o of s.options) {
        const need = Math.ceil(ctx.measureText(o.text).width + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + arrow);
        if (need > s.clientWidth) out.push({ select: s.id || s.dataset.testid, text: o.text, need, have: s.clientWidth });
      }
    }
    return out;
  }, SELECT_ARROW_PX);
}

describe('layout', () => {
  const env = useBrowser();

  it('on a 390 px phone the page is no wider than the screen and the toolbar is compact', async () => {
    for (const ex of EXAMPLES) {
      const page = await openAt(env, PHONE, ex);
      const m = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        toolbar: document.querySelector('.toolbar').getBoundingClientRect().height,
        tableBox: getComputedStyle(document.querySelector('[data-testid=metrics-table]').parentElement).overflowX,
      }));
      assert.ok(m.scrollWidth <= PHONE.width, `${ex}: page is ${m.scrollWidth} px wide on a ${PHONE.width} px screen`);
      assert.ok(m.toolbar <= 0.15 * PHONE.height, `${ex}: toolbar is ${m.toolbar} px tall (${Math.round((100 * m.toolbar) / PHONE.height)}% of the screen)`);
      assert.equal(m.tableBox, 'auto', 'the metrics table scrolls in its own box');
      if (ex === 'mesh64-random-stream.json') await page.screenshot({ path: artifact('phone-390-mesh64.png'), fullPage: true });
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  });

  it('at 1280 px the policy panels share one row above the fold', async () => {
    for (const ex of EXAMPLES) {
      const page = await openAt(env, DESKTOP, ex);
      const tops = await page.evaluate(() => [...document.querySelectorAll('[data-testid=canvas]')]
        .map((c) => ({ policy: c.dataset.policy, top: c.getBoundingClientRect().top + scrollY })));
      assert.ok(tops.length >= 2, `${ex}: ${tops.length} panels`);
      for (const t of tops) {
        assert.equal(t.top, tops[0].top, `${ex}: ${t.policy} at ${t.top} px, first panel at ${tops[0].top} px`);
        assert.ok(t.top < DESKTOP.height, `${ex}: ${t.policy} starts at ${t.top} px, below the fold`);
      }
      if (ex === 'mesh64-random-stream.json') await page.screenshot({ path: artifact('desktop-1280-mesh64.png') });
      await page.context().close();
    }
  });

  it('select boxes show the whole text of every option at 390 and 1280 px', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      for (const ex of ['tianhe-npb-stream.json', 'mesh64-random-stream.json', 'tree-4ary.json']) {
        const page = await openAt(env, viewport, ex);
        await page.evaluate(() => { document.querySelector('.jobs-details')?.setAttribute('open', ''); });
        assert.deepEqual(await cutSelects(page), [], `${ex} at ${viewport.width} px`);
        await page.context().close();
      }
    }
  });

  it('draws contention as a heat map with a legend, keeping two running jobs apart on the 64x64 example', async () => {
    const page = await openAt(env, DESKTOP, 'mesh64-random-stream.json');
    const legend = await page.getByTestId('legend').getAttribute('aria-label');
    assert.match(legend || '', /running jobs crossing a router or link/);
    for (const bin of ['2', '3–4', '5–8', '9–16', '17–32', '33+']) assert.ok(legend.includes(`; ${bin}`), `legend lacks the bin ${bin}: ${legend}`);

    // Both layers on: every job's cells still show mostly its own colour, in every panel.
    const jobs = await page.evaluate(async (commonUrl) => {
      const { jobColor } = await import(commonUrl);
      const view = window.placelab.view;
      const report = window.placelab.lastReport.report;
      const dpr = window.devicePixelRatio || 1;
      const canvases = [...document.querySelectorAll('[data-testid=canvas]')];
      const cell = view.layout.cell;
      const hex = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
      return report.runs.map((run, r) => {
        const scene = view.scene(r);
        const ctx = canvases[r].getContext('2d');
        const nodesOf = new Map();
        scene.owner.forEach((j, n) => { if (j >= 0 && !scene.ownedIdle[n]) { if (!nodesOf.has(j)) nodesOf.set(j, []); nodesOf.get(j).push(n); } });
        // The two largest running jobs with different colours.
        const byize = [...nodesOf.entries()].sort((a, b) => b[1].length - a[1].length);
        const a = byize[0];
        const b = byize.find(([j]) => jobColor(j) !== jobColor(a[0]));
        const share = ([j, nodes]) => {
          const want = hex(jobColor(j));
          let own = 0, all = 0;
          for (const n of nodes) {
            const [cx, cy] = view.routerCenter(n);
            const x0 = Math.round((cx - cell / 2) * dpr), y0 = Math.round((cy - cell / 2) * dpr), k = Math.max(1, Math.floor(cell * dpr));
            const data = ctx.getImageData(x0, y0, k, k).data;
            for (let i = 0; i < data.length; i += 4) {
              all++;
              if (Math.abs(data[i] - want[0]) + Math.abs(data[i + 1] - want[1]) + Math.abs(data[i + 2] - want[2]) <= 30) own++;
            }
          }
          return { job: j, color: jobColor(j), nodes: nodes.length, share: own / all };
        };
        return { policy: run.policy, contended: scene.contendedRouters.length, a: share(a), b: b && share(b) };
      });
    }, moduleUrl('draw/common.js'));
    for (const r of jobs) {
      assert.ok(r.b, `${r.policy}: fewer than two job colours running`);
      assert.notEqual(r.a.color, r.b.color);
      for (const j of [r.a, r.b]) {
        assert.ok(j.share >= 0.6, `${r.policy}: job ${j.job} shows its colour on ${(100 * j.share).toFixed(0)}% of its cells (${r.contended} contended routers)`);
      }
    }
    assert.ok(jobs.some((r) => r.contended > 1000), 'the example should be busy with contention');

    // Contention layer alone: a heat map of counts, several shades, each router in its count's colour.
    await page.getByTestId('layer-jobs').uncheck();
    await page.waitForFunction(() => !window.placelab.view.layers().jobs, null, { timeout: 0 });
    await page.evaluate(() => window.placelab.view.drawNow());
    const heat = await page.evaluate(async (commonUrl) => {
      const { heatColor } = await import(commonUrl);
      const view = window.placelab.view;
      const dpr = window.devicePixelRatio || 1;
      const canvas = document.querySelector('[data-testid=canvas]');
      const ctx = canvas.getContext('2d');
      const scene = view.scene(0);
      const cr = new Set(scene.contendedRouters);
      const shades = new Set();
      let wrong = 0;
      scene.heat.routers.forEach((c, id) => {
        const drawn = cr.has(id) ? Math.max(2, c) : Math.min(1, c);
        const want = heatColor(drawn) || '#E3E6EA';
        const [x, y] = view.routerCenter(id);
        const p = ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data;
        const got = `#${[p[0], p[1], p[2]].map((v) => v.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
        if (got !== want.toUpperCase()) wrong++;
        shades.add(got);
      });
      return { wrong, shades: shades.size, legend: document.querySelector('[data-testid=legend]').getAttribute('aria-label') };
    }, moduleUrl('draw/common.js'));
    assert.equal(heat.wrong, 0, 'routers drawn in a colour other than their count\'s');
    assert.ok(heat.shades >= 4, `only ${heat.shades} shades: not a heat map`);
    assert.match(heat.legend, /; 1;/, 'the contention layer alone has the "1" bin');
    await page.screenshot({ path: artifact('heatmap-64x64.png') });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it('the heat map counts two or more jobs exactly where every example\'s report says contended', async () => {
    for (const ex of EXAMPLES) {
      const page = await openAt(env, DESKTOP, ex);
      const { problems, stats } = await checkDrawingAgainstReport(page);
      assert.deepEqual(problems, [], ex);
      for (const s of stats) assert.equal(s.unknownFootprints, 0, `${ex} ${s.policy}: jobs whose routes were not recognised`);
      await page.context().close();
    }
  });

  it('draws a 512x512 mesh and a 4x4 mesh with every job in its colour', async () => {
    const page = await openAt(env, DESKTOP);
    for (const [w, jobs] of [[512, [65536, 65536, 65536, 65536]], [4, [4, 4, 4, 4]]]) {
      const scenario = {
        version: 1, engine: 'allocation', name: `${w}x${w}`, system: { kind: 'mesh', width: w, height: w },
        policies: ['sequential', 'closed-min-best'], workload: { kind: 'set', jobs: jobs.map((tasks) => ({ tasks })) },
      };
      await runScenario(page, scenario);
      await page.evaluate(() => window.placelab.view.drawNow()); // large machines draw a panel per frame
      const colours = await page.evaluate(async (commonUrl) => {
        const { jobColor } = await import(commonUrl);
        const view = window.placelab.view;
        const dpr = window.devicePixelRatio || 1;
        const ctx = document.querySelector('[data-testid=canvas]').getContext('2d');
        const scene = view.scene(0);
        const bad = [];
        const firstOf = new Map();
        scene.owner.forEach((j, node) => { if (!firstOf.has(j)) firstOf.set(j, []); firstOf.get(j).push(node); });
        for (const [j, nodes] of firstOf) {
          if (j < 0) continue;
          const node = nodes[Math.floor(nodes.length / 2)];
          const [x, y] = view.nodeSample(node);
          const p = ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data;
          const want = jobColor(j);
          const got = `#${[p[0], p[1], p[2]].map((v) => v.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
          if (got !== want.toUpperCase()) bad.push(`job ${j} node ${node}: ${got} not ${want}`);
        }
        return { jobs: firstOf.size - (firstOf.has(-1) ? 1 : 0), bad };
      }, moduleUrl('draw/common.js'));
      assert.equal(colours.jobs, 4, `${w}x${w}`);
      assert.deepEqual(colours.bad, [], `${w}x${w}`);
    }
    await page.screenshot({ path: artifact('mesh-4x4.png') });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it('the heat map recognises all, neighbor and no traffic under random placement', async () => {
    const page = await openAt(env, DESKTOP);
    const scenario = {
      version: 1, engine: 'allocation', name: 'comm patterns', system: { kind: 'mesh', width: 8, height: 8 },
      policies: ['random', 'hilbert', 'closed-min-paper'],
      workload: { kind: 'set', jobs: [{ tasks: 9, comm: 'neighbor' }, { tasks: 12, comm: 'neighbor' }, { tasks: 5, comm: 'all' }, { tasks: 7, comm: 'none' }] },
    };
    await runScenario(page, scenario);
    const { problems, stats } = await checkDrawingAgainstReport(page);
    assert.deepEqual(problems, []);
    for (const st of stats) assert.equal(st.unknownFootprints, 0, st.policy);
    assert.ok(stats[0].contendedRouters > 0, 'random placement should share routers here');
    await page.context().close();
  });

  it('a 262,144-leaf tree shows its busy leaves although each is far under a pixel', async () => {
    const page = await openAt(env, DESKTOP);
    const scenario = {
      version: 1, engine: 'allocation', name: 'big tree', system: { kind: 'tree', arities: [64, 64, 64] },
      policies: ['random'],
      workload: { kind: 'generated', count: 200, backfill: 'easy', minTasks: 100, maxTasks: 20000, meanInterarrival: 5, meanDuration: 100 },
    };
    await runScenario(page, scenario);
    await page.evaluate(() => window.placelab.view.drawNow());
    const share = await page.evaluate(async (commonUrl) => {
      const { PALETTE } = await import(commonUrl);
      const view = window.placelab.view, lay = view.layout;
      const dpr = window.devicePixelRatio || 1;
      const ctx = document.querySelector('[data-testid=canvas]').getContext('2d');
      const [, y] = view.nodeSample(0);
      const x0 = Math.ceil(lay.ox * dpr), x1 = Math.floor((lay.ox + lay.N * lay.spacing) * dpr);
      const row = ctx.getImageData(x0, Math.floor(y * dpr), x1 - x0, 1).data;
      const idle = [1, 3, 5].map((i) => parseInt(PALETTE.idle.slice(i, i + 2), 16));
      let busy = 0;
      for (let i = 0; i < row.length; i += 4) {
        const isIdle = Math.abs(row[i] - idle[0]) + Math.abs(row[i + 1] - idle[1]) + Math.abs(row[i + 2] - idle[2]) <= 12;
        const isBlank = row[i] > 250 && row[i + 1] > 250 && row[i + 2] > 250;
        if (!isIdle && !isBlank) busy++;
      }
      const frame = window.placelab.lastReport.report.runs[0].frames[view.frameOf(0)];
      return { strip: busy / (row.length / 4), busy: frame.busyNodes / lay.N };
    }, moduleUrl('draw/common.js'));
    // Busy leaves are scattered: about as many pixels as the busy share cover a busy leaf.
    assert.ok(share.busy > 0.5, `the frame shown has ${(100 * share.busy).toFixed(0)}% of the leaves busy`);
    assert.ok(share.strip >= 0.8 * share.busy, `${(100 * share.strip).toFixed(0)}% of the leaf strip shows a job, ${(100 * share.busy).toFixed(0)}% of the leaves are busy`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it('the slider and every panel caption state the same time', async () => {
    const page = await openAt(env, DESKTOP, 'mesh64-random-stream.json');
    for (const move of [null, 10, 57]) {
      if (move !== null) {
        await page.evaluate((k) => window.placelab.view.setFrame(k), move);
        await page.evaluate(() => window.placelab.view.drawNow());
      }
      const times = await page.evaluate(() => ({
        slider: document.querySelector('.frame-label').textContent,
        captions: [...document.querySelectorAll('[data-testid=frame-caption]')].map((c) => c.textContent),
      }));
      const sliderT = times.slider.match(/^t = ([\d.]+) s/)?.[1];
      assert.ok(sliderT, times.slider);
      for (const c of times.captions) assert.equal(c.match(/^t = ([\d.]+) s/)?.[1], sliderT, `caption "${c}" vs slider "${times.slider}"`);
    }
    await page.context().close();
  });

  it('the SWF example says how many jobs are read from the log', async () => {
    const page = await openAt(env, DESKTOP, 'swf-log-16x16.json');
    const field = await page.evaluate(() => {
      const input = document.querySelector('[data-testid="param-workload.maxJobs"]');
      return input && { visible: !!input.offsetParent, value: input.value, placeholder: input.placeholder };
    });
    assert.ok(field?.visible, 'the field is shown');
    assert.ok(field.value || field.placeholder, 'the field is empty and says nothing');
    assert.match(field.value || field.placeholder, /all|\d/);
    await page.context().close();
  });
});
