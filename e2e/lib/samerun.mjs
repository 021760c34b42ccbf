// The benchmarks' same-run comparison: one scenario timed in the page's engine worker and by
// `placelab run` natively, alternated, with both reports' SHA-256.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, sha256, buildCli } from './cli.mjs';
import { startServer, WWW } from './server.mjs';
import { launch, loadedPage } from './browser.mjs';

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

/**
 * Runs scenario `text` `runs` times in the worker and natively, alternated; returns the medians
 * (ms), the last browser report and whether both sides' reports are byte-identical.
 */
export async function workerAndNative(page, text, runs) {
  const web = [];
  const nat = [];
  let r = null;
  let natSha = null;
  for (let i = 0; i < runs; i++) {
    r = await page.evaluate(async (t) => {
      try { const x = await window.placelab.runInWorker(t); return { ms: x.ms, sha: x.sha256, report: x.view.report }; } catch (e) { return { error: e }; }
    }, text);
    if (r.error) throw new Error(`${r.error.path}: ${r.error.message}`);
    web.push(r.ms);
    const t0 = performance.now();
    const out = spawnSync(CLI, ['run', '-'], { input: text, maxBuffer: 1 << 30 });
    nat.push(performance.now() - t0);
    if (out.status !== 0) throw new Error(out.stderr.toString());
    natSha = sha256(out.stdout);
  }
  return { browserMs: median(web), nativeMs: median(nat), report: r.report, identical: r.sha === natSha };
}

/** Runs `body(page)` on the built page with the release CLI built, in a fresh browser and
 *  server (both closed after), as every same-run benchmark starts. */
export async function withBenchPage(body) {
  if (!fs.existsSync(path.join(WWW, 'pkg', 'placelab_bg.wasm'))) throw new Error('run scripts/build.sh first');
  buildCli();
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await loadedPage(browser, server.url);
    await body(page);
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
}
