// Work on big texts, off the main thread so that no link, file or export can freeze the page:
// decoding and encoding share links, folding long scenario text for the editor, opening files
// (scenarios, and what engines import: engines/data.js),
// and building CSV from the complete report. Every message has a `type`; requests carry an `id`
// and get {type: 'result', id, value} or {type: 'error', id, error: {path, message}}.
import { decodeLinkState, encodeLink } from './links.js';
import { fold, valueAt } from './jsontext.js';
import { dataFor, importerFor } from './engines/data.js';
import { readSwf, readTrace } from './attach.js';
import { isArchive, openArchive } from './archive.js';

/**
 * {shown, folds} for scenario text: the editor shows `shown`; unfold(shown, folds) is the text again
 * (the whole text does not cross twice: the long values travel once, inside `folds`).
 */
function folded(text) {
  return fold(text);
}

function scenarioCheck(text) {
  let value;
  try { value = JSON.parse(text); } catch { return null; }
  return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
}

/** The engines' wasm module, loaded on first use (only the launcher files need it here). */
let wasmModule = null;
async function wasmReady() {
  if (!wasmModule) {
    const m = await import('./pkg/placelab.js');
    await m.default();
    wasmModule = m;
  }
  return wasmModule;
}

/** Files over this many bytes do not travel inside a scenario (the engine's scenario limit). */
const INLINE_BYTES = 4 * 1024 * 1024;
/** Bytes of a large file read to tell what it is. */
const SNIFF_BYTES = 64 * 1024;

/** Streams an SWF log through the engine's reader (attach.js): its summary, or a bad line's error. */
async function streamSwf(file) {
  const wasm = await wasmReady();
  try {
    return await readSwf(wasm.SwfAttach, file.name, file);
  } catch (e) {
    throw new Error(`${file.name}: ${e.message}`);
  }
}

/** Streams a time-independent trace's files (rank order) through the engine's reader (attach.js). */
async function streamTrace(name, files) {
  const wasm = await wasmReady();
  try {
    return await readTrace(wasm.TraceAttach, name, files);
  } catch (e) {
    throw new Error(`${name}: ${e.message}`);
  }
}

