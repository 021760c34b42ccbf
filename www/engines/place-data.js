// The placement report as data, without the DOM (it runs in the workers): the bounded view the page
// draws from (long lists as transferred typed arrays), the CSV exports built from the complete
// report, and what this engine imports: task graphs (METIS files, edge lists) and a job's
// messages (CSV, as `placelab netsim --messages` reads it).
import { csvLine } from '../dom.js';
import { setLiteral, valueAt, NUMBER_LITERAL } from '../jsontext.js';
import { isMetisGraph } from './partition-data.js';

/**
 * The bounded view: system.linkEnds (Uint32Array), switchLevel (Uint32Array); per case taskEdges
 * (Uint32Array); per run hosts (Uint32Array), edgeHops (Uint8Array, hops capped at 255),
 * linkBytes and a messages job's messageEnds (Float64Array); the background jobs' hosts as one
 * Uint32Array `busy`, job k's from busyFrom[k] to busyFrom[k + 1].
 */
export function bound(envelope) {
  const transfer = [];
  const r = envelope.report;
  const sys = { ...r.system, linkEnds: Uint32Array.from(r.system.linkEnds), switchLevel: Uint32Array.from(r.system.switchLevel) };
  transfer.push(sys.linkEnds.buffer, sys.switchLevel.buffer);
  const cases = r.cases.map((c) => {
    const taskEdges = Uint32Array.from(c.taskEdges);
    transfer.push(taskEdges.buffer);
    const runs = c.runs.map((x) => {
      const hosts = Uint32Array.from(x.hosts);
      const edgeHops = Uint8Array.from(x.edgeHops, (h) => Math.min(255, h));
      const linkBytes = Float64Array.from(x.linkBytes);
      transfer.push(hosts.buffer, edgeHops.buffer, linkBytes.buffer);
      if (!x.messageEnds) return { ...x, hosts, edgeHops, linkBytes };
      const messageEnds = Float64Array.from(x.messageEnds);
      transfer.push(messageEnds.buffer);
      return { ...x, hosts, edgeHops, linkBytes, messageEnds };
    });
    return { ...c, taskEdges, runs };
  });
  let busy = new Uint32Array(0), busyFrom = new Uint32Array(1);
  if (r.background) {
    busy = Uint32Array.from(r.background.jobs.flatMap((j) => j.hosts));
    busyFrom = new Uint32Array(r.background.jobs.length + 1);
    r.background.jobs.forEach((j, k) => { busyFrom[k + 1] = busyFrom[k] + j.hosts.length; });
    transfer.push(busy.buffer, busyFrom.buffer);
  }
  const background = r.background ? { fill: r.background.fill, busyHosts: r.background.busyHosts, jobCount: r.background.jobs.length,
    kinds: r.background.jobs.map((j) => `${j.kind}/${j.strategy}`), busy, busyFrom } : null;
  return { view: { ...envelope, report: { ...r, system: sys, cases, background } }, transfer };
}

export const RUN_COLUMNS = ['kind', 'processes', 'messageBytes', 'rounds', 'strategy', 'placed', 'time', 'ratio', 'sourceRatio',
  'hopBytes', 'dilationMax', 'dilationMean', 'congestion', 'batchedEnds', 'reason'];

/**
 * Exports from the complete report: `summary` (the averaged ratio table beside the source's) and
 * `runs` (one row per case and strategy with every figure).
 */
export function csv(envelope) {
  const r = envelope.report;
  const head = ['kind', 'messageBytes', 'cases'];
  for (const s of r.strategies) head.push(`${s}Ratio`, `${s}Source`);
  const summary = [csvLine(head)];
  for (const a of r.averages) {
    const row = [a.kind, a.messageBytes, a.cases];
    r.strategies.forEach((_, k) => row.push(a.ratios[k] ?? '', a.source[k] ?? ''));
    summary.push(csvLine(row));
  }
  const runs = [csvLine(RUN_COLUMNS)];
  for (const c of r.cases) {
    for (const x of c.runs) {
      runs.push(csvLine([c.kind, c.processes, c.messageBytes, c.rounds, x.strategy, x.placed, x.time ?? '', x.ratio ?? '', x.sourceRatio ?? '',
        x.hopBytes, x.dilationMax, x.dilationMean, x.congestion, x.batchedEnds ?? 0, x.reason ?? '']));
    }
  }
  return [
    { name: 'summary', text: summary.join('\n') + '\n' },
    { name: 'runs', text: runs.join('\n') + '\n' },
  ];
}

