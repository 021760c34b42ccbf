// The Study panel driven as a user drives it: the form's axes, replicates and workers, then Run.

/** Opens the panel and sets its axes ([{field, values} | {field, mode, from, to, step|count, scale}]), replicates and seed. */
export async function buildStudy(page, { axes, replicates, seed, workers = null }) {
  await page.evaluate(() => { document.getElementById('study-details').open = true; });
  // remove the axes there are
  while (await page.getByTestId('study-axis').count()) await page.getByTestId('study-axis').first().getByRole('button').click();
  for (const [k, a] of axes.entries()) {
    await page.getByTestId('study-add-axis').click();
    const row = page.getByTestId('study-axis').nth(k);
    await row.getByTestId('study-axis-field').selectOption(a.field);
    await row.getByTestId('study-axis-mode').selectOption(a.mode || 'values');
    for (const key of ['values', 'from', 'to', 'step', 'count']) {
      if (a[key] !== undefined) await row.getByTestId(`study-axis-${key}`).fill(String(a[key]));
    }
    if (a.scale) await row.getByTestId('study-axis-scale').selectOption(a.scale);
  }
  await page.getByTestId('study-replicates').fill(String(replicates));
  await page.getByTestId('study-base-seed').fill(String(seed));
  if (workers !== null) await page.getByTestId('study-workers').fill(String(workers));
  return settledCount(page);
}

/** Waits until the point count (or the refusal) reflects the form; returns {points, ok, error}. */
export async function settledCount(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid=study-panel]').dataset.counting === 'false', null, { timeout: 0 });
  return page.evaluate(() => ({
    points: Number(document.querySelector('[data-testid=study-count]').dataset.points || 0),
    ok: document.querySelector('[data-testid=study-count]').dataset.ok === 'true',
    error: document.querySelector('[data-testid=study-error]').hidden ? '' : document.querySelector('[data-testid=study-error]').textContent,
  }));
}

/** Clicks Run study and waits (no time limit) until the run is done or stopped. */
export async function runStudy(page) {
  const runs = await page.evaluate(() => Number(document.querySelector('[data-testid=study-panel]').dataset.runs || 0));
  await page.getByTestId('study-run').click();
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=study-panel]').dataset.runs || 0) > n, runs, { timeout: 0 });
}

