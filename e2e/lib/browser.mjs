// Launches Debian's Chromium through playwright-core (which never downloads a browser).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './server.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ARTIFACTS = path.join(REPO, 'e2e', 'artifacts');

// Headless Chromium as root in a container: --no-sandbox (the sandbox cannot start as root),
// --disable-gpu (no GPU). The rest stop Chromium's own traffic (QUIC probes, first-run pages,
// background updates, component downloads, sync): on a machine without internet access it would
// otherwise keep opening connections that are refused, slowing the tests and filling the logs.
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launch() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}; run scripts/setup.sh test`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** A page that records console errors and page errors into `page.problems`. */
export async function newPage(browser, { viewport = { width: 1400, height: 1000 }, acceptDownloads = true } = {}) {
  const context = await browser.newContext({ viewport, acceptDownloads, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => page.problems.push(`pageerror: ${err.message}`));
  return page;
}

/** Waits until the page has finished a run: body[data-status] is done or error. */
export async function waitSettled(page, timeout = 30000) {
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.status)
    && window.placelab && !window.placelab.state.running, null, { timeout });
  return page.evaluate(() => document.body.dataset.status);
}

/** A page at `url` once it has loaded its engine and drawn its first example (the benchmarks'). */
export async function loadedPage(browser, url) {
  const page = await newPage(browser);
  await page.goto(url);
  await page.waitForFunction(() => window.placelab, null, { timeout: 60000 });
  await page.evaluate(() => window.placelab.ready);
  await waitSettled(page, 60000);
  return page;
}

export function artifact(name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}
