// The partitioning report as data, without the DOM (it runs in the workers): the bounded view the
// page draws from, the CSV exports and part files built from the complete report, and the files
// this engine imports (METIS graphs, edge lists, coordinates).
import { csvLine } from '../dom.js';
import { setLiteral, valueAt } from '../jsontext.js';

/** Drawn segments per panel: beyond this many edges, uncut edges are left out of the drawing. */
export const MAX_SEGMENTS = 30_000;

export const METHOD_COLUMNS = ['method', 'edgeCut', 'cutEdges', 'commVolume', 'imbalance', 'balanced',
  'boundaryVertices', 'emptyParts', 'levels'];

/**
 * The bounded view: the report without its long lists, which cross as typed arrays (transferred):
 * drawing.xy (Uint16Array, x0 y0 x1 y1 ... from 0 to 10,000), drawing.edges (Uint32Array, u v
 * pairs), and per run `part` (Uint16Array, or null when the report left it out) and `cut`
 * (Uint8Array, 1 for each drawn edge whose ends are in different parts), `levels` as a count
 * plus the list, and the quotient graph's xy/edges as typed arrays.
 */
export function bound(envelope) {
  const transfer = [];
  const report = envelope.report;
  const d = report.drawing || { kind: 'quotient', xy: [], edges: [] };
  const xy = Uint16Array.from(d.xy || []);
  const edges = Uint32Array.from(d.edges || []);
  transfer.push(xy.buffer, edges.buffer);
  const runs = report.runs.map((r) => {
    const part = r.part ? Uint16Array.from(r.part) : null;
    const m = edges.length / 2;
    const cut = new Uint8Array(part ? m : 0);
    if (part) for (let e = 0; e < m; e++) cut[e] = part[edges[2 * e]] !== part[edges[2 * e + 1]] ? 1 : 0;
    if (part) transfer.push(part.buffer);
    transfer.push(cut.buffer);
    let quotient = null;
    if (r.quotient) {
      quotient = { xy: Uint16Array.from(r.quotient.xy), edges: Float64Array.from(r.quotient.edges), omittedEdges: r.quotient.omittedEdges,
        tree: Float64Array.from(r.quotient.tree || []) };
      transfer.push(quotient.xy.buffer, quotient.edges.buffer, quotient.tree.buffer);
    }
    return { ...r, part, cut, quotient };
  });
  const view = { ...envelope, report: { ...report, drawing: { kind: d.kind, xy, edges }, runs } };
  return { view, transfer };
}

/** A method's part file as gpmetis writes it: one part id per line, vertex 1 first. */
export function partFile(part) {
  let out = '';
  const CHUNK = 65536;
  for (let i = 0; i < part.length; i += CHUNK) out += part.slice(i, i + CHUNK).join('\n') + '\n';
  return out;
}

/**
 * Exports from the complete report: `summary` (one row per method), `parts` (each part's target and
 * weight under each method), and `part-<method>` (the gpmetis part file, named `<name>.part.<k>`).
 */
export function csv(envelope) {
  const report = envelope.report;
  const runs = report.runs;
  const summary = [csvLine(METHOD_COLUMNS)];
  for (const r of runs) summary.push(csvLine(METHOD_COLUMNS.map((k) => (k === 'levels' ? (r.levels || []).join(' ') : r[k]))));
  const total = report.graph.totalVertexWeight;
  const parts = [csvLine(['part', 'targetFraction', 'targetWeight', ...runs.map((r) => `${r.method}Weight`)])];
  for (let p = 0; p < report.k; p++) {
    parts.push(csvLine([p, report.targets[p], report.targets[p] * total, ...runs.map((r) => r.partWeights[p])]));
  }
  const out = [
    { name: 'summary', text: summary.join('\n') + '\n' },
    { name: 'parts', text: parts.join('\n') + '\n' },
  ];
  for (const r of runs) {
    if (r.part) out.push({ name: `part-${r.method}`, text: partFile(r.part), type: 'text/plain', file: `${r.method}.part.${report.k}` });
  }
  return out;
}

// ---- importers ----------------------------------------------------------------------------------

/** A new partitioning scenario around `graph` when the current one is of another engine. */
function freshScenario(name, graph) {
  return `{\n  "version": 1,\n  "engine": "partition",\n  "name": ${JSON.stringify(name)},\n  "seed": 1,\n  "graph": ${JSON.stringify(graph)},\n  "k": 8,\n  "methods": ["kway", "rb", "linear"]\n}\n`;
}

/** The current partitioning scenario with `graph` replaced (its other fields kept byte for byte). */
function withGraph(base, name, graph) {
  if (base === null) return freshScenario(name, graph);
  let text = setLiteral(base, 'name', JSON.stringify(name));
  text = setLiteral(text, 'description', undefined);
  return setLiteral(text, 'graph', JSON.stringify(graph));
}

/** Data lines of a text file (no comments, no blank lines), up to `limit`. */
function dataLines(text, comment, limit) {
  const out = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '' || comment.some((c) => t.startsWith(c))) continue;
    out.push(t);
    if (out.length >= limit) break;
  }
  return out;
}

const WHOLE = /^\d+$/;

/** A METIS graph file: its header `n m [fmt [ncon]]` is 2 to 4 whole numbers and n vertex lines
 *  follow (`%` comments aside). Used by this engine's and the placement engine's importers. */
export function isMetisGraph(text) {
  const lines = text.split('\n').filter((l) => !l.trimStart().startsWith('%'));
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  const head = (lines[0] || '').trim().split(/\s+/);
  return head.length >= 2 && head.length <= 4 && head.every((t) => WHOLE.test(t)) && Number(head[0]) === lines.length - 1;
}

export const importers = [
  {
    id: 'metis',
    label: 'METIS graph file',
    extensions: ['.graph', '.metis', '.chaco'],
    /** A METIS file: its header `n m [fmt [ncon]]` is 2 to 4 whole numbers and n vertex lines follow. */
    sniff(text) {
      return isMetisGraph(text);
    },
    scenario(base, text, fileName) {
      return withGraph(base, `${fileName} (METIS graph)`, { kind: 'metis', text });
    },
  },
  {
    id: 'edgeList',
    label: 'edge list (u v [w])',
    extensions: ['.edges', '.edgelist', '.el'],
    /** An edge list: every data line is 2 or 3 whole numbers. */
    sniff(text) {
      const lines = dataLines(text, ['#', '%'], 200);
      return lines.length > 0 && lines.every((l) => { const f = l.split(/\s+/); return (f.length === 2 || f.length === 3) && f.every((t) => WHOLE.test(t)); });
    },
    scenario(base, text, fileName) {
      return withGraph(base, `${fileName} (edge list)`, { kind: 'edgeList', text });
    },
  },
  {
    id: 'xyz',
    label: 'coordinates (.xyz)',
    extensions: ['.xyz'],
    /** Coordinates are taken by extension only (any list of numbers would look like them). */
    sniff() { return false; },
    scenario(base, text) {
      const kind = base === null ? undefined : valueAt(base, 'graph.kind');
      if (kind !== 'metis' && kind !== 'edgeList') {
        throw new Error('coordinates draw a graph read from a file: open the METIS graph or edge list first, then its .xyz file');
      }
      return setLiteral(base, 'graph.coordinates', JSON.stringify(text));
    },
  },
];
