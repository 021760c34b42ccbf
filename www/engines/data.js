// Engine id → its report as data, for the workers (no DOM): {bound(envelope) → {view, transfer},
// csv(envelope) → [{name, text}]}. A new engine adds a line here beside its line in index.js.
import * as allocation from './allocation-data.js';
import * as select from './select-data.js';

const PREVIEW_CHARS = 200_000;

/** An engine without its own data module: the page shows the start of the report as text. */
const generic = {
  bound(envelope) {
    const { report, ...rest } = envelope;
    return { view: { ...rest, preview: JSON.stringify(report, null, 2).slice(0, PREVIEW_CHARS) }, transfer: [] };
  },
  csv() { return []; },
};

export const DATA = { allocation, select };

export function dataFor(engineId) {
  return Object.hasOwn(DATA, engineId) ? DATA[engineId] : generic;
}
