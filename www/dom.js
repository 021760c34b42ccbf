// Tiny DOM helpers. Text always goes in through textContent, never as HTML.

/** el('div', {class: 'x', dataset: {a: 1}, onclick: f}, child, 'text', ...) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k in node && typeof v !== 'string') node[k] = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** A count with thousands separators (12,345), without Intl (its first use costs milliseconds). */
export function formatCount(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Formats a report value for a table cell. */
export function formatValue(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return String(v.length);
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return String(v);
    return Math.abs(v) >= 1000 ? v.toFixed(1) : v.toFixed(3);
  }
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** One CSV field; cells that a spreadsheet would run as a formula get a leading quote. */
export function csvField(v) {
  let s = v === null || v === undefined ? '' : Array.isArray(v) ? String(v.length)
    : typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(fields) {
  return fields.map(csvField).join(',');
}

/**
 * A hidden tooltip appended to the page's body: one `div.tooltip` with role tooltip (and
 * `data-testid` when given). The view that makes it removes it in its destroy.
 */
export function tooltipElement(testid) {
  const tip = el('div', { class: 'tooltip', role: 'tooltip', hidden: true, 'data-testid': testid });
  document.body.append(tip);
  return tip;
}

/**
 * Shows `tip` with `text` near the pointer of mouse event `event` (14 px right of and below it,
 * kept 8 px inside the window); hides it when `text` is empty.
 */
export function showTooltip(tip, event, text) {
  if (!text) { tip.hidden = true; return; }
  tip.textContent = text;
  tip.hidden = false;
  tip.style.left = `${Math.min(event.clientX + 14, window.innerWidth - tip.offsetWidth - 8)}px`;
  tip.style.top = `${Math.min(event.clientY + 14, window.innerHeight - tip.offsetHeight - 8)}px`;
}
