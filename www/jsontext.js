// Scenario text edited in place. The page never re-encodes a scenario: the form finds the source
// span of the value at a dotted path and replaces only that span, so every other byte (big
// integers, `1.0`, `1e400`, key order, spacing) reaches the engine exactly as written.
// The scanner is iterative (a link nested 100,000 levels deep cannot overflow the stack) and
// checks only structure; the engine's parser remains the judge of validity.

export class JsonTextError extends Error {}

/** A JSON number literal as the grammar (RFC 8259) defines it. */
export const NUMBER_LITERAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const SCALAR = /-?[0-9][0-9.eE+-]*|true|false|null/y;

function skipWs(text, i) {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) i++;
    else return i;
  }
}

/** Index just after the string literal opening at `i`. */
function stringEnd(text, i) {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) throw new JsonTextError(`unterminated string at character ${i}`);
    let b = q - 1;
    while (text.charCodeAt(b) === 92) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Index just after the value starting at `i` (no leading whitespace). Iterative, any depth. */
export function valueEnd(text, i) {
  const c = text.charCodeAt(i);
  if (c === 34) return stringEnd(text, i);
  if (c !== 123 && c !== 91) {
    SCALAR.lastIndex = i;
    if (!SCALAR.test(text)) throw new JsonTextError(`no JSON value at character ${i}`);
    return SCALAR.lastIndex;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 34) j = stringEnd(text, j) - 1;
    else if (d === 123 || d === 91) depth++;
    else if (d === 125 || d === 93) { depth--; if (depth === 0) return j + 1; }
  }
  throw new JsonTextError(`unclosed ${text[i]} at character ${i}`);
}

/**
 * Members of the object opening at `start`: [{key, keyStart, valueStart, valueEnd}], in source order
 * (a duplicated key appears twice; lookups take the last, as JSON.parse does).
 */
export function members(text, start) {
  const out = [];
  let i = skipWs(text, start + 1);
  if (text[i] === '}') return out;
  for (;;) {
    if (text[i] !== '"') throw new JsonTextError(`expected a key at character ${i}`);
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd));
    let j = skipWs(text, keyEnd);
    if (text[j] !== ':') throw new JsonTextError(`expected ':' at character ${j}`);
    j = skipWs(text, j + 1);
    const end = valueEnd(text, j);
    out.push({ key, keyStart: i, valueStart: j, valueEnd: end });
    i = skipWs(text, end);
    if (text[i] === '}') return out;
    if (text[i] !== ',') throw new JsonTextError(`expected ',' or '}' at character ${i}`);
    i = skipWs(text, i + 1);
  }
}

function lastMember(list, key) {
  for (let k = list.length - 1; k >= 0; k--) if (list[k].key === key) return list[k];
  return null;
}

/**
 * Walks `path` (dotted object keys) from the root. Returns {found: true, start, end} for the value's
 * span, or {found: false, objStart, rest} with the deepest object reached and the keys still missing
 * (objStart is -1 when a value on the way is not an object).
 */
function walk(text, path) {
  let start = skipWs(text, 0);
  const keys = path === '' ? [] : path.split('.');
  for (let k = 0; k < keys.length; k++) {
    if (text[start] !== '{') return { found: false, objStart: -1, rest: keys.slice(k) };
    const m = lastMember(members(text, start), keys[k]);
    if (!m) return { found: false, objStart: start, rest: keys.slice(k) };
    start = m.valueStart;
  }
  return { found: true, start, end: valueEnd(text, start) };
}

/** Source span {start, end} of the value at `path`, or null. Throws JsonTextError on broken structure. */
export function spanAt(text, path) {
  const w = walk(text, path);
  return w.found ? { start: w.start, end: w.end } : null;
}

/** The literal source text of the value at `path`, or undefined. */
export function literalAt(text, path) {
  try {
    const s = spanAt(text, path);
    return s ? text.slice(s.start, s.end) : undefined;
  } catch (e) {
    if (e instanceof JsonTextError) return undefined;
    throw e;
  }
}

/** The value at `path` parsed (meant for small values: names, enums, flags), or undefined. */
export function valueAt(text, path) {
  const lit = literalAt(text, path);
  if (lit === undefined) return undefined;
  try { return JSON.parse(lit); } catch { return undefined; }
}

function nested(keys, literal) {
  let out = literal;
  for (let k = keys.length - 1; k >= 0; k--) out = `{${JSON.stringify(keys[k])}: ${out}}`;
  return out;
}

/** Indentation of the line holding index `i`, when `i` is the first thing on that line. */
function lineIndent(text, i) {
  let b = i;
  while (b > 0 && (text[b - 1] === ' ' || text[b - 1] === '\t')) b--;
  return b > 0 && text[b - 1] === '\n' ? text.slice(b, i) : null;
}

/**
 * Returns `text` with the value at `path` set to `literal` (JSON source text), or removed when
 * `literal` is undefined. Only the affected span changes; a missing key is appended to its object
 * in the object's own layout.
 */
