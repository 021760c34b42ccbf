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
const MAX_TEXT_CHARS = 1_000_000; // a text box (a file's text) never shows more than this
const MAX_TABLE_ROWS = 500;       // a list edited as a table (e.g. messages) has at most this many rows
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
  if ('includes' in cond) return Array.isArray(v) && v.includes(cond.includes);
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
    let input, read, write, locate = null, extra = [];
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
      case 'text': {
        // A file's text (e.g. a Slurm topology.conf): a text box, and Open file… to fill it from a file.
        input = el('textarea', { ...common, rows: '8', spellcheck: 'false', autocomplete: 'off', class: 'field-text' });
        read = () => JSON.stringify(input.value);
        write = (lit) => {
          const v = lit === undefined || lit.length > MAX_TEXT_CHARS ? undefined : parse(lit);
          input.value = typeof v === 'string' ? v : '';
          input.placeholder = lit !== undefined && lit.length > MAX_TEXT_CHARS ? 'too long to show here: edit it in the raw JSON' : '';
        };
        const file = el('input', { type: 'file', hidden: true, 'data-testid': `param-${param.path}-file`, 'aria-label': `${param.label} from a file` });
        const open = el('button', { type: 'button', class: 'secondary', text: 'Open file…', title: `fill ${param.label} from a file` });
        open.addEventListener('click', () => file.click());
        file.addEventListener('change', async () => {
          const f = file.files?.[0];
          file.value = '';
          if (!f) return;
          if (f.size > MAX_TEXT_CHARS) { showFieldError(c, `${f.name} is ${f.size} bytes; this field takes at most ${MAX_TEXT_CHARS}`); return; }
          input.value = await f.text();
          handleFormChange(c, read());
        });
        extra = [open, file];
        break;
      }
      case 'rows': {
        // A list of objects (e.g. a job's messages) as a table: a row per item, a cell per column;
        // numbers are kept as their literal text, an empty optional cell leaves its key out.
        const cols = param.columns;
        const body = el('tbody');
        let lastLit = null;
        const addRow = (item = {}) => {
          const cells = cols.map((col) => el('input', { type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', dataset: { key: col.key },
            'aria-label': col.label, placeholder: col.optional ? String(col.empty ?? '') : '', value: item[col.key] === undefined ? '' : String(item[col.key]) }));
          const remove = el('button', { type: 'button', class: 'secondary row-remove', text: '×', title: 'remove this row', 'aria-label': 'remove this row' });
          const tr = el('tr', {}, cells.map((x) => el('td', {}, x)), el('td', {}, remove));
          remove.addEventListener('click', () => { tr.remove(); handleFormChange(c, read()); });
          for (const x of cells) {
            x.addEventListener('input', () => handleFormChange(c, read(), true));
            x.addEventListener('change', () => handleFormChange(c, read()));
          }
          body.append(tr);
        };
        const add = el('button', { type: 'button', class: 'secondary', text: 'Add row', 'data-testid': `param-${param.path}-add` });
        add.addEventListener('click', () => {
          const last = body.lastElementChild;
          addRow(last ? Object.fromEntries([...last.querySelectorAll('input')].map((x) => [x.dataset.key, x.value])) : {});
          handleFormChange(c, read());
        });
        const tooMany = el('p', { class: 'help', hidden: true });
        input = el('div', { ...common, class: 'rows' },
          el('table', { class: 'rows-table' }, el('thead', {}, el('tr', {}, cols.map((col) => el('th', { scope: 'col', text: col.label, title: col.help || '' })), el('th'))), body), tooMany, add);
        read = () => {
          const items = [];
          for (const tr of body.children) {
            const parts = [];
            for (const x of tr.querySelectorAll('input')) {
              const t = x.value.trim();
              if (t === '') continue; // the engine names a missing value by its path
              if (!NUMBER_LITERAL.test(t)) return INVALID;
              parts.push(`${JSON.stringify(x.dataset.key)}: ${t}`);
            }
            items.push(`{${parts.join(', ')}}`);
          }
          lastLit = items.length ? `[\n${items.map((i) => `    ${i}`).join(',\n')}\n  ]` : '[]';
          return lastLit;
        };
        write = (lit) => {
          if (lit === lastLit) return; // the table wrote it: keep the rows (and the focus)
          lastLit = lit ?? null;
          body.replaceChildren();
          const v = lit === undefined || lit.length > MAX_TEXT_CHARS ? undefined : parse(lit);
          // a long list stays in the raw JSON: a table of thousands of rows would hold up the page
          const many = lit !== undefined && (!Array.isArray(v) ? lit.length > MAX_TEXT_CHARS : v.length > MAX_TABLE_ROWS);
          tooMany.hidden = !many;
          tooMany.textContent = many ? `More than ${MAX_TABLE_ROWS} rows: edit this list in the raw JSON.` : '';
          add.hidden = many;
          if (!Array.isArray(v) || many) return;
          // each number as JavaScript prints it: the same double the engine reads from the literal
          for (const item of v) addRow(item && typeof item === 'object' ? item : {});
        };
        // an error at `[i].key` marks that cell
        locate = (rest) => {
          const m = /^\[(\d+)\](?:\.(\w+))?/.exec(rest);
          const tr = m ? body.children[Number(m[1])] : null;
          if (!tr) return null;
          return (m[2] && tr.querySelector(`input[data-key="${m[2]}"]`)) || tr.querySelector('input');
        };
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
      param.unit ? el('span', { class: 'unit', text: param.unit }) : null, ...extra));
    if (param.help) row.append(el('p', { class: 'help', text: param.help }));
    const error = el('p', { class: 'field-error', 'data-testid': `param-${param.path}-error`, role: 'alert', hidden: true });
    row.append(error);
    input.addEventListener('change', () => handleFormChange(c, read()));
    if (['int', 'uint64', 'number', 'string', 'text'].includes(param.kind) || !param.kind) {
      input.addEventListener('input', () => handleFormChange(c, read(), true));
    }
    const c = { param, row, input, read, write, error, locate };
    return c;
  }

  /** Shows `message` under a control (the engine's error at its path); a text box selects the line and column it names. */
  function showFieldError(c, message, rest = '') {
    c.flagged = true;
    c.error.textContent = message;
    c.error.hidden = false;
    c.input.setAttribute('aria-invalid', 'true');
    const cell = c.locate?.(rest);
    if (cell) { cell.setAttribute('aria-invalid', 'true'); c.marked = cell; }
    const at = /line (\d+), column (\d+)/.exec(message);
    if (at && c.input.tagName === 'TEXTAREA') {
      const lines = c.input.value.split('\n');
      const line = Math.min(Number(at[1]), lines.length);
      const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
      const col = Math.min(Number(at[2]) - 1, lines[line - 1].length);
      c.input.setSelectionRange(start + col, start + lines[line - 1].length);
    }
  }

  function clearFieldErrors() {
    for (const c of controls) {
      if (!c.flagged) continue;
      c.flagged = false;
      c.error.hidden = true;
      c.error.textContent = '';
      c.input.removeAttribute('aria-invalid');
      c.marked?.removeAttribute('aria-invalid');
      c.marked = null;
    }
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
      // a table's cell: the one being edited
      const typed = String(control.input.value ?? document.activeElement?.value ?? '');
      rawError.textContent = `${param.label}: "${typed.trim().slice(0, 40)}" is not a number; the scenario keeps ${kept === undefined ? 'no value' : kept.length > 80 ? 'its value' : kept}`;
      rawError.hidden = false;
      return;
    }
    if (control.input.hasAttribute('aria-invalid')) { control.input.removeAttribute('aria-invalid'); if (rawValid) rawError.hidden = true; }
    control.error.hidden = true; // the run's error was about the value just replaced
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
    /**
     * Builds the form for an engine description from engines(), then the `extras` its view adds
     * (controls for fields the table states as rules on list items, e.g. a table of messages).
     */
    setEngine(desc, extras = []) {
      engine = desc;
      controls.length = 0;
      form.replaceChildren();
      for (const param of [...(desc?.params || []), ...extras]) {
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
    /**
     * Shows a run's error `{path, message}` under the control of its path (e.g. a topology.conf's
     * line and column under its text box); false when no control shown edits that path.
     */
    fieldError({ path, message }) {
      clearFieldErrors();
      const at = String(path ?? '').replace(/^\$\.?/, '');
      const c = controls.find((x) => !x.row.hidden && (at === x.param.path || at.startsWith(`${x.param.path}[`)));
      if (!c) return false;
      showFieldError(c, `${at}: ${message}`, at.slice(c.param.path.length));
      return true;
    },
    clearFieldErrors,
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
