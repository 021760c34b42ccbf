// Watching the page's main thread (no task over 200 ms), shared by the tests that check the page stays
// responsive: long tasks (a PerformanceObserver), Stop clicks and when the page became idle.
import assert from 'node:assert/strict';
import { waitSettled } from './browser.mjs';

/** The goal for the longest main-thread task and for Stop, in ms. */
export const GOAL_MS = 200;

/** Runs in the page before its scripts: records long tasks, Stop clicks and when the page became idle. */
export function observe() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ at: Math.round(e.startTime), ms: Math.round(e.duration) });
  }).observe({ type: 'longtask', buffered: true });
  window.__stopClicks = [];
  window.__idleAt = [];
  document.addEventListener('click', (e) => { if (e.target?.dataset?.testid === 'stop') window.__stopClicks.push(e.timeStamp); }, true);
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver(() => { if (document.body.dataset.status === 'idle') window.__idleAt.push(performance.now()); })
      .observe(document.body, { attributes: true, attributeFilter: ['data-status'] });
  });
}

export async function observedPage(env, hash = '') {
  const page = await env.page();
  await page.addInitScript(observe);
  await page.goto(env.url + hash);
  return page;
}

/** observedPage, once the page has loaded its engine and drawn its first example. */
export async function readyPage(env) {
  const page = await observedPage(env);
  await page.waitForFunction(() => window.placelab, null, { timeout: 0 });
  await page.evaluate(() => window.placelab.ready);
  await waitSettled(page);
  return page;
}

export async function assertNoLongTask(page, label) {
  const tasks = await page.evaluate(() => window.__longTasks);
  const worst = tasks.reduce((a, t) => (t.ms > a.ms ? t : a), { ms: 0 });
  console.log(`# ${label}: ${tasks.length} long tasks, longest ${worst.ms} ms`);
  assert.ok(worst.ms <= GOAL_MS, `${label}: the main thread was blocked for ${worst.ms} ms at ${worst.at} ms (goal ${GOAL_MS} ms); all: ${JSON.stringify(tasks)}`);
}

/** Clicks Stop while a run is in flight; returns ms from the click's timestamp to the page being idle. */
export async function stopLatency(page) {
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'running', 'nothing running to stop');
  await page.getByTestId('stop').click();
  await page.waitForFunction(() => document.body.dataset.status === 'idle');
  return page.evaluate(() => {
    const click = window.__stopClicks.at(-1);
    const idle = window.__idleAt.find((t) => t >= click);
    return Math.round(idle - click);
  });
}
