// The trace engine's view: the search's figures (visited, proven optimal or the gap), the best
// assignment with its machinefile, the ranking of assignments as bars of predicted time, the best
// assignment's per-rank timeline as a trace viewer draws it, each link's fit with its samples,
// predicted against measured times when measured times are given; tables below.
import { el, formatValue, formatCount } from '../dom.js';
import { drawLegend } from '../draw/common.js';
import { SEGMENT_KINDS, BEST_COLOR, MEASURED_COLOR, MEASURED_BEST_COLOR, MAX_LINK_CHARTS, drawRanking, drawTimeline, drawLinkFits, drawScatter } from '../draw/trace.js';
import { KIND_CODES } from './trace-data.js';

const MIN_FIGURE_W = 320;  // px
const MAX_FIGURE_W = 1100; // px
const SCATTER_W = 420;     // px
const SCATTER_H = 340;     // px
const FIGURE_GAP = 20;     // px, the gap of .figures
/** Bars drawn in the ranking chart (the ranking table and CSV have every ranked assignment). */
const MAX_BARS = 40;
const ROWS_SHOWN = 200;

/** The second CSV button exports the ranking. */
export const SECOND_CSV = { label: 'Ranking CSV', title: 'Every ranked assignment: position, hosts per rank, predicted and measured time' };

/** A time in seconds with four significant digits, in s, ms or µs as its size asks. */
export function secs(v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  const [x, u] = a === 0 || a >= 1 ? [v, 's'] : a >= 1e-3 ? [v * 1e3, 'ms'] : [v * 1e6, 'µs'];
  return `${Number(x.toPrecision(4))} ${u}`;
}
const pct = (v) => (typeof v === 'number' && Number.isFinite(v) ? `${(v * 100).toFixed(1)} %` : '—');

function searchSentence(s) {
  const method = { exhaustive: 'exhaustive search', branchAndBound: 'branch and bound', localSearch: 'local search', auto: 'automatic search' }[s.method] ?? s.method;
  // counts past the largest double (hundreds of ranks on nodes of several cores) are null
  const many = (x) => (x === null || x === undefined ? 'more than 1.8e308' : formatCount(x));
  const parts = [`Search: ${method}, ${formatCount(s.visited)} assignments visited of ${many(s.assignments)}`
    + `${s.distinct !== s.assignments ? ` (${many(s.distinct)} distinct up to identical nodes, ${formatCount(s.classes)} classes)` : ''}`,
  `${formatCount(s.replays)} full replays, ${formatCount(s.pruned)} branches pruned, ${formatCount(s.steps)} replay steps${s.method === 'exhaustive' ? ' (exhaustive search has no budget: every assignment is replayed)' : ` of a budget of ${formatCount(s.budget)}`}`];
  const id = s.identicalRanks;
  if (id) {
    parts.push(`identical ranks (${id.generators.join(', ')} found to leave the trace unchanged): only assignments with rank ${id.pivot} on the least node class of ranks ${id.orbit.length > 8 ? `${id.orbit.slice(0, 8).join(', ')}, … (${id.orbit.length})` : id.orbit.join(', ')} are searched and listed`);
  }
  const verdict = s.proven
    ? 'the best is proven optimal'
    : `stopped at the budget: not proven, the best is within ${pct(s.gap)} of the lower bound ${secs(s.lowerBound)}`;
  return `${parts.join('; ')}; ${verdict}.`;
}

function measuredSentence(m) {
  return `Measured (${formatCount(m.rows)} assignments): the predicted best ${m.predictedBest} ran in ${secs(m.predictedBestMeasured)}, `
    + `the measured best is ${m.measuredBest} (${secs(m.measuredBestTime)}, predicted position ${m.measuredBestPredictedPosition ?? '—'}): `
    + `error a = |t_n − t_m| / t_m = ${pct(m.a)}; rank correlation ${formatValue(m.rankCorrelation)}, mean relative error ${pct(m.meanRelativeError)}.`;
}

