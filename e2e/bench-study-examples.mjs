// Browser benchmark of the full-size example studies (not a test; the figures in
// docs/benchmarks.md, "The source's experiments at 4,096 nodes in the page"): each study is chosen
// from the examples menu as a user would (one click: its base runs and the study starts), and the
// page's study time (the panel's own clock, from the first point sent to the last received, on 2
// workers) is printed beside `placelab study --threads 2` of the same file natively, in the same
// run, with the page's longest main-thread task and whether the tidy tables are identical.
// Usage: node e2e/bench-study-examples.mjs [--only REGEX] [--page-only]   (after scripts/build.sh;
// --page-only: the page's figures alone, its eight longest main-thread tasks listed)
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildCli, CLI } from './lib/cli.mjs';
import { startServer, REPO } from './lib/server.mjs';
import { launch, newPage, waitSettled } from './lib/browser.mjs';
import { observe } from './lib/longtasks.mjs';

const args = process.argv.slice(2);
const only = (() => { const i = args.indexOf('--only'); return i >= 0 ? new RegExp(args[i + 1]) : /-4096\.json$/; })();
const pageOnly = args.includes('--page-only');
const DIR = path.join(REPO, 'playground-examples', 'studies');
const files = fs.readdirSync(DIR).filter((f) => only.test(f)).sort();

if (!pageOnly) buildCli();
const server = await startServer();
const browser = await launch();
try {
  for (const file of files) {
    const page = await newPage(browser);
    await page.addInitScript(observe);
    await page.goto(server.url);
    await page.waitForFunction(() => window.placelab, null, { timeout: 0 });
    await page.evaluate(() => window.placelab.ready);
    await waitSettled(page, 0);
    await page.evaluate(() => { window.__longTasks.length = 0; });
    const t0 = Date.now();
    await page.selectOption('[data-testid=example-select]', `studies/${file}`);
    await page.waitForFunction(() => window.placelab.study.progress?.finished, null, { timeout: 0 });
    const wall = (Date.now() - t0) / 1000;
    const progress = await page.evaluate(() => window.placelab.study.progress);
    const tasks = await page.evaluate(() => window.__longTasks.map((t) => t.ms).sort((a, b) => b - a));
    const longest = tasks[0] ?? 0;
    const web = await page.evaluate(async () => (await window.placelab.study.tables()).tidyCsv);
    await page.close();
    if (pageOnly) {
      console.log(`${file}: ${progress.done} points; page ${(progress.ms / 1000).toFixed(1)} s (${wall.toFixed(1)} s from the click); `
        + `main-thread tasks over 50 ms: ${tasks.length}, the longest ${tasks.slice(0, 8).join(', ') || '-'} ms`);
      continue;
    }

    const out = path.join(REPO, 'target', 'bench-study-examples', file.replace(/\.json$/, ''));
    fs.rmSync(out, { recursive: true, force: true });
    const n0 = performance.now();
    const r = spawnSync(CLI, ['study', path.join(DIR, file), '-o', out, '--threads', '2']);
    const native = (performance.now() - n0) / 1000;
    if (r.status !== 0) throw new Error(r.stderr.toString());
    const same = web === fs.readFileSync(path.join(out, 'tidy.csv'), 'utf8');
    console.log(`${file}: ${progress.done} points; page ${(progress.ms / 1000).toFixed(1)} s (${wall.toFixed(1)} s from the click), `
      + `native ${native.toFixed(1)} s (same run): ratio ${((progress.ms / 1000) / native).toFixed(2)}x; longest main-thread task ${longest} ms; `
      + `tidy tables ${same ? 'identical' : 'DIFFER'}`);
  }
} finally {
  await browser.close();
  await server.close();
}
