// Shared test plumbing: one server and one browser per test file, pages that record console errors,
// and checks run inside the page against window.placelab.
import { before, after } from 'node:test';
import { startServer } from './server.mjs';
import { launch, newPage, waitSettled, artifact } from './browser.mjs';

export { waitSettled, artifact };

/** Registers before/after hooks; returns an object filled with {server, browser, url} once started. */
export function useBrowser() {
  const env = {};
  before(async () => {
    env.server = await startServer();
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
  await page.waitForFunction((n) => window.placelab.runCount > n || window.placelab.lastError, before);
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
 * Inside the page: compares every canvas with the report. For each run, at the frame shown,
 * a router's centre and a link's midpoint are red exactly when the frame lists them as contended,
 * and each node shows its job's colour (or idle). Returns a list of mismatches (empty = good).
 */
export async function checkDrawingAgainstReport(page) {
  return page.evaluate(async () => {
    const { PALETTE, jobColor } = await import('./draw/common.js');
    const report = window.placelab.lastReport.report;
    const view = window.placelab.view;
    const dpr = window.devicePixelRatio || 1;
    const hex = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
    const near = (p, c, tol = 40) => Math.abs(p[0] - c[0]) + Math.abs(p[1] - c[1]) + Math.abs(p[2] - c[2]) <= tol;
    const isRed = (p) => p[0] > 190 && p[1] < 70 && p[2] < 90;
    const problems = [];
    const canvases = [...document.querySelectorAll('[data-testid=canvas]')];
    if (canvases.length !== report.runs.length) problems.push(`${canvases.length} canvases for ${report.runs.length} runs`);
    const stats = [];
    report.runs.forEach((run, r) => {
      const ctx = canvases[r].getContext('2d');
      const px = ([x, y]) => Array.from(ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data);
      const frame = run.frames[view.frameOf(r)];
      const cr = new Set(frame.contendedRouters), cl = new Set(frame.contendedLinks);
      let red = 0;
      for (let id = 0; id < report.topology.routers; id++) {
        const got = isRed(px(view.routerCenter(id)));
        red += got;
        if (got !== cr.has(id)) problems.push(`run ${r} (${run.policy}): router ${id} ${got ? 'red' : 'not red'} but report says ${cr.has(id) ? '' : 'not '}contended`);
      }
      for (let id = 0; id < report.topology.links; id++) {
        const got = isRed(px(view.linkMidpoint(id)));
        if (cl.has(id) && !got) problems.push(`run ${r}: contended link ${id} not red`);
        // Tree leaf links fan out close together: a thick red neighbour may cover a midpoint.
        const crowded = report.topology.kind === 'tree' && id >= report.topology.routers - 1;
        if (!cl.has(id) && got && !crowded) problems.push(`run ${r}: link ${id} red but not contended`);
      }
      const scene = view.scene(r);
      const colorsSeen = new Set();
      for (let n = 0; n < report.topology.nodes; n++) {
        const j = scene.owner[n];
        const want = j < 0 ? PALETTE.idle : jobColor(j);
        const got = px(view.nodeSample(n));
        if (!scene.ownedIdle[n] && !near(got, hex(want))) problems.push(`run ${r}: node ${n} shows rgb(${got.slice(0, 3)}) not ${want}`);
        if (j >= 0) colorsSeen.add(want);
      }
      stats.push({ policy: run.policy, redRouters: red, contendedRouters: cr.size, jobColors: colorsSeen.size });
    });
    return { problems: problems.slice(0, 20), stats };
  });
}

/** A canvas's pixels as a data URL, to see whether a drawing changed. */
export function canvasSnapshot(page, index = 0) {
  return page.evaluate((i) => document.querySelectorAll('[data-testid=canvas]')[i]?.toDataURL() ?? null, index);
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