/** Draws the report into `host`; returns a handle {canvases, destroy, timeline}. */
export function draw(host, envelope) {
  const report = envelope.report;
  const nodes = report.nodes || [];
  const t = report.trace || {};
  host.replaceChildren();
  host.append(el('p', { class: 'note', 'data-testid': 'trace-info',
    text: `${formatCount(t.ranks)} ranks, ${formatCount(t.events)} events (${formatCount(t.messages)} messages, ${formatCount(t.bytes)} bytes, ${secs(t.compute)} of computation on unloaded nodes) from ${report.program ? `the generated ${report.program}` : `a ${report.source} trace`}; `
      + `${formatCount(nodes.length)} nodes (ratios ${nodes.slice(0, 16).map((n) => formatValue(n.ratio)).join(', ')}${nodes.length > 16 ? ', …' : ''})`
      + `${nodes.some((n) => (n.cores ?? 1) > 1) ? `, ${formatCount(nodes.reduce((s, n) => s + (n.cores ?? 1), 0))} cores in all (a node holds at most its cores' ranks)` : ''}.` }));
  const s = report.search || {};
  host.append(el('p', { 'data-testid': 'trace-search', dataset: { proven: String(!!s.proven), visited: String(s.visited) }, text: searchSentence(s) }));
  const best = report.best || {};
  const mfBtn = el('button', { type: 'button', class: 'secondary', text: 'Download machinefile', 'data-testid': 'export-machinefile',
    title: 'the best assignment as an MPI machinefile: the host of rank 0, then rank 1, ...' });
  mfBtn.addEventListener('click', () => host.dispatchEvent(new CustomEvent('export', { bubbles: true, detail: { name: 'machinefile' } })));
  const tlBtn = el('button', { type: 'button', class: 'secondary', text: 'Timeline CSV', 'data-testid': 'export-timeline',
    title: 'the best assignment\'s timeline: one row per segment (rank, node, kind, start, end, peer, bytes)' });
  tlBtn.addEventListener('click', () => host.dispatchEvent(new CustomEvent('export', { bubbles: true, detail: { name: 'timeline' } })));
  host.append(el('div', { class: 'layers' },
    el('span', { 'data-testid': 'trace-best', dataset: { hosts: best.hosts ?? '', time: String(best.time) },
      text: `Best assignment (host per rank): ${best.hosts}, predicted ${secs(best.time)}; ${nodes.some((n) => (n.cores ?? 1) > 1) ? 'ranks in order on the cores in order' : 'rank i on node i'} instead: ${secs(best.identityTime)} (${formatValue(best.identityRatio)} x the best).` }),
    mfBtn, tlBtn));
  if (report.measured) host.append(el('p', { 'data-testid': 'trace-measured', dataset: { a: String(report.measured.a) }, text: measuredSentence(report.measured) }));

  const legend = el('canvas', { 'data-testid': 'legend', class: 'legend' });
  const timeline = el('canvas', { 'data-testid': 'trace-timeline' });
  const ranking = el('canvas', { 'data-testid': 'trace-ranking' });
  const links = el('canvas', { 'data-testid': 'trace-links' });
  const scatter = report.measured ? el('canvas', { 'data-testid': 'trace-scatter' }) : null;
  const names = nodes.map((n) => n.name);
  const linkList = linkCharts(report.links, names);
  const linkCount = linkList.length;
  const tl = report.timeline;
  const tlNote = tl && tl.truncated ? ` (the first ${formatCount(tl.segments.length)} of ${formatCount(tl.total)} segments, up to ${secs(tl.shownUntil)})` : '';
  host.append(
    el('figure', { class: 'figure' }, legend, timeline,
      el('div', { class: 'caption', 'data-testid': 'timeline-caption', text: `The best assignment replayed: one row per rank (its node after the arrow), makespan ${secs(tl?.makespan)}${tlNote}.` })),
    el('div', { class: 'figures' },
      el('figure', { class: 'figure' }, ranking, el('div', { class: 'caption', text: rankingCaption(report) })),
      scatter && el('figure', { class: 'figure' }, scatter, el('div', { class: 'caption', text: 'Each assignment with a measured time: predicted across, measured up; the diagonal is a perfect prediction.' }))),
    el('figure', { class: 'figure' }, links,
      el('div', { class: 'caption', text: `Each fitted link's samples (points) and its least-squares line a0 + a1·N, each given link's line (pairs sharing one drawn once)${linkCount > MAX_LINK_CHARTS ? `; the first ${MAX_LINK_CHARTS} of ${linkCount} charts, the table lists every link` : ''}.` })),
  );
  const labels = (tl?.nodes || []).map((n, r) => `rank ${r} → ${nodes[n]?.name ?? n}`);
  const measuredOf = new Map((report.measured?.pairs || []).map((p) => [p.hosts, p.measured]));
  const items = (report.ranking || []).slice(0, MAX_BARS).map((row) => ({ label: row.hosts, predicted: row.time, measured: measuredOf.get(row.hosts) }));
  const measuredBest = report.measured ? items.findIndex((it) => it.label === report.measured.measuredBest) : -1;
  const pairs = report.measured?.pairs || [];
  const pts = { predicted: pairs.map((p) => p.predicted), measured: pairs.map((p) => p.measured) };
  const handle = { timeline: null, ranking: null };
  let lastWidth = 0;
  function drawAll() {
    const avail = Math.max(MIN_FIGURE_W, host.clientWidth || 800);
    lastWidth = avail;
    const w = Math.min(MAX_FIGURE_W, avail);
    drawLegend(legend, legendEntries(report), w);
    if (tl) handle.timeline = drawTimeline(timeline, { width: w, ranks: tl.nodes.length, labels, tMax: tl.makespan, seg: tl.segments, unit: 's', title: `Timeline of the best assignment (${(best.hosts ?? '').length > 120 ? `${best.hosts.slice(0, 120)}…` : best.hosts})` });
    // the ranking and the scatter side by side when both fit (FIGURE_GAP between them)
    const rw = scatter ? Math.max(MIN_FIGURE_W, Math.min(w - SCATTER_W - FIGURE_GAP - 4, 640)) : Math.min(w, 760);
    ranking.parentElement.style.width = `${rw}px`;
    if (scatter) scatter.parentElement.style.width = `${Math.min(SCATTER_W, w)}px`;
    handle.ranking = drawRanking(ranking, { width: rw, items, best: 0, measuredBest, unit: 's', title: `Assignments by predicted time${(report.ranking || []).length > MAX_BARS ? ` (best ${MAX_BARS})` : ''}` });
    if (scatter) drawScatter(scatter, { width: Math.min(SCATTER_W, w), height: SCATTER_H, pts, best: pairs.findIndex((p) => p.hosts === report.measured.predictedBest), measuredBest: pairs.findIndex((p) => p.hosts === report.measured.measuredBest), unit: 's', title: 'Predicted and measured time' });
    drawLinkFits(links, { width: w, links: linkList, unit: 's' });
  }
  const observer = new ResizeObserver(() => { if (Math.abs((host.clientWidth || 800) - lastWidth) > 8) drawAll(); });
  observer.observe(host);
  drawAll();
  handle.canvases = () => [[legend], [timeline], scatter ? [ranking, scatter] : [ranking], [links]];
  handle.destroy = () => observer.disconnect();
  return handle;
}

/**
 * The links to chart: every fitted one (with its samples), then each distinct given or default
 * model once, labelled with its first pair and how many more share it.
 */
export function linkCharts(links, names) {
  const out = [];
  const models = new Map();
  for (const l of links) {
    const label = `${names[l.from]}→${names[l.to]}`;
    if (l.n.length > 0) { out.push({ label, a0: l.a0, a1: l.a1, n: l.n, t: l.t }); continue; }
    const key = `${l.a0} ${l.a1}`;
    if (models.has(key)) models.get(key).more++;
    else models.set(key, { label, a0: l.a0, a1: l.a1, n: l.n, t: l.t, more: 0 });
  }
  for (const m of models.values()) out.push({ ...m, label: m.more ? `${m.label} and ${m.more} more` : m.label });
  return out;
}

function rankingCaption(report) {
  const shown = Math.min(MAX_BARS, (report.ranking || []).length);
  return `The ${formatCount(shown)} best assignments (hosts of ranks 0, 1, …), the predicted best in blue`
    + `${report.measured ? '; black ticks: measured times, the measured best labelled in orange' : ''}.`;
}

function legendEntries(report) {
  // `sleep` only when the timeline has one (the view's kind codes: engines/trace-data.js)
  const kinds = report.timeline?.segments?.kind;
  const sleeps = kinds ? kinds.includes(KIND_CODES.sleep) : false;
  const entries = SEGMENT_KINDS.filter((k) => k.id !== 'sleep' || sleeps).map((k) => ({ label: k.label, color: k.color }));
  entries.push({ label: 'predicted best', color: BEST_COLOR });
  if (report.measured) entries.push({ label: 'measured', color: MEASURED_COLOR }, { label: 'measured best', color: MEASURED_BEST_COLOR });
  return entries;
}

/** Tables: the ranking (with measured times), the nodes, the links with their fits. */
export function table(host, envelope) {
  const report = envelope.report;
  host.replaceChildren();
  const names = (report.nodes || []).map((n) => n.name);
  const measuredOf = new Map((report.measured?.pairs || []).map((p) => [p.hosts, p.measured]));
  const mk = (testid, cols, rows) => el('div', { class: 'table-scroll' }, el('table', { class: 'metrics', 'data-testid': testid },
    el('thead', {}, el('tr', {}, cols.map((c) => el('th', { scope: 'col', text: c })))),
    el('tbody', {}, rows.map((r) => el('tr', {}, r.map((v) => el('td', { text: String(v) })))))));
  const ranking = (report.ranking || []).slice(0, ROWS_SHOWN);
  host.append(mk('trace-ranking-table', ['Position', 'Hosts of ranks 0, 1, …', 'Predicted', 'Identical-node equivalents', 'Measured'],
    ranking.map((r) => [r.position, r.hosts, secs(r.time), formatCount(r.equivalents), measuredOf.has(r.hosts) ? secs(measuredOf.get(r.hosts)) : '—'])));
  const nodeRows = report.nodes || [];
  if (nodeRows.some((n) => (n.cores ?? 1) > 1)) {
    host.append(mk('trace-nodes-table', ['Node', 'Ratio', 'Cores', 'Intra-node a0 (s)', 'Intra-node a1 (s/byte)', 'Identical-node class'],
      nodeRows.map((n) => [n.name, formatValue(n.ratio), n.cores ?? 1, n.intra ? Number(n.intra.a0.toPrecision(4)) : '—', n.intra ? Number(n.intra.a1.toPrecision(4)) : '—', n.class])));
  } else {
    host.append(mk('trace-nodes-table', ['Node', 'Ratio', 'Identical-node class'], nodeRows.map((n) => [n.name, formatValue(n.ratio), n.class])));
  }
  host.append(el('details', { class: 'jobs-details' }, el('summary', { text: `Links (${formatCount(report.links.length)})` }),
    mk('trace-links-table', ['From', 'To', 'a0 (s)', 'a1 (s/byte)', 'Origin', 'Samples', 'RMS residual (s)', 'r²'],
      report.links.slice(0, ROWS_SHOWN * 4).map((l) => [names[l.from], names[l.to], formatValue(l.a0), Number(l.a1.toPrecision(4)), l.origin,
        l.fit ? l.fit.count : '—', l.fit ? formatValue(l.fit.rms) : '—', l.fit ? formatValue(l.fit.r2) : '—']))));
}
