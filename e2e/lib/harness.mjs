// Shared test plumbing: one server and one browser per test file, pages that record console errors,
// and checks run inside the page against window.placelab. The page under test is the built folder,
// dist/ (what GitHub Pages publishes), served from the sub-path /placelab/ as Pages does.
import { before, after } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, manifest } from './server.mjs';

/** PLACELAB_SITE=folder serves another built folder (e.g. an older release, to see a test fail). */
const SITE = process.env.PLACELAB_SITE || null;
import { launch, newPage, waitSettled, artifact } from './browser.mjs';

export { waitSettled, artifact };

/** Waits for the run that `act` starts (or the error it shows); returns the page's status after it. */
export async function runAfter(page, act) {
  const before = await page.evaluate(() => window.placelab.runCount);
  await act();
  await page.waitForFunction((n) => window.placelab.runCount > n || (window.placelab.lastError && document.body.dataset.status === 'error'), before, { timeout: 0 });
  await waitSettled(page);
  return page.evaluate(() => document.body.dataset.status);
}

/** URL (relative to the page) of the built module for source path `rel`, e.g. `draw/common.js`. */
export function moduleUrl(rel) {
  if (SITE && !fs.existsSync(path.join(SITE, 'manifest.json'))) return `./${rel}`;
  const hashed = manifest(SITE || undefined)[rel];
  if (!hashed) throw new Error(`${rel} is not in dist/manifest.json`);
  return `./${hashed}`;
}

