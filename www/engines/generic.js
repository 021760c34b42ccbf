// Fallback view for an engine that has no drawing yet: the start of the report as text, no table.
import { el } from '../dom.js';

export function draw(host, envelope) {
  host.replaceChildren(el('pre', { class: 'report-text', text: envelope.preview ?? '' }));
  return { canvases: () => [], destroy() {} };
}
export function table(host) { host.replaceChildren(); }