// ---- importers ----------------------------------------------------------------------------------

/** A new placement scenario around a task graph when the current one is of another engine. */
function freshScenario(name, kind, text) {
  return `{\n  "version": 1,\n  "engine": "place",\n  "name": ${JSON.stringify(name)},\n  "seed": 1,\n  "system": {"kind": "torus2d", "x": 16, "y": 16},\n  "job": {"kind": ${JSON.stringify(kind)}, "rounds": 20, "messageBytes": 1000, "graph": ${JSON.stringify(text)}},\n  "strategies": ["simple", "random", "optimal", "advanced", "mapped"]\n}\n`;
}

/** The current placement scenario with its job read from a file (system, strategies, rounds,
 *  message size kept byte for byte; the sweep, sizes and wrap of built-in jobs dropped). */
function withTaskGraph(base, name, kind, text) {
  if (base === null) return freshScenario(name, kind, text);
  let t = setLiteral(base, 'name', JSON.stringify(name));
  t = setLiteral(t, 'description', undefined);
  t = setLiteral(t, 'sweep', undefined);
  t = setLiteral(t, 'job.processes', undefined);
  t = setLiteral(t, 'job.wrap', undefined);
  t = setLiteral(t, 'job.kind', JSON.stringify(kind));
  t = setLiteral(t, 'job.graph', JSON.stringify(text));
  if (valueAt(t, 'strategies') === undefined) t = setLiteral(t, 'strategies', '["simple", "random", "optimal", "advanced", "mapped"]');
  return t;
}


/**
 * A job's messages from CSV lines `src,dst,bytes[,start]` (tasks from 0; bytes; start: seconds
 * after the round begins), read as `placelab netsim --messages` reads them: `#` comments and blank
 * lines skipped, a first line starting with `src` a header. Returns {literal (the JSON list, each
 * number as written), tasks}; throws `line L, column C: ...` (the page prefixes the file's name).
 */
export function messagesFromCsv(text) {
  const items = [];
  let tasks = 0;
  const lines = text.split('\n');
  for (let ln = 0; ln < lines.length; ln++) {
    const body = lines[ln].replace(/\r$/, '').split('#')[0];
    if (body.trim() === '' || (items.length === 0 && body.trimStart().startsWith('src'))) continue;
    const at = (c) => `line ${ln + 1}, column ${c}`;
    const fields = [];
    let col = 1;
    for (const f of body.split(',')) { fields.push([col + f.length - f.trimStart().length, f.trim()]); col += f.length + 1; }
    if (fields.length < 3 || fields.length > 4) throw new Error(`${at(1)}: expected src,dst,bytes[,start], got ${fields.length} fields`);
    const task = ([c, f]) => {
      if (!/^\d+$/.test(f)) throw new Error(`${at(c)}: task '${f}' is not a whole number >= 0`);
      tasks = Math.max(tasks, Number(f) + 1);
      return f.replace(/^0+(?=\d)/, '');
    };
    const num = ([c, f], what) => {
      if (!NUMBER_LITERAL.test(f) || !(Number(f) >= 0) || !Number.isFinite(Number(f))) throw new Error(`${at(c)}: ${what} '${f}' is not a finite number >= 0`);
      return f;
    };
    const parts = [`"src": ${task(fields[0])}`, `"dst": ${task(fields[1])}`, `"bytes": ${num(fields[2], 'bytes')}`];
    if (fields.length === 4) parts.push(`"start": ${num(fields[3], 'start')}`);
    items.push(`{${parts.join(', ')}}`);
  }
  if (!items.length) throw new Error('no message: lines src,dst,bytes[,start]');
  return { literal: `[\n    ${items.join(',\n    ')}\n  ]`, tasks };
}

/**
 * The current placement scenario (its system, strategies, rounds and model kept; the sweep, the
 * background and a built-in job's fields dropped) or a new one, with the job given as messages.
 * A given placement of another number of tasks goes, and strategy `given` with it.
 */