/** Registers before/after hooks; returns an object filled with {server, browser, url} once started. */
export function useBrowser() {
  const env = {};
  before(async () => {
    env.server = await startServer(SITE ? { roots: [SITE] } : {});
    env.browser = await launch();
    env.url = env.server.url;
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  env.page = (opts) => newPage(env.browser, opts);
  /** Opens `path` (e.g. '' or '#v1.…') and waits for the first run to settle. */
  env.open = async (path = '', opts) => {
    const page = await newPage(env.browser, opts);
    await page.goto(env.url + path);
    await page.waitForFunction(() => window.placelab, null, { timeout: 0 }); // no time limit in tests
    await page.evaluate(() => window.placelab.ready);
    await waitSettled(page);
    return page;
  };
  return env;
}

/** Picks an example from the menu and waits for its run. */
export async function pickExample(page, file) {
  const before = await page.evaluate(() => window.placelab.runCount);
  await page.selectOption('[data-testid=example-select]', file);
  await page.waitForFunction((n) => window.placelab.runCount > n || window.placelab.lastError, before, { timeout: 0 });
  return waitSettled(page);
}

/** The default example's file and name, from examples/index.json. */
export async function defaultExample(page) {
  return page.evaluate(async () => {
    const index = await (await fetch('examples/index.json')).json();
    const file = index.default || index.examples[0].file;
    const scenario = await (await fetch(`examples/${file}`)).json();
    return { file, name: scenario.name || '' };
  });
}

/**
 * Inside the page: compares every canvas with the report, with both layers (jobs, contention) on.
 * For each run, at the frame shown: a router's centre (where the drawing has room for it: meshes
 * with cells of 3 px or more, trees) and a link's midpoint (detailed meshes, trees) show a
 * contention colour (the heat map's "2" or more) exactly when the frame lists them as contended;
 * each node shows its job's colour (or idle); and the heat map's own counts agree with the report:
 * the routers and links it counts two or more running jobs on are exactly the contended ones.
 * Returns {problems (empty = good), stats}.
 */
export async function checkDrawingAgainstReport(page) {
  return page.evaluate(async (commonUrl) => {
    const { PALETTE, HEAT_BINS, jobColor } = await import(commonUrl);
    const report = window.placelab.lastReport.report;
    const view = window.placelab.view;
    const dpr = window.devicePixelRatio || 1;
    const hex = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
    const near = (p, c, tol = 40) => Math.abs(p[0] - c[0]) + Math.abs(p[1] - c[1]) + Math.abs(p[2] - c[2]) <= tol;
    const hot = HEAT_BINS.filter((b) => b.min >= 2).map((b) => hex(b.color));
    const isHot = (p) => hot.some((c) => near(p, c, 24));
    const problems = [];
    const canvases = [...document.querySelectorAll('[data-testid=canvas]')];
    if (canvases.length !== report.runs.length) problems.push(`${canvases.length} canvases for ${report.runs.length} runs`);
    const layout = view.layout;
    const routersDrawn = layout.kind === 'tree' || layout.cell * dpr >= 3;
    const linksDrawn = layout.kind === 'tree' || layout.detailed;
    const stats = [];
    report.runs.forEach((run, r) => {
      const ctx = canvases[r].getContext('2d');
      const px = ([x, y]) => Array.from(ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data);
      const frame = run.frames[view.frameOf(r)];
      const cr = new Set(frame.contendedRouters), cl = new Set(frame.contendedLinks);
      const scene = view.scene(r);
      let hotRouters = 0;
      for (let id = 0; id < report.topology.routers; id++) {
        if ((scene.heat.routers[id] >= 2) !== cr.has(id)) problems.push(`run ${r} (${run.policy}): heat map counts ${scene.heat.routers[id]} jobs on router ${id} but the report says ${cr.has(id) ? '' : 'not '}contended`);
        if (!routersDrawn) continue;
        const got = isHot(px(view.routerCenter(id)));
        hotRouters += got;
        if (got !== cr.has(id)) problems.push(`run ${r} (${run.policy}): router ${id} ${got ? 'hot' : 'not hot'} but report says ${cr.has(id) ? '' : 'not '}contended`);
      }
      for (let id = 0; id < report.topology.links; id++) {
        if ((scene.heat.links[id] >= 2) !== cl.has(id)) problems.push(`run ${r}: heat map counts ${scene.heat.links[id]} jobs on link ${id} but the report says ${cl.has(id) ? '' : 'not '}contended`);
        if (!linksDrawn) continue;
        const got = isHot(px(view.linkMidpoint(id)));
        if (cl.has(id) && !got) problems.push(`run ${r}: contended link ${id} not drawn hot`);
        // Tree leaf links fan out close together: a thick neighbour may cover a midpoint.
        const crowded = report.topology.kind === 'tree' && id >= report.topology.routers - 1;
        if (!cl.has(id) && got && !crowded) problems.push(`run ${r}: link ${id} hot but not contended`);
      }
      const colorsSeen = new Set();
      for (let n = 0; n < report.topology.nodes; n++) {
        const j = scene.owner[n];
        const want = j < 0 ? PALETTE.idle : jobColor(j);
        const got = px(view.nodeSample(n));
        if (!scene.ownedIdle[n] && !near(got, hex(want))) problems.push(`run ${r}: node ${n} shows rgb(${got.slice(0, 3)}) not ${want}`);
        if (j >= 0) colorsSeen.add(want);
      }
      stats.push({ policy: run.policy, hotRouters, contendedRouters: cr.size, jobColors: colorsSeen.size, unknownFootprints: scene.heat.unknown });
    });
    return { problems: problems.slice(0, 20), stats };
  }, moduleUrl('draw/common.js'));
}

/** A canvas's pixels as a data URL, to see whether a drawing changed. */
export function canvasSnapshot(page, index = 0) {
  return page.evaluate((i) => document.querySelectorAll('[data-testid=canvas]')[i]?.toDataURL() ?? null, index);
}

/** Puts `scenario` (an object) in the raw JSON editor, clicks Run and waits for its report or error. */
export async function runScenario(page, scenario) {
  const n = await page.evaluate(() => window.placelab.runCount);
  await page.evaluate((s) => {
    const raw = document.querySelector('[data-testid=raw-json]');
    raw.value = JSON.stringify(s);
    raw.dispatchEvent(new Event('input', { bubbles: true }));
  }, scenario);
  await page.getByTestId('run').click();
  await page.waitForFunction((k) => window.placelab.runCount > k || window.placelab.lastError, n, { timeout: 0 });
}

/** Replaces the raw JSON text as a user would (input event), then waits for the debounce. */
export async function typeRawJson(page, text) {
  await page.evaluate((t) => {
    const raw = document.querySelector('[data-testid=raw-json]');
    raw.value = t;
    raw.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await page.waitForTimeout(400);
}
