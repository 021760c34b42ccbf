// Work on big texts, off the main thread so that no link, file or export can freeze the page:
// decoding and encoding share links, folding long scenario text for the editor, opening files,
// and building CSV from the complete report. Every message has a `type`; requests carry an `id`
// and get {type: 'result', id, value} or {type: 'error', id, error: {path, message}}.
import { decodeLink, encodeLink } from './links.js';
import { fold, setLiteral, valueAt } from './jsontext.js';
import { dataFor } from './engines/data.js';

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

const HANDLERS = {
  async openLink({ hash }) {
    return folded(await decodeLink(hash));
  },
  async encodeLink({ text }) {
    return encodeLink(text);
  },
  async fold({ text }) {
    return folded(text);
  },
  /** A scenario file becomes the editor's text; anything else is returned as a workload log. */
  async openFile({ file }) {
    const text = await file.text();
    const doc = scenarioCheck(text);
    if (doc === null) return { kind: 'log', text };
    if (typeof doc.engine !== 'string') return { kind: 'invalid' };
    return { kind: 'scenario', ...folded(text) };
  },
  /** The current scenario with its workload replaced by an SWF log (text kept as is). */
  async swfScenario({ base, log, fileName }) {
    let text = setLiteral(base, 'name', JSON.stringify(`${fileName} (SWF log)`));
    text = setLiteral(text, 'description', JSON.stringify(`Jobs of ${fileName}, a Standard Workload Format log, replayed FCFS with EASY backfilling.`));
    text = setLiteral(text, 'workload', JSON.stringify({ kind: 'swf', backfill: 'easy', swf: log }));
    return folded(text);
  },
  /** CSV parts of a report Blob, each as a Blob. */
  async csv({ report }) {
    const envelope = JSON.parse(await report.text());
    return dataFor(envelope.engine).csv(envelope).map((p) => ({ name: p.name, blob: new Blob([p.text], { type: 'text/csv' }) }));
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
