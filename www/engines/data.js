// Engine id → its report as data, for the workers (no DOM): {bound(envelope) → {view, transfer},
// csv(envelope) → [{name, text}], importers?}. A new engine adds a line here beside its line in
// index.js.
//
// Importers: each data module may list the files it turns into a scenario, as
// {id, label, extensions: ['.graph', ...], sniff(text) → bool, scenario(base, fileText, fileName) → text},
// where `base` is the current scenario text when it is of the same engine (null otherwise) and the
// result is scenario text (built with jsontext.js, so the base's other bytes stay as they were).
// An importer may also take files of any size as attachments: `attach(base, fileName, summary) →
// text` builds a scenario that names the file (e.g. "swfFile") and pins its fingerprint
// (summary.digest); the text worker streams the file through the engine's reader to get the
// summary, and the engine worker reads the file again at each run (worker.js, src/attach.rs).
// The text worker picks the importer for a file (importerFor) without any engine-specific code.
import * as allocation from './allocation-data.js';
import * as partition from './partition-data.js';
import * as moldable from './moldable-data.js';
import * as place from './place-data.js';
import * as select from './select-data.js';
import * as trace from './trace-data.js';

const PREVIEW_CHARS = 200_000;

/** An engine without its own data module: the page shows the start of the report as text. */
const generic = {
  bound(envelope) {
    const { report, ...rest } = envelope;
    return { view: { ...rest, preview: JSON.stringify(report, null, 2).slice(0, PREVIEW_CHARS) }, transfer: [] };
  },
  csv() { return []; },
};

export const DATA = { allocation, partition, place, select, moldable, trace };

export function dataFor(engineId) {
  return Object.hasOwn(DATA, engineId) ? DATA[engineId] : generic;
}

/** Every importer, with its engine id, the current engine's first (then the registry's order). */
function importersInOrder(currentEngine) {
  const ids = Object.keys(DATA);
  ids.sort((a, b) => (b === currentEngine) - (a === currentEngine));
  return ids.flatMap((engine) => (DATA[engine].importers || []).map((imp) => ({ engine, ...imp })));
}

/** Lower-case extensions (with the dot) that some engine imports, for the file picker. */
export function importExtensions() {
  return [...new Set(importersInOrder(null).flatMap((i) => i.extensions))];
}

/**
 * The importer for a file that is not a scenario: by its name's extension (the current engine's
 * importers first, then any engine's), else by its content (`sniff`, in the same order); null
 * when none takes it.
 */
export function importerFor(fileName, text, currentEngine) {
  const list = importersInOrder(currentEngine);
  const lower = String(fileName).toLowerCase();
  const byName = list.find((i) => i.extensions.some((e) => lower.endsWith(e)));
  if (byName) return byName;
  return list.find((i) => i.sniff && i.sniff(text)) || null;
}
