// A study's results as the charts read them, kept in a study worker (worker.js): the tidy rows of
// the finished points (from a run, or from a tidy CSV/JSON Lines file the CLI wrote) grouped into
// cells, one per combination of axis values, group labels (e.g. the policy) and metric, each cell
// holding its values in replicate order, as the aggregate table groups them
// (src/study/table.rs). A cell's statistics come from the engine (wasm `study_summaries`), so the
// charts show the aggregate table's numbers; only cells that changed since the last snapshot are
// summarized again.

/** RFC 4180 CSV (as src/study/table.rs writes it) into rows of strings. */
export function parseCsv(text) {
  const rows = [];
  let row = [], cell = '', i = 0, quoted = false;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') { cell += '"'; i += 2; continue; }
        quoted = false; i += 1; continue;
      }
      cell += c; i += 1; continue;
    }
    if (c === '"' && cell === '') { quoted = true; i += 1; continue; }
    if (c === ',') { row.push(cell); cell = ''; i += 1; continue; }
    if (c === '\n' || c === '\r') {
      row.push(cell); rows.push(row); row = []; cell = '';
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    cell += c; i += 1;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

/**
 * A CSV cell as the value the JSON Lines file holds: '' is null, a number's text a number, `true`
 * and `false` booleans, a list or object (an axis over a list field) its JSON; anything else the
 * string.
 */
export function csvValue(s) {
  if (s === '') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(s)) return Number(s);
  if (s === 'true' || s === 'false') return s === 'true';
  if (s[0] === '[' || s[0] === '{') { try { return JSON.parse(s); } catch { return s; } }
  return s;
}

/** A results file's text (tidy CSV or JSON Lines) as {columns, rows: [[value, ...]]}; throws a sentence. */
export function readTidy(text, name) {
  const trimmed = text.replace(/^\uFEFF/, '');
  if (trimmed.startsWith('{')) {
    let columns = null;
    const rows = [];
    trimmed.split('\n').forEach((line, k) => {
      if (!line.trim()) return;
      let obj;
      try { obj = JSON.parse(line); } catch (e) { throw new Error(`${name}:${k + 1}: not JSON (${e.message})`); }
      if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new Error(`${name}:${k + 1}: not a row object`);
      if (!columns) columns = Object.keys(obj);
      rows.push(columns.map((c) => (Object.hasOwn(obj, c) ? obj[c] : null)));
    });
    if (!columns) throw new Error(`${name}: empty`);
    return { columns, rows };
  }
  const table = parseCsv(trimmed);
  if (!table.length) throw new Error(`${name}: empty`);
  const columns = table[0];
  const rows = [];
  for (let k = 1; k < table.length; k++) {
    const r = table[k];
    if (r.length === 1 && r[0] === '') continue;
    if (r.length !== columns.length) throw new Error(`${name}:${k + 1}: ${r.length} cells, the header has ${columns.length}`);
    rows.push(r.map(csvValue));
  }
  return { columns, rows };
}

const KEY_SEP = '\u0001';
const keyOf = (v) => (typeof v === 'string' ? `s${v}` : `j${JSON.stringify(v)}`);

/**
 * The grouping of tidy rows. `layout`: {axes, groups, metrics} (column names, wasm
 * `study_tidy_layout`); `columns` the tidy header; `summarize(lists) → summaries` the engine's
 * statistics. `axisValues` (from the study's outline) fixes the order of each axis's values;
 * without it (a file) values keep their first appearance, numbers sorted.
 */
export function createModel({ layout, columns, summarize, axisValues = null }) {
  const col = (name) => columns.indexOf(name);
  const at = {
    point: col('point'), replicate: col('replicate'), status: col('status'), error: col('error'),
    axes: layout.axes.map(col), groups: layout.groups.map(col), metrics: layout.metrics.map(col),
  };
  // per axis: value key → index, values in order
  const axes = layout.axes.map((path, k) => {
    const values = axisValues ? axisValues[k].slice() : [];
    return { path, values, index: new Map(values.map((v, j) => [keyOf(v), j])) };
  });
  const series = { index: new Map(), labels: [] }; // group labels joined, in first appearance
  const cells = new Map(); // key → {a: [axis idx], s, m, reps: [[replicate, value]], dirty, summary}
  const points = new Set();
  let failed = 0, rowCount = 0;
  const errors = [];

  function axisIndex(k, v) {
    const a = axes[k];
    const key = keyOf(v);
    let j = a.index.get(key);
    if (j === undefined) { j = a.values.length; a.values.push(v); a.index.set(key, j); }
    return j;
  }

  /** Adds tidy rows (arrays of values in `columns` order). */
  function add(rows) {
    for (const r of rows) {
      rowCount += 1;
      const point = r[at.point];
      if (!points.has(point)) {
        points.add(point);
        if (r[at.status] === 'error') { failed += 1; if (errors.length < 20) errors.push({ point, error: r[at.error] }); }
      }
      if (r[at.status] !== 'ok') continue;
      const a = at.axes.map((c, k) => axisIndex(k, r[c]));
      const label = at.groups.map((c) => String(r[c] ?? '')).join(' / ');
      let s = series.index.get(label);
      if (s === undefined) { s = series.labels.length; series.labels.push(label); series.index.set(label, s); }
      const rep = Number(r[at.replicate]);
      at.metrics.forEach((c, m) => {
        const key = a.join(',') + KEY_SEP + s + KEY_SEP + m;
        let cell = cells.get(key);
        if (!cell) { cell = { a, s, m, reps: [], dirty: true, summary: null }; cells.set(key, cell); }
        cell.reps.push([rep, r[c]]);
        cell.dirty = true;
      });
    }
  }

  /** Whether axis k's values are all numbers. */
  const numeric = (a) => a.values.length > 0 && a.values.every((v) => typeof v === 'number');

  /** The charts' data: the changed cells summarized anew. */
  function snapshot() {
    const dirty = [...cells.values()].filter((c) => c.dirty);
    if (dirty.length) {
      const lists = dirty.map((c) => {
        c.reps.sort((x, y) => x[0] - y[0]);
        return c.reps.map(([, v]) => v).filter((v) => typeof v === 'number');
      });
      const sums = summarize(lists);
      dirty.forEach((c, k) => { c.summary = sums[k]; c.dirty = false; });
    }
    const axesOut = axes.map((a) => ({ path: a.path, values: a.values, numeric: numeric(a) }));
    return {
      axes: axesOut,
      series: series.labels,
      groups: layout.groups,
      metrics: layout.metrics,
      cells: [...cells.values()].map((c) => ({ a: c.a, s: c.s, m: c.m, ...c.summary })),
      points: points.size,
      rows: rowCount,
      failed,
      errors,
    };
  }

  return { add, snapshot };
}
