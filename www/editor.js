// Scenario editor: form controls generated from the engine's parameter table, and a raw JSON
// view kept in sync both ways. Invalid raw JSON shows where it breaks and leaves the form alone.
// The scenario is text, never a re-encoded object: the form replaces only the span of the value it
// edits (jsontext.js), and numbers are shown and written as their literal text, so a seed of
// 18446744073709551615 or a "version": 1.0 reaches the engine exactly as written. Long scenarios
// are shown folded (the job list becomes one placeholder string) and unfolded for Run and Share.
import { el } from './dom.js';
import { NUMBER_LITERAL, literalAt, valueAt, setLiteral, unfold, JsonTextError } from './jsontext.js';

const RAW_DEBOUNCE_MS = 250;
const LARGE_RAW_CHARS = 200_000; // raw text longer than this is folded off the main thread
const MAX_FIELD_CHARS = 10_000;  // a form field never shows more than this
const EDITED = ' (edited)';
const INVALID = Symbol('invalid');

export function getPath(obj, path) {
  let cur = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

export function setPath(obj, path, value) {
  const keys = path.split('.');
  let cur = obj;
  for (const key of keys.slice(0, -1)) {
    if (cur[key] === null || typeof cur[key] !== 'object' || Array.isArray(cur[key])) cur[key] = {};
    cur = cur[key];
  }
  const last = keys[keys.length - 1];
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}

/** The values of a (small) text, whatever its layout, to tell an edit from a reformatting. */
function canonical(text) {
  try { return JSON.stringify(JSON.parse(text)); } catch { return text; }
}

/** Whether a parameter applies, given `get(path)` → the scenario's value there. */
function shown(param, get) {
  const cond = param.showIf;
  if (!cond) return true;
  const v = get(cond.path);
  if (cond.present) return v !== undefined && v !== null;
  if (Array.isArray(cond.equals)) return cond.equals.includes(v);
  if ('equals' in cond) return v === cond.equals;
  if ('notEquals' in cond) return v !== cond.notEquals;
  return true;
}

/** Line and column of a JSON.parse error, from "position N" in the engine's message. */
export function describeJsonError(text, error) {
  const m = /position (\d+)/.exec(error.message);
  if (!m) return error.message;
  const pos = Number(m[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const col = pos - before.lastIndexOf('\n');
  const msg = error.message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
  return `line ${line}, column ${col}: ${msg}`;
}

/**
 * @param {{form: HTMLElement, raw: HTMLTextAreaElement, rawError: HTMLElement,
 *   onChange: ({engineChanged}) => void, fold: (text) => Promise<{shown, folds}>}} opts
 */
export function createEditor({ form, raw, rawError, onChange, fold }) {
  let engine = null;
  let shownText = '{}';   // the last valid text of the raw box (folded): the form reads and edits it
  let folds = [];         // [{placeholder, literal}] behind shownText
  let origin = null;      // {shown, name} as loaded, to mark an edited scenario
  let rawValid = true;
  let folding = null;     // a large pasted text being folded: its full text
  const controls = [];    // {param, row, input, read() → literal | undefined | INVALID, write(literal)}
  let rawTimer = 0;
  const get = (path) => valueAt(shownText, path);

  function controlFor(param) {
    const id = `param-${param.path.replace(/[^A-Za-z0-9]/g, '-')}`;
    const common = { id, 'data-testid': `param-${param.path}`, dataset: { path: param.path } };
    const parse = (lit) => { try { return lit === undefined ? undefined : JSON.parse(lit); } catch { return undefined; } };
    let input, read, write;
    switch (param.kind) {
      case 'enum': {
        const options = param.options || [];
        input = el('select', common, options.map((o, i) => el('option', { value: String(i), text: o.label ?? String(o.value) })));
        read = () => JSON.stringify(options[Number(input.value)]?.value ?? null);
        write = (lit) => { const v = parse(lit); const i = options.findIndex((o) => o.value === v); input.value = String(i < 0 ? 0 : i); };
        break;
      }
      case 'bool':
        input = el('input', { ...common, type: 'checkbox' });
        read = () => (input.checked ? 'true' : 'false');
        write = (lit) => { input.checked = parse(lit) === true; };
        break;
      case 'multi': {
        const options = param.options || [];
        const boxes = options.map((o) => el('input', { type: 'checkbox', value: String(o.value) }));
        input = el('div', { ...common, class: 'multi', role: 'group' },
          options.map((o, i) => el('label', { class: 'check' }, boxes[i], ` ${o.label ?? o.value}`)));
        read = () => JSON.stringify(options.filter((_, i) => boxes[i].checked).map((o) => o.value));
        write = (lit) => { const v = parse(lit); const set = new Set(Array.isArray(v) ? v : []); boxes.forEach((b, i) => { b.checked = set.has(options[i].value); }); };
        break;
      }
      case 'int':
      case 'uint64':
      case 'number': {
        // Text, not <input type=number>: the literal is shown and sent as written (2^64 - 1 stays exact).
        const range = param.kind === 'uint64' ? 'a whole number from 0 to 18446744073709551615'
          : param.min !== undefined && param.max !== undefined ? `from ${param.min} to ${param.max}` : '';
        input = el('input', { ...common, type: 'text', inputmode: param.kind !== 'number' ? 'numeric' : 'decimal', autocomplete: 'off', spellcheck: 'false', title: range, placeholder: param.empty || undefined });
        read = () => {
          const t = input.value.trim();
          if (t === '') return undefined;
          return NUMBER_LITERAL.test(t) ? t : INVALID;
        };
        write = (lit) => { input.value = lit === undefined || lit === 'null' ? '' : lit.length > MAX_FIELD_CHARS ? '' : lit; };
        break;
      }
      default:
        input = el('input', { ...common, type: 'text' });
        // Structured values (e.g. tree arities [2, 2, 8]) are edited as JSON text, kept as typed.
        read = () => {
          const t = input.value.trim();
          if (/^[[{]/.test(t)) { try { JSON.parse(t); return t; } catch { /* a string after all */ } }
          return JSON.stringify(input.value);
        };
        write = (lit) => {
          const v = lit === undefined || lit.length > MAX_FIELD_CHARS ? undefined : lit.startsWith('"') ? parse(lit) : lit;
          input.value = v === undefined || v === null || lit === 'null' ? '' : String(v);
        };
    }
    const label = el('label', { for: id, text: param.label, title: param.help || '' });
    const row = el('div', { class: `field field-${param.kind}` }, label, el('div', { class: 'control' }, input,
      param.unit ? el('span', { class: 'unit', text: param.unit }) : null));
    if (param.help) row.append(el('p', { class: 'help', text: param.help }));
    input.addEventListener('change', () => handleFormChange(c, read()));
    if (param.kind === 'int' || param.kind === 'uint64' || param.kind === 'number' || param.kind === 'string' || !param.kind) {
      input.addEventListener('input', () => handleFormChange(c, read(), true));
    }
    const c = { param, row, input, read, write };
    return c;
  }

  function reflectForm() {
    for (const c of controls) {
      const lit = literalAt(shownText, c.param.path);
      c.write(lit === undefined ? (c.param.default == null ? undefined : JSON.stringify(c.param.default)) : lit);
      c.input.removeAttribute('aria-invalid');
      c.row.hidden = !shown(c.param, get);
    }
  }

  function writeRaw() {
    raw.value = shownText;
    rawValid = true;
    rawError.textContent = '';
    rawError.hidden = true;
    raw.removeAttribute('aria-invalid');
  }

  /**
   * A scenario whose values changed is renamed "<name> (edited)" and its description starts
   * "Edited from “<name>”.", so that a title describing the original never travels with other
   * values; with its values changed back, it gets its name back. A name the user chose stays.
   * Returns true if the text changed.
   */
  function markEdited() {
    if (!origin || origin.name === null || origin.name.endsWith(EDITED)) return false; // marked already
    const name = get('name');
    const marked = `${origin.name}${EDITED}`;
    try {
      let unmarked = shownText;
      if (name === marked) {
        unmarked = setLiteral(unmarked, 'name', origin.nameLiteral);
        if (origin.descLiteral !== undefined) unmarked = setLiteral(unmarked, 'description', origin.descLiteral);
      }
      const same = canonical(unmarked) === origin.canonical;
      if (name === marked && same) { shownText = unmarked; return true; }
      if (name !== origin.name || same) return false;
      shownText = setLiteral(shownText, 'name', JSON.stringify(marked));
      const desc = get('description');
      if (typeof desc === 'string') shownText = setLiteral(shownText, 'description', JSON.stringify(`Edited from “${origin.name}”. ${desc}`));
      return true;
    } catch (e) {
      if (e instanceof JsonTextError) return false;
      throw e;
    }
  }

  function handleFormChange(control, literal, typing = false) {
    const { param } = control;
    if (literal === INVALID) {
      control.input.setAttribute('aria-invalid', 'true');
      const kept = literalAt(shownText, param.path);
      rawError.textContent = `${param.label}: "${control.input.value.trim().slice(0, 40)}" is not a number; the scenario keeps ${kept === undefined ? 'no value' : kept}`;
      rawError.hidden = false;
      return;
    }
    if (control.input.hasAttribute('aria-invalid')) { control.input.removeAttribute('aria-invalid'); if (rawValid) rawError.hidden = true; }
    if (!rawValid) rawError.hidden = true; // the form was edited while the raw text was broken: the form wins
    try {
      shownText = setLiteral(shownText, param.path, literal);
      // A discriminator (e.g. system.kind) changed: give newly shown fields their defaults and drop
      // the fields that no longer apply, so the scenario stays valid for the new kind.
      for (const c of controls) {
        if (!c.param.showIf || c.param.showIf.path !== param.path) continue;
        const isShown = shown(c.param, get);
        const sharedPath = controls.some((o) => o !== c && o.param.path === c.param.path && shown(o.param, get));
        if (!isShown && !sharedPath) shownText = setLiteral(shownText, c.param.path, undefined);
        if (isShown && literalAt(shownText, c.param.path) === undefined && c.param.default != null) {
          shownText = setLiteral(shownText, c.param.path, JSON.stringify(c.param.default));
        }
      }
    } catch (e) {
      if (!(e instanceof JsonTextError)) throw e;
      rawError.textContent = `Raw JSON: ${e.message}`;
      rawError.hidden = false;
      return;
    }
    markEdited();
    if (!typing) reflectForm();
    else for (const c of controls) c.row.hidden = !shown(c.param, get);
    writeRaw();
    onChange?.({ engineChanged: false });
  }

  function handleRawInput() {
    clearTimeout(rawTimer);
    rawTimer = setTimeout(parseRaw, RAW_DEBOUNCE_MS);
  }

  function acceptRaw(text, newFolds) {
    const engineChanged = engine && valueAt(text, 'engine') !== get('engine');
    shownText = text;
    folds = newFolds;
    if (!engineChanged) reflectForm();
    onChange?.({ engineChanged });
  }

  /** Parses the raw text; on success the form follows, on failure the error shows and nothing else moves. */
  function parseRaw() {
    clearTimeout(rawTimer);
    rawTimer = 0;
    const text = raw.value;
    if (text.length > LARGE_RAW_CHARS && fold) {
      // A long text was pasted: fold it off the main thread; Run meanwhile takes it as it is.
      const full = unfold(text, folds);
      folding = full;
      fold(full).then((r) => {
        if (folding !== full) return;
        folding = null;
        acceptRaw(r.shown, r.folds);
        writeRaw();
      }, (e) => { if (folding === full) { folding = null; showRawError(e.message); } });
      return { ok: true, text: full };
    }
    folding = null;
    try {
      const value = JSON.parse(text);
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SyntaxError('a scenario is a JSON object { ... }');
      rawValid = true;
      rawError.hidden = true;
      rawError.textContent = '';
      raw.removeAttribute('aria-invalid');
      acceptRaw(text, folds);
      return { ok: true, text: unfold(shownText, folds) };
    } catch (e) {
      return { ok: false, message: showRawError(describeJsonError(text, e)) };
    }
  }

  function showRawError(message) {
    rawValid = false;
    rawError.textContent = `Raw JSON: ${message}`;
    rawError.hidden = false;
    raw.setAttribute('aria-invalid', 'true');
    return message;
  }
  raw.addEventListener('input', handleRawInput);
  raw.addEventListener('blur', () => { if (rawTimer) parseRaw(); });

  return {
    /** Builds the form for an engine description from engines(). */
    setEngine(desc) {
      engine = desc;
      controls.length = 0;
      form.replaceChildren();
      for (const param of desc?.params || []) {
        const c = controlFor(param);
        controls.push(c);
        form.append(c.row);
      }
      reflectForm();
    },
    /**
     * Replaces the scenario: `shown` is its (folded) text, `folds` what the placeholders stand for.
     * The result counts as the original that edits are measured against.
     */
    setText({ shown: text, folds: newFolds = [] }) {
      clearTimeout(rawTimer);
      rawTimer = 0;
      folding = null;
      shownText = text;
      folds = newFolds;
      const name = get('name');
      origin = typeof name === 'string'
        ? { shown: text, canonical: canonical(text), name, nameLiteral: literalAt(text, 'name'), descLiteral: literalAt(text, 'description') }
        : { shown: text, name: null };
      reflectForm();
      writeRaw();
    },
    /** The scenario text to run or share (unfolded): parses pending raw text first. {ok, text} or {ok: false, message}. */
    current() {
      if (folding !== null) return { ok: true, text: folding };
      if (rawTimer || !rawValid) {
        const r = parseRaw();
        if (!r.ok) return r;
      }
      return { ok: true, text: unfold(shownText, folds) };
    },
    /** Marks the scenario as edited if it differs from what was loaded; true if it changed now. */
    markEdited() {
      const changed = markEdited();
      if (changed) { writeRaw(); reflectForm(); }
      return changed;
    },
    /** A value of the scenario (parsed; for small values such as the name or the engine). */
    valueAt: (path) => get(path),
    /** Whether the scenario differs from the one loaded. */
    get edited() { return origin !== null && canonical(shownText) !== canonical(origin.shown); },
    /** Scenario text from defaults of the parameter table, for an engine without examples. */
    defaults(desc) {
      const s = { version: 1, engine: desc.id };
      for (const p of desc.params || []) {
        if (p.default != null && shown(p, (path) => getPath(s, path)) && getPath(s, p.path) === undefined) setPath(s, p.path, structuredClone(p.default));
      }
      return JSON.stringify(s, null, 2);
    },
  };
}
