// Fallback view for an engine that has no drawing yet: the report as text, no table.
import { el } from '../dom.js';

export function draw(host, envelope) {
  host.replaceChildren(el('pre', { class: 'report-text', text: JSON.stringify(envelope.report, null, 2).slice(0, 200000) }));
  return { canvases: () => [], destroy() {} };
}
export function table(host) { host.replaceChildren(); }
export function csv() { return []; }
