// The Study panel's form as a study document (docs/format.md, "Studies"), and back. Pure: no DOM.
// The base is the current scenario's text, inserted as is (never re-encoded, so a seed above 2^53
// reaches the engine exactly as written); the rest is what the panel's controls say:
//   {axes: [{path, values} | {path, from, to, step} | {path, from, to, count, scale}],
//    replicates: {count, baseSeed}, metrics: [...]}
// which is also what a share link carries beside the scenario (links.js, v2).

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Axis rows' value modes. */
export const MODES = [
  { id: 'values', label: 'values' },
  { id: 'step', label: 'from / to / step' },
  { id: 'count', label: 'from / to / count' },
];

/**
 * One value of a field of kind `kind` as typed; throws a sentence. Numbers must be number
 * literals, booleans true/false; enum and string values are taken as written.
 */
function parseToken(tok, kind, path) {
  if (kind === 'int' || kind === 'number') {
    if (!NUMBER.test(tok)) throw new Error(`axis ${path}: "${tok}" is not a number`);
    return Number(tok);
  }
  if (kind === 'bool') {
    if (tok !== 'true' && tok !== 'false') throw new Error(`axis ${path}: "${tok}" is not true or false`);
    return tok === 'true';
  }
  if (tok.startsWith('"')) {
    try { return JSON.parse(tok); } catch { throw new Error(`axis ${path}: ${tok} is not a JSON string`); }
  }
  return tok;
}

/** An axis row's values text ("4, 8, 16", or a JSON list) as a list; throws a sentence. */
export function parseValues(text, kind, path) {
  const t = String(text ?? '').trim();
  if (!t) throw new Error(`axis ${path}: give at least one value`);
  if (t.startsWith('[')) {
    let list;
    try { list = JSON.parse(t); } catch (e) { throw new Error(`axis ${path}: the values are not a JSON list (${e.message})`); }
    if (!Array.isArray(list) || !list.length) throw new Error(`axis ${path}: give a non-empty JSON list of values`);
    return list;
  }
  return t.split(',').map((s, k) => {
    const tok = s.trim();
    if (!tok) throw new Error(`axis ${path}: value ${k + 1} is empty`);
    return parseToken(tok, kind, path);
  });
}

function numberField(v, what, path) {
  const t = String(v ?? '').trim();
  if (!NUMBER.test(t)) throw new Error(`axis ${path}: "${what}" must be a number${t ? ` (not "${t}")` : ''}`);
  return Number(t);
}

/** An axis row ({path, mode, values, from, to, step, count, scale}) as the study's axis; throws a sentence. */
export function axisDoc(row, kind) {
  const path = row.path;
  if (!path) throw new Error('pick the field of each axis');
  if (row.mode === 'values') return { path, values: parseValues(row.values, kind, path) };
  const from = numberField(row.from, 'from', path), to = numberField(row.to, 'to', path);
  if (row.mode === 'step') return { path, from, to, step: numberField(row.step, 'step', path) };
  const count = numberField(row.count, 'count', path);
  return { path, from, to, count, scale: row.scale === 'log' ? 'log' : 'linear' };
}

/** A study axis back as a row of the form. */
export function axisRow(doc) {
  const text = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
  if (Array.isArray(doc.values)) {
    const plain = doc.values.every((v) => (typeof v !== 'string' || !/[,"\[]/.test(v)) && (v === null || typeof v !== 'object'));
    return { path: doc.path, mode: 'values', values: plain ? doc.values.map(text).join(', ') : JSON.stringify(doc.values) };
  }
  if (doc.step !== undefined) return { path: doc.path, mode: 'step', from: String(doc.from), to: String(doc.to), step: String(doc.step) };
  return { path: doc.path, mode: 'count', from: String(doc.from), to: String(doc.to), count: String(doc.count), scale: doc.scale === 'log' ? 'log' : 'linear' };
}

/**
 * The panel's spec ({axes: [rows], replicates: {count, baseSeed}, metrics: [...]}) and the base
 * scenario text as a study document: {text, doc} (doc: the spec as a link carries it); throws a
 * sentence. `kindOf(path)` is the field's kind from the engine's table.
 */
export function studyText({ name, base, rows, replicates, metrics }, kindOf) {
  const axes = rows.map((r) => axisDoc(r, kindOf(r.path)));
  const paths = new Set();
  for (const a of axes) {
    if (paths.has(a.path)) throw new Error(`the field ${a.path} is on two axes`);
    paths.add(a.path);
  }
  const count = String(replicates.count ?? '').trim();
  if (!/^[1-9]\d{0,6}$/.test(count)) throw new Error('replicates: the count must be a whole number from 1 to 1,000,000');
  const seed = String(replicates.baseSeed ?? '').trim();
  if (!/^(0|[1-9]\d{0,19})$/.test(seed)) throw new Error('replicates: the base seed must be a whole number from 0 to 18446744073709551615');
  const list = metrics.map((m) => m.trim()).filter(Boolean);
  if (!list.length) throw new Error('metrics: list at least one report path, e.g. report.runs[*].summary.meanWait');
  const doc = { axes, replicates: { count: Number(count), baseSeed: seed }, metrics: list };
  const text = `{"version":1,"name":${JSON.stringify(name)},"base":${base},"axes":${JSON.stringify(axes)},`
    + `"replicates":{"count":${count},"baseSeed":${seed}},"metrics":${JSON.stringify(list)}}`;
  return { text, doc };
}

/** Prefills an axis row for a field of the engine's table, around the scenario's value `current`. */
export function prefill(param, current) {
  const path = param.path;
  if (param.kind === 'enum') return { path, mode: 'values', values: (param.options || []).map((o) => o.value).join(', ') };
  if (param.kind === 'bool') return { path, mode: 'values', values: 'false, true' };
  if (param.kind !== 'int' && param.kind !== 'number') {
    const v = current !== undefined ? current : param.default;
    return { path, mode: 'values', values: JSON.stringify([v]) };
  }
  const lo = param.min ?? 0;
  const hi = param.max ?? Infinity;
  let from = typeof current === 'number' ? current : typeof param.default === 'number' ? param.default : Math.max(lo, 1);
  if (param.minExclusive && from <= lo) from = lo + (param.step || 1);
  from = Math.max(from, lo);
  let to = Math.min(hi, from > 0 ? from * 4 : from + 4);
  if (to <= from) { to = from; from = Math.max(lo, from / 4); }
  if (param.kind === 'int') {
    from = Math.round(from); to = Math.round(to);
    const step = Math.max(1, Math.round((to - from) / 4));
    return { path, mode: 'step', from: String(from), to: String(to), step: String(step) };
  }
  const round = (v) => String(Number(v.toPrecision(6)));
  return from > 0 && to / from >= 10
    ? { path, mode: 'count', from: round(from), to: round(to), count: '5', scale: 'log' }
    : { path, mode: 'count', from: round(from), to: round(to), count: '5', scale: 'linear' };
}