export function setLiteral(text, path, literal) {
  const w = walk(text, path);
  if (literal === undefined) return w.found ? removeMember(text, path) : text;
  if (w.found) return text.slice(0, w.start) + literal + text.slice(w.end);
  if (w.objStart < 0) {
    // A value on the way is not an object: it becomes one holding the rest of the path.
    const keys = path.split('.');
    const parent = keys.slice(0, keys.length - w.rest.length).join('.');
    return setLiteral(text, parent, nested(w.rest, literal));
  }
  const [key, ...rest] = w.rest;
  const member = `${JSON.stringify(key)}: ${nested(rest, literal)}`;
  const list = members(text, w.objStart);
  if (list.length === 0) {
    const close = skipWs(text, w.objStart + 1);
    return `${text.slice(0, w.objStart + 1)}${member}${text.slice(close)}`;
  }
  const last = list[list.length - 1];
  const indent = lineIndent(text, last.keyStart);
  const sep = indent === null ? ', ' : `,\n${indent}`;
  return text.slice(0, last.valueEnd) + sep + member + text.slice(last.valueEnd);
}

function removeMember(text, path) {
  const keys = path.split('.');
  const parentPath = keys.slice(0, -1).join('.');
  const parent = parentPath === '' ? { start: skipWs(text, 0) } : spanAt(text, parentPath);
  const list = members(text, parent.start);
  const key = keys[keys.length - 1];
  let out = text;
  // Remove every occurrence, last first, so the key is truly gone.
  for (let k = list.length - 1; k >= 0; k--) {
    if (list[k].key !== key) continue;
    const cur = members(out, parent.start);
    const m = cur[k];
    if (k + 1 < cur.length) out = out.slice(0, m.keyStart) + out.slice(cur[k + 1].keyStart);
    else if (k > 0) out = out.slice(0, cur[k - 1].valueEnd) + out.slice(m.valueEnd);
    else out = out.slice(0, m.keyStart) + out.slice(m.valueEnd);
  }
  return out;
}

/** Number of elements of the array opening at `start` (one pass: commas at depth 1). */
function arrayLength(text, start) {
  if (text[skipWs(text, start + 1)] === ']') return 0;
  let depth = 0, n = 1;
  const re = /["{}[\],]/g;
  re.lastIndex = start;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const d = m[0];
    if (d === '"') re.lastIndex = stringEnd(text, m.index);
    else if (d === ',') { if (depth === 1) n++; }
    else if (d === '{' || d === '[') depth++;
    else if (--depth === 0) return n;
  }
  return n;
}

const FOLD_TEXT_CHARS = 200_000; // scenario text longer than this is shown folded
const FOLD_VALUE_CHARS = 20_000; // ... and in it, arrays and strings longer than this are folded
const FOLD_MARK = '\u2026 folded:';

function formatBytes(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} kB`;
  return `${n} bytes`;
}

/**
 * The text to show in the raw JSON box: for a long scenario, every long array or string that is a
 * member of an object is replaced by a placeholder string such as "… folded: 100,000 jobs
 * (3.9 MB) …". Returns {shown, folds: [{placeholder, literal}]}; `unfold` restores the original.
 */
export function fold(text) {
  if (text.length <= FOLD_TEXT_CHARS) return { shown: text, folds: [] };
  const folds = [];
  const spans = [];
  let start;
  try { start = skipWs(text, 0); } catch { return { shown: text, folds: [] }; }
  const stack = [start];
  try {
    while (stack.length) {
      const at = stack.pop();
      if (text[at] !== '{') continue;
      for (const m of members(text, at)) {
        const len = m.valueEnd - m.valueStart;
        const c = text[m.valueStart];
        if (len > FOLD_VALUE_CHARS && (c === '[' || c === '"')) spans.push({ ...m });
        else if (c === '{' && len > FOLD_VALUE_CHARS) stack.push(m.valueStart);
      }
    }
  } catch (e) {
    if (e instanceof JsonTextError) return { shown: text, folds: [] };
    throw e;
  }
  spans.sort((a, b) => a.valueStart - b.valueStart);
  let shown = '';
  let pos = 0;
  for (const s of spans) {
    const literal = text.slice(s.valueStart, s.valueEnd);
    const bytes = formatBytes(new TextEncoder().encode(literal).length);
    const what = literal[0] === '['
      ? `${String(arrayLength(text, s.valueStart)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} ${s.key === 'jobs' ? 'jobs' : 'items'}`
      : `${s.key} text`;
    const placeholder = JSON.stringify(`${FOLD_MARK} ${what} (${bytes}), kept whole for Run, Share and export; replace this string to change them \u2026 #${folds.length + 1}`);
    folds.push({ placeholder, literal });
    shown += text.slice(pos, s.valueStart) + placeholder;
    pos = s.valueEnd;
  }
  shown += text.slice(pos);
  return { shown, folds };
}

/** The full text behind a (possibly edited) folded view: each placeholder left in place is restored. */
export function unfold(shown, folds) {
  let out = shown;
  for (const f of folds) {
    const at = out.indexOf(f.placeholder);
    if (at >= 0) out = out.slice(0, at) + f.literal + out.slice(at + f.placeholder.length);
  }
  return out;
}
