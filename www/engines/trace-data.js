// The trace engine's report as data, without the DOM (it runs in the workers): the bounded view
// (timeline segments and link samples as typed arrays), the CSV, machinefile and timeline
// exports, and the importer that turns a dropped trace file (MPE ALOG, SimGrid time-independent,
// our text format) into the scenario's trace.
import { csvLine } from '../dom.js';
import { literalAt, setLiteral, valueAt } from '../jsontext.js';

/** Timeline segment kinds in the order of their codes in the view (draw/trace.js SEGMENT_KINDS). */
export const KIND_CODES = { compute: 0, send: 1, recv: 2, wait: 3, sleep: 4 };

/**
 * Timeline segments ({rank, kind, start, end, peer?, bytes?}) as typed arrays: segment i of
 * rank `rank[i]`, kind code `kind[i]` (KIND_CODES), from `start[i]` to `end[i]` seconds.
 */
export function segmentArrays(rows, transfer = null) {
  const n = rows.length;
  const rank = new Uint32Array(n), kind = new Uint8Array(n), start = new Float64Array(n), end = new Float64Array(n);
  rows.forEach((s, i) => {
    rank[i] = s.rank; kind[i] = KIND_CODES[s.kind] ?? KIND_CODES.wait; start[i] = s.start; end[i] = s.end;
  });
  if (transfer) transfer.push(rank.buffer, kind.buffer, start.buffer, end.buffer);
  return { length: n, rank, kind, start, end };
}

/** {view, transfer}: the report with the timeline's segments and each link's samples as typed arrays. */
export function bound(envelope) {
  const transfer = [];
  const r = envelope.report || {};
  const timeline = r.timeline ? { ...r.timeline, segments: segmentArrays(r.timeline.segments || [], transfer) } : null;
  const links = (r.links || []).map(({ fit, ...l }) => {
    const samples = fit?.samples || [];
    const n = Float64Array.from(samples, (s) => s[0]), t = Float64Array.from(samples, (s) => s[1]);
    transfer.push(n.buffer, t.buffer);
    return { ...l, fit: fit ? { ...fit, samples: undefined } : null, n, t };
  });
  return { view: { ...envelope, report: { ...r, timeline, links } }, transfer };
}

const RANKING_COLUMNS = ['position', 'hosts', 'time', 'equivalents', 'measured'];
const SEGMENT_COLUMNS = ['rank', 'node', 'kind', 'start', 'end', 'peer', 'bytes'];
const LINK_COLUMNS = ['from', 'to', 'a0', 'a1', 'origin', 'samples', 'rms', 'maxResidual', 'r2'];

/**
 * Exports from the complete report: `summary` (the figures, then the links), `ranking` (every
 * ranked assignment with its measured time when known), `timeline` (the best assignment's
 * segments), and `machinefile` (the best assignment, one host per line in rank order).
 */
export function csv(envelope) {
  const r = envelope.report || {};
  const s = r.search || {};
  const summary = [csvLine(['figure', 'value'])];
  const add = (k, v) => summary.push(csvLine([k, v ?? '']));
  add('source', r.source);
  if (r.program) add('program', r.program);
  for (const k of ['ranks', 'events', 'messages', 'bytes', 'compute']) add(`trace.${k}`, r.trace?.[k]);
  for (const k of ['method', 'assignments', 'distinct', 'classes', 'visited', 'replays', 'boundReplays', 'pruned', 'steps', 'budget', 'proven', 'stopped', 'lowerBound', 'gap']) add(`search.${k}`, s[k]);
  if (s.identicalRanks) {
    add('search.identicalRanks.generators', s.identicalRanks.generators.join('; '));
    add('search.identicalRanks.pivot', s.identicalRanks.pivot);
    add('search.identicalRanks.orbit', s.identicalRanks.orbit.join(' '));
  }
  for (const k of ['hosts', 'time', 'identityTime', 'identityRatio']) add(`best.${k}`, r.best?.[k]);
  if (r.measured) {
    for (const k of ['rows', 'predictedBest', 'predictedBestMeasured', 'measuredBest', 'measuredBestTime', 'a', 'measuredBestPredictedPosition', 'meanRelativeError', 'rankCorrelation']) add(`measured.${k}`, r.measured[k]);
  }
  summary.push('', csvLine(LINK_COLUMNS));
  const names = (r.nodes || []).map((n) => n.name);
  for (const l of r.links || []) {
    summary.push(csvLine([names[l.from] ?? l.from, names[l.to] ?? l.to, l.a0, l.a1, l.origin, l.fit?.count ?? '', l.fit?.rms ?? '', l.fit?.maxResidual ?? '', l.fit?.r2 ?? '']));
  }
  const measuredOf = new Map((r.measured?.pairs || []).map((p) => [p.hosts, p.measured]));
  const ranking = [csvLine(RANKING_COLUMNS)];
  for (const row of r.ranking || []) ranking.push(csvLine([row.position, row.hosts, row.time, row.equivalents, measuredOf.get(row.hosts) ?? '']));
  const timeline = [csvLine(SEGMENT_COLUMNS)];
  const nodeOf = r.timeline?.nodes || [];
  for (const g of r.timeline?.segments || []) timeline.push(csvLine([g.rank, names[nodeOf[g.rank]] ?? '', g.kind, g.start, g.end, g.peer ?? '', g.bytes ?? '']));
  return [
    { name: 'summary', text: summary.join('\n') + '\n' },
    { name: 'ranking', text: ranking.join('\n') + '\n' },
    { name: 'timeline', text: timeline.join('\n') + '\n' },
    { name: 'machinefile', file: 'machinefile', type: 'text/plain', text: r.best?.machinefile ?? '' },
  ];
}

