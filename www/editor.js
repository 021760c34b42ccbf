// Scenario editor: form controls generated from the engine's parameter table, and a raw JSON
// view kept in sync both ways. Invalid raw JSON shows where it breaks and leaves the form alone.
import { el } from './dom.js';

const RAW_DEBOUNCE_MS = 250;

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

function shown(param, scenario) {
  const cond = param.showIf;
  if (!cond) return true;
  const v = getPath(scenario, cond.path);
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
 * @param {{form: HTMLElement, raw: HTMLTextAreaElement, rawError: HTMLElement, onChange: (scenario) => void}} opts
 */
export function createEditor({ form, raw, rawError, onChange }) {
  let engine = null;
  let scenario = {};
  let rawValid = true;
  const controls = []; // {param, row, read(), write(value)}
  let rawTimer = 0;

  function controlFor(param) {
    const id = `param-${param.path.replace(/[^A-Za-z0-9]/g, '-')}`;
    const common = { id, 'data-testid': `param-${param.path}`, dataset: { path: param.path } };
    let input, read, write;
    switch (param.kind) {
      case 'enum': {
        const options = param.options || [];
        input = el('select', common, options.map((o, i) => el('option', { value: String(i), text: o.label ?? String(o.value) })));
        read = () => options[Number(input.value)]?.value;
        write = (v) => { const i = options.findIndex((o) => o.value === v); input.value = String(i < 0 ? 0 : i); };
        break;
      }
      case 'bool':
        input = el('input', { ...common, type: 'checkbox' });
        read = () => input.checked;
        write = (v) => { input.checked = Boolean(v); };
        break;
      case 'multi': {
        const options = param.options || [];
        const boxes = options.map((o) => el('input', { type: 'checkbox', value: String(o.value) }));
        input = el('div', { ...common, class: 'multi', role: 'group' },
          options.map((o, i) => el('label', { class: 'check' }, boxes[i], ` ${o.label ?? o.value}`)));
        read = () => options.filter((_, i) => boxes[i].checked).map((o) => o.value);
        write = (v) => { const set = new Set(Array.isArray(v) ? v : []); boxes.forEach((b, i) => { b.checked = set.has(options[i].value); }); };
        break;
      }
      case 'int':
      case 'number':
        input = el('input', { ...common, type: 'number', min: param.min, max: param.max, step: param.step ?? (param.kind === 'int' ? 1 : 'any') });
        read = () => {
          if (input.value.trim() === '') return undefined;
          const n = Number(input.value);
          return Number.isFinite(n) ? n : undefined;
        };
        write = (v) => { input.value = v === undefined || v === null ? '' : String(v); };
        break;
      default:
        input = el('input', { ...common, type: 'text' });
        // Structured values (e.g. tree arities [2, 2, 8]) are edited as JSON text.
        read = () => {
          const t = input.value.trim();
          if (/^[[{]/.test(t)) { try { return JSON.parse(t); } catch { /* keep the text */ } }
          return input.value;
        };
        write = (v) => { input.value = v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v); };
    }
    const label = el('label', { for: id, text: param.label, title: param.help || '' });
    const row = el('div', { class: `field field-${param.kind}` }, label, el('div', { class: 'control' }, input,
      param.unit ? el('span', { class: 'unit', text: param.unit }) : null));
    if (param.help) row.append(el('p', { class: 'help', text: param.help }));
    input.addEventListener('change', () => handleFormChange(param, read()));
    if (param.kind === 'int' || param.kind === 'number' || param.kind === 'string' || !param.kind) {
      input.addEventListener('input', () => handleFormChange(param, read(), true));
    }
    return { param, row, read, write };
  }

  function reflectForm() {
    for (const c of controls) {
      const v = getPath(scenario, c.param.path);
      c.write(v === undefined ? c.param.default ?? undefined : v);
      c.row.hidden = !shown(c.param, scenario);
    }
  }

  function writeRaw() {
    raw.value = JSON.stringify(scenario, null, 2);
    rawValid = true;
    rawError.textContent = '';
    rawError.hidden = true;
    raw.removeAttribute('aria-invalid');
  }

  function handleFormChange(param, value, typing = false) {
    if (!rawValid) { // the form was edited while the raw text was broken: the form wins
      rawError.hidden = true;
    }
    setPath(scenario, param.path, value);
    // A discriminator (e.g. system.kind) changed: give newly shown fields their defaults and drop
    // the fields that no longer apply, so the scenario stays valid for the new kind.
    for (const c of controls) {
      if (!c.param.showIf || c.param.showIf.path !== param.path) continue;
      const isShown = shown(c.param, scenario);
      const sharedPath = controls.some((o) => o !== c && o.param.path === c.param.path && shown(o.param, scenario));
      if (!isShown && !sharedPath) setPath(scenario, c.param.path, undefined);
      if (isShown && getPath(scenario, c.param.path) === undefined && c.param.default != null) {
        setPath(scenario, c.param.path, structuredClone(c.param.default));
      }
    }
    if (!typing) reflectForm();
    else for (const c of controls) c.row.hidden = !shown(c.param, scenario);
    writeRaw();
    onChange?.(scenario);
  }

  function handleRawInput() {
    clearTimeout(rawTimer);
    rawTimer = setTimeout(parseRaw, RAW_DEBOUNCE_MS);
  }

  /** Parses the raw text; on success the form follows, on failure the error shows and nothing else moves. */
  function parseRaw() {
    clearTimeout(rawTimer);
    const text = raw.value;
    try {
      const value = JSON.parse(text);
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SyntaxError('a scenario is a JSON object { ... }');
      rawValid = true;
      rawError.hidden = true;
      rawError.textContent = '';
      raw.removeAttribute('aria-invalid');
      const engineChanged = engine && value.engine !== scenario.engine;
      scenario = value;
      if (!engineChanged) reflectForm();
      onChange?.(scenario, { engineChanged });
      return { ok: true, value };
    } catch (e) {
      rawValid = false;
      const message = describeJsonError(text, e);
      rawError.textContent = `Raw JSON: ${message}`;
      rawError.hidden = false;
      raw.setAttribute('aria-invalid', 'true');
      return { ok: false, message };
    }
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
    /** Replaces the scenario (object); both views follow. */
    setScenario(value) {
      scenario = structuredClone(value);
      reflectForm();
      writeRaw();
    },
    /** The scenario to run: parses pending raw text first. {ok, value} or {ok: false, message}. */
    current() {
      if (rawTimer || !rawValid) return parseRaw();
      return { ok: true, value: scenario };
    },
    /** Scenario from defaults of the parameter table, for an engine without examples. */
    defaults(desc) {
      const s = { version: 1, engine: desc.id };
      for (const p of desc.params || []) {
        if (p.default != null && shown(p, s) && getPath(s, p.path) === undefined) setPath(s, p.path, structuredClone(p.default));
      }
      return s;
    },
    get scenario() { return scenario; },
  };
}