const HANDLERS = {
  /**
   * Several files at once: an SMPI -trace-ti folder, its index (whose lines name the other
   * files) with the rank files. They are read as streams and attached; the scenario names the
   * index. Returns openFile's answers, with `attached.order`: the rank files' names in rank order.
   */
  async openFiles({ files, base = null, engine = null, archive = null }) {
    const byName = new Map(files.map((f) => [f.name, f]));
    let index = null;
    let order = null;
    for (const f of files) {
      if (f.size > SNIFF_BYTES) continue;
      const names = (await f.text()).split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
        .map((l) => l.split(/[\\/]/).pop());
      // an archive may hold other files too (a README, the program): its index names the rank files
      const fits = archive ? names.length >= 1 : names.length === files.length - 1;
      if (fits && names.every((n) => n !== f.name && byName.has(n))) {
        index = f;
        order = names;
        break;
      }
    }
    if (!index) {
      return {
        kind: 'refused',
        message: archive
          ? `${archive}: ${files.length} files, none of them an index naming the others (smpirun -trace-ti writes one)`
          : `${files.length} files: to read a trace recorded with smpirun -trace-ti, choose its index file together with every rank file it names (and nothing else)`,
      };
    }
    let summary;
    try {
      summary = await streamTrace(index.name, order.map((n) => byName.get(n)));
    } catch (e) {
      return { kind: 'refused', message: String(e?.message ?? e) };
    }
    const importer = dataFor('trace').importers[0];
    let scenario;
    try {
      scenario = importer.attach(engine === 'trace' ? base : null, index.name, summary);
    } catch (e) {
      return { kind: 'refused', message: String(e?.message ?? e) };
    }
    // from an archive the page has no File of its own for the members: they go back with the answer
    const members = archive ? order.map((n) => byName.get(n)) : undefined;
    return { kind: 'scenario', importer: importer.id, attached: { ...summary, kind: 'trace', order, members }, ...folded(scenario) };
  },
  /** {shown, folds, study}: the scenario folded for the editor, and the link's study (or null). */
  async openLink({ hash }) {
    const { text, study } = await decodeLinkState(hash);
    return { ...folded(text), study };
  },
  async encodeLink({ text, study = null }) {
    return encodeLink(text, study);
  },
  async fold({ text }) {
    return folded(text);
  },
  /**
   * A scenario file becomes the editor's text; any other file goes to the importer that takes it
   * (engines/data.js: by extension, then by content; the current engine's first), which builds a
   * scenario from it and, when it is of the same engine, the current scenario `base`.
   * Returns {kind: 'scenario', importer, shown, folds} | {kind: 'invalid'} | {kind: 'unknown'} |
   * {kind: 'refused', message}.
   */
  async openFile({ file, base = null, engine = null }) {
    if (isArchive(file.name)) {
      // a trace folder as .zip, .tar or .tar.gz: unpacked here, then read as the folder would be
      let members;
      try {
        members = await openArchive(file);
      } catch (e) {
        return { kind: 'refused', message: String(e?.message ?? e) };
      }
      if (members.length === 0) return { kind: 'refused', message: `${file.name}: the archive holds no file` };
      if (members.length > 1) return HANDLERS.openFiles({ files: members, base, engine, archive: file.name });
      const one = await HANDLERS.openFile({ file: members[0], base, engine });
      if (one.attached) one.attached.members = members;
      return one;
    }
    if (file.size > INLINE_BYTES) {
      // too large to travel inside a scenario: an importer that attaches files takes it whole
      const head = await file.slice(0, SNIFF_BYTES).text();
      const importer = importerFor(file.name, head, engine);
      if (!importer?.attach) {
        return { kind: 'refused', message: `the file is ${file.size} bytes; a scenario or an imported file holds at most ${INLINE_BYTES} bytes (SWF logs of any size attach to allocation scenarios)` };
      }
      let summary;
      try {
        summary = importer.attaches === 'trace' ? await streamTrace(file.name, [file]) : await streamSwf(file);
      } catch (e) {
        return { kind: 'refused', message: String(e?.message ?? e) };
      }
      summary.kind = importer.attaches;
      let scenario;
      try {
        scenario = importer.attach(importer.engine === engine ? base : null, file.name, summary);
      } catch (e) {
        return { kind: 'refused', message: String(e?.message ?? e) };
      }
      return { kind: 'scenario', importer: importer.id, attached: summary, ...folded(scenario) };
    }
    const text = await file.text();
    const doc = scenarioCheck(text);
    if (doc !== null) {
      if (typeof doc.engine !== 'string') return { kind: 'invalid' };
      return { kind: 'scenario', importer: 'scenario', ...folded(text) };
    }
    const importer = importerFor(file.name, text, engine);
    if (!importer) return { kind: 'unknown' };
    let scenario;
    try {
      scenario = importer.scenario(importer.engine === engine ? base : null, text, file.name);
    } catch (e) {
      return { kind: 'refused', message: String(e?.message ?? e) };
    }
    return { kind: 'scenario', importer: importer.id, ...folded(scenario) };
  },
  /**
   * Exports of a report Blob (CSV tables, and files such as a part file), each as a Blob with its
   * name and, when it is not `<name>.csv`, its file name suffix `file`.
   */
  async csv({ report }) {
    const envelope = JSON.parse(await report.text());
    return dataFor(envelope.engine).csv(envelope).map((p) => ({ name: p.name, file: p.file, blob: new Blob([p.text], { type: p.type || 'text/csv' }) }));
  },
  /** A placement of the report as a launcher's file: {text, what, ranks, hosts, keepsOrder, label}. */
  async hostfile({ report, format, case: c, strategy, job }) {
    const wasm = await wasmReady();
    return JSON.parse(wasm.hostfile(await report.text(), format, c ?? undefined, strategy ?? undefined, job ?? undefined));
  },
  async valueAt({ text, path }) {
    return valueAt(text, path);
  },
};

self.onmessage = async ({ data }) => {
  const handler = data && Object.hasOwn(HANDLERS, data.type) ? HANDLERS[data.type] : null;
  if (!handler) { console.warn('placelab text worker: unknown message type', data && data.type); return; }
  try {
    postMessage({ type: 'result', id: data.id, value: await handler(data) });
  } catch (e) {
    postMessage({ type: 'error', id: data.id, error: { path: '', message: e && e.message !== undefined ? String(e.message) : String(e) } });
  }
};