// ---- the trace importer ------------------------------------------------------------------------

/** ALOG event types of table 1 (calls and messages) and its header records (-1 .. -100). */
const ALOG_EVENTS = new Set(['155', '156', '161', '162', '-101', '-102']);
const TI_ONLY = /^\s*(p|rank)?\d+\s+(init|finalize|comm_size)\b/;
const TI_SEND_LONG = /^\s*(p|rank)?\d+\s+(send|recv)\s+\S+\s+\S+\s+\S+\s+\S+\s*$/;
const OUR_HEADER = /^\s*ranks\s+\d+\s*(#.*)?$/;
const ACTION = /^\s*(p|rank)?\d+\s+(compute|send|recv)\b/;

/** The first `limit` lines that are not blank or `#` comments. */
function dataLines(text, limit) {
  const out = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    out.push(t);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * The trace format of a text, or null: `alog` when its lines are whole numbers opening with an
 * ALOG event type of table 1 or a header record; `ti` when SimGrid's own actions (init,
 * finalize, comm_size) or its five-field send / receive appear; `text` when it opens with
 * `ranks N` or has only `R compute|send|recv` lines (the extension `.ti` then says `ti`).
 */
export function traceFormat(text, fileName = '') {
  const lines = dataLines(text, 400);
  if (lines.length === 0) return null;
  const alog = lines.every((l) => {
    const f = l.split(/\s+/);
    return f.length >= 6 && /^-?\d+$/.test(f[0]) && (ALOG_EVENTS.has(f[0]) || (Number(f[0]) < 0 && Number(f[0]) >= -100));
  });
  if (alog && lines.some((l) => ALOG_EVENTS.has(l.split(/\s+/)[0]))) return 'alog';
  if (lines.some((l) => TI_ONLY.test(l) || TI_SEND_LONG.test(l))) return 'ti';
  if (OUR_HEADER.test(lines[0]) || lines.every((l) => ACTION.test(l) || OUR_HEADER.test(l))) {
    return String(fileName).toLowerCase().endsWith('.ti') ? 'ti' : 'text';
  }
  return null;
}

/**
 * Ranks a trace names (the largest rank number + 1, counting the peers of sends and receives,
 * so that one rank's file of a time-independent trace counts its partners); 0 if none.
 */
export function traceRanks(text, format) {
  let ranks = 0;
  const see = (token) => {
    const m = /^(?:p|rank)?(\d+)$/.exec(token ?? '');
    if (m) ranks = Math.max(ranks, Number(m[1]) + 1);
  };
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[0] === '' || f[0].startsWith('#')) continue;
    if (format === 'text' && f[0] === 'ranks') { ranks = Math.max(ranks, Number(f[1]) || 0); continue; }
    if (format === 'alog') {
      if (!ALOG_EVENTS.has(f[0])) continue;
      see(f[1]);
      if (f[0] === '-101' || f[0] === '-102') see(f[3]);
    } else {
      see(f[0]);
      if (f[1] === 'send' || f[1] === 'recv') see(f[2]);
    }
  }
  return ranks;
}

/** The rank of a time-independent text whose every action line is of one rank, else null. */
export function singleRank(text) {
  let rank = null;
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[0] === '' || f[0].startsWith('#')) continue;
    const m = /^(?:p|rank)?(\d+)$/.exec(f[0]);
    if (!m || (rank !== null && Number(m[1]) !== rank)) return null;
    rank = Number(m[1]);
  }
  return rank;
}

/** Most nodes a platform built for an imported trace gets (the engine's limit is 64). */
const MAX_IMPORTED_NODES = 64;
/** Most ranks of a trace (the engine's limit): past 64 ranks the built nodes get several cores. */
const MAX_IMPORTED_RANKS = 1024;
/** Cores of a scenario's nodes in all (`cores` defaults to 1). */
const coresOf = (nodes) => nodes.reduce((s, n) => s + (Number.isInteger(n?.cores) && n.cores > 0 ? n.cores : 1), 0);
/** The link of every pair of a platform built for an imported trace: 100 us + 10 ns per byte. */
const DEFAULT_LINK = '{"a0": 0.0001, "a1": 1e-8}';