function withMessages(base, name, literal, tasks) {
  let t = base ?? `{\n  "version": 1,\n  "engine": "place",\n  "seed": 1,\n  "system": {"kind": "torus2d", "x": 16, "y": 16},\n  "job": {"kind": "messages", "rounds": 5},\n  "strategies": ["simple", "random", "advanced", "mapped"]\n}\n`;
  t = setLiteral(t, 'name', JSON.stringify(name));
  t = setLiteral(t, 'description', JSON.stringify(`The messages of ${name.replace(/ \(.*$/, '')} (${tasks} tasks), one way, each round.`));
  for (const path of ['sweep', 'background', 'job.processes', 'job.wrap', 'job.graph', 'job.messageBytes']) t = setLiteral(t, path, undefined);
  t = setLiteral(t, 'job.kind', '"messages"');
  t = setLiteral(t, 'job.messages', literal);
  const placement = valueAt(t, 'placement');
  if (Array.isArray(placement) && placement.length !== tasks) {
    t = setLiteral(t, 'placement', undefined);
    const strategies = valueAt(t, 'strategies');
    if (Array.isArray(strategies) && strategies.includes('given')) {
      const left = strategies.filter((x) => x !== 'given');
      t = setLiteral(t, 'strategies', JSON.stringify(left.length ? left : ['simple', 'advanced', 'mapped']));
    }
  }
  return t;
}

export const importers = [
  {
    id: 'simgridPlatform',
    label: 'SimGrid platform file (XML)',
    extensions: ['.xml'],
    /** A SimGrid platform file: a <platform> element near its start. */
    sniff(text) {
      return /<platform[\s>]/.test(text.slice(0, 4096));
    },
    /** The machine becomes the file (system kind simgrid); the job and strategies stay. */
    scenario(base, text, fileName) {
      const name = `${fileName} (SimGrid platform)`;
      const system = JSON.stringify({ kind: 'simgrid', platform: text });
      if (base === null) {
        return `{\n  "version": 1,\n  "engine": "place",\n  "name": ${JSON.stringify(name)},\n  "seed": 1,\n  "system": ${system},\n  "job": {"kind": "GRID", "processes": 4, "rounds": 20, "messageBytes": 1048576, "wrap": true},\n  "strategies": ["simple", "random", "optimal", "advanced", "mapped"]\n}\n`;
      }
      let t = setLiteral(base, 'name', JSON.stringify(name));
      t = setLiteral(t, 'description', JSON.stringify(`The machine of ${fileName}, a SimGrid platform file (its hosts, links and routes); the job and strategies of the scenario it was opened into.`));
      return setLiteral(t, 'system', system);
    },
  },
  {
    id: 'messagesCsv',
    label: 'messages CSV (src,dst,bytes[,start])',
    extensions: ['.csv'],
    /** CSV lines of three or four numbers, or a header starting with src. */
    sniff(text) {
      const first = text.split('\n', 50).map((l) => l.split('#')[0].trim()).find(Boolean) ?? '';
      return /^src\s*,\s*dst\s*,\s*bytes/i.test(first) || /^\d+\s*,\s*\d+\s*,\s*[\d.eE+]+\s*(,\s*[\d.eE+-]+\s*)?$/.test(first);
    },
    scenario(base, text, fileName) {
      const { literal, tasks } = messagesFromCsv(text);
      return withMessages(base, `${fileName} (messages)`, literal, tasks);
    },
  },
  {
    id: 'metisTaskGraph',
    label: 'METIS task graph',
    extensions: ['.graph', '.metis'],
    /** A METIS file: its header `n m [fmt [ncon]]` is 2 to 4 whole numbers and n vertex lines follow. */
    sniff(text) {
      return isMetisGraph(text);
    },
    scenario(base, text, fileName) {
      return withTaskGraph(base, `${fileName} (METIS task graph)`, 'metis', text);
    },
  },
  {
    id: 'edgeListTaskGraph',
    label: 'task graph edge list (u v [w])',
    extensions: ['.edges', '.el'],
    sniff() { return false; },
    scenario(base, text, fileName) {
      return withTaskGraph(base, `${fileName} (task graph edge list)`, 'edgeList', text);
    },
  },
];