/**
 * A trace scenario text for a dropped trace. With a trace scenario as `base` that has nodes for
 * every rank, only the trace changes (it replaces `trace` or `generate`; every other byte stays;
 * one rank's time-independent file replaces that rank's text when the base keeps one per rank);
 * otherwise a new scenario: the base's search settings and reference rate kept, one node of
 * ratio 1 per rank and the same link between every pair. Measured times are dropped: they were
 * measured for the program traced before.
 */
function traceScenario(base, text, fileName, format) {
  const ranks = Math.min(MAX_IMPORTED_RANKS, Math.max(1, traceRanks(text, format)));
  return scenarioFor(base, JSON.stringify({ format, text }), ranks, fileName, format, text);
}

/**
 * The scenario replaying the trace `literal` (the "trace" object's JSON) of `ranks` ranks: the
 * current trace scenario `base` with its trace replaced when its nodes' cores suffice, else a new
 * scenario with `ranks` nodes of ratio 1 (at most 64, with as many cores each as needed beyond).
 * `text`: the file's text when it is inside the literal.
 */
function scenarioFor(base, literal, ranks, fileName, format, text = null) {
  const baseNodes = base === null ? undefined : valueAt(base, 'nodes');
  if (Array.isArray(baseNodes) && coresOf(baseNodes) >= ranks) {
    // one rank's file of a time-independent trace kept as one file per rank: that file replaced
    const own = format === 'ti' && text !== null ? singleRank(text) : null;
    const cur = own === null ? undefined : valueAt(base, 'trace');
    if (cur?.format === 'ti' && Array.isArray(cur.files) && own < cur.files.length) {
      const files = cur.files.slice();
      files[own] = text;
      literal = JSON.stringify({ format, files });
    }
    // measured times belong to the program traced before: they go with it
    const kept = setLiteral(setLiteral(base, 'generate', undefined), 'measured', undefined);
    return setLiteral(kept, 'trace', literal);
  }
  const count = Math.min(MAX_IMPORTED_NODES, ranks);
  const per = Math.ceil(ranks / count);
  const nodes = Array.from({ length: count }, (_, i) => `{"name": "node${i}", "ratio": 1${per > 1 ? `, "cores": ${per}` : ''}}`);
  const fields = ['"version": 1', '"engine": "trace"', `"name": ${JSON.stringify(`${fileName} (${FORMAT_NAMES[format]})`)}`,
    `"description": ${JSON.stringify(`The trace ${fileName} replayed on ${count} nodes of ratio 1${per > 1 ? ` with ${per} cores each` : ''} joined by identical links: give each node its ratio and each pair its link (or samples) to rank the assignments.`)}`];
  for (const k of ['seed', 'referenceRate', 'search']) {
    const v = base === null ? undefined : literalAt(base, k);
    if (v !== undefined) fields.push(`"${k}": ${v}`);
  }
  fields.push(`"nodes": [${nodes.join(', ')}]`, `"defaultLink": ${DEFAULT_LINK}`, `"trace": ${literal}`);
  return `{\n  ${fields.join(',\n  ')}\n}\n`;
}

const FORMAT_NAMES = { alog: 'MPE ALOG', ti: 'SimGrid time-independent', text: 'trace text' };

export const importers = [{
  id: 'trace',
  label: 'MPI trace (MPE ALOG, SimGrid time-independent, trace text)',
  extensions: ['.alog', '.ti'],
  sniff: (text) => traceFormat(text) !== null,
  attaches: 'trace',
  /**
   * A time-independent trace too large for the scenario, or an SMPI index with its rank files:
   * read in a worker and attached (src/attach.rs), named by "attached" and pinned by "digest".
   */
  attach(base, name, summary) {
    const ranks = Math.min(MAX_IMPORTED_RANKS, Math.max(1, summary.ranks));
    let named = null;
    try { named = JSON.parse(base)?.trace?.attached ?? null; } catch { named = null; }
    if (base !== null && named === name) return base;
    return scenarioFor(base, JSON.stringify({ format: 'ti', attached: name, digest: summary.digest }), ranks, name, 'ti');
  },
  scenario(base, text, fileName) {
    const format = traceFormat(text, fileName);
    // a file taken by its extension but not recognised: ALOG for .alog, else time-independent;
    // the engine then names the first line it cannot read
    return traceScenario(base, text, fileName, format ?? (String(fileName).toLowerCase().endsWith('.alog') ? 'alog' : 'ti'));
  },
}];
