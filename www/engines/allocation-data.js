// The allocation report as data, without the DOM (it runs in the workers): the bounded view the page
// draws from, and the CSV exports built from the complete report.
import { csvLine } from '../dom.js';
import { setLiteral } from '../jsontext.js';

/** Job rows per run that cross to the page (the jobs table shows 500, tooltips); the drawing gets every job. */
export const JOB_ROWS_IN_PAGE = 500;

export const JOB_COLUMNS = ['id', 'name', 'tasks', 'nodes', 'placed', 'fallback', 'ownedIdle', 'diameter', 'meanHops',
  'closed', 'routers', 'links', 'sharedRouterCount', 'sharedLinkCount', 'arrival', 'start', 'end', 'wait', 'boundedSlowdown'];

export function summaryKeys(report) {
  const keys = [];
  for (const run of report.runs) for (const k of Object.keys(run.summary || {})) if (!keys.includes(k)) keys.push(k);
  return keys;
}

export function jobKeys(report) {
  const present = new Set();
  for (const run of report.runs) for (const j of run.jobs.slice(0, 50)) Object.keys(flatRow(j)).forEach((k) => present.add(k));
  present.delete('nodeRanges');
  const keys = JOB_COLUMNS.filter((k) => present.has(k));
  for (const k of present) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** The contention model's per-job figures as flat columns (tables and CSV). */
function flatContention(row, c) {
  row.runTime = c.runTime; row.stretch = c.stretch; row.slowdown = c.meanSlowdown;
  row.maxSlowdown = c.maxSlowdown; row.commFraction = c.commFraction;
}

/** A job row for the page: id lists become their lengths (what tables and CSV show), no node ranges. */
function pageRow(job) {
  const row = {};
  for (const [k, v] of Object.entries(job)) {
    if (k === 'nodeRanges') continue;
    if (k === 'contention' && v) { flatContention(row, v); continue; }
    row[k] = Array.isArray(v) ? v.length : v;
  }
  return row;
}

/** A complete report's job row with the contention model's figures as flat columns. */
function flatRow(job) {
  if (!job.contention) return job;
  const row = { ...job };
  delete row.contention;
  flatContention(row, job.contention);
  return row;
}

const SEQUENTIAL = 'sequential';
const CLOSED = ['closed-min-best', 'closed-min-paper', 'closed-min-naive'];
const GAIN_EPS = 1e-9;      // run-time differences below this are equal (rounding of event times)
const EP_TOLERANCE = 0.005; // "EP gains nothing": every EP gain under 0.5 %

/**
 * The contention model's per-kernel comparison (report.runs[*].contention.kernels), or null when
 * the report has no such rows: for every NPB kernel, class and size, the paper's Table 1 baseline
 * and each policy's mean run time; the gain of closed-min over sequential
 * (sequential / closed-min - 1); and the paper's four qualitative claims, each judged from these
 * figures: closed-min faster, the gain growing with size, EP gaining nothing, IS gaining most.
 */
export function contentionComparison(report) {
  const runs = report.runs.filter((r) => r.contention?.kernels?.length);
  if (!runs.length) return null;
  const baseline = new Map((report.contention?.profiles || []).map((p) => [`${p.kernel}.${p.class}`, p.paperBaseline]));
  const rowsByKey = new Map();
  for (const run of runs) {
    for (const k of run.contention.kernels) {
      const key = `${k.kernel}.${k.class}.${k.tasks}`;
      if (!rowsByKey.has(key)) rowsByKey.set(key, { kernel: k.kernel, class: k.class, tasks: k.tasks, paper: baseline.get(`${k.kernel}.${k.class}`) ?? null, baseline: k.baseline, runTime: {} });
      rowsByKey.get(key).runTime[run.policy] = k.runTime;
    }
  }
  const rows = [...rowsByKey.values()];
  const policies = runs.map((r) => ({ policy: r.policy, label: r.label || r.policy }));
  const seq = runs.find((r) => r.policy === SEQUENTIAL);
  const closed = CLOSED.map((p) => runs.find((r) => r.policy === p)).find(Boolean);
  if (!seq || !closed) return { rows, policies, claims: [], closedPolicy: null };
  const both = rows.filter((r) => r.runTime[SEQUENTIAL] !== undefined && r.runTime[closed.policy] !== undefined);
  for (const r of both) r.gain = r.runTime[SEQUENTIAL] / r.runTime[closed.policy] - 1;
  const pct = (v) => `${(100 * (Math.abs(v) < 5e-5 ? 0 : v)).toFixed(1)} %`;
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  const claims = [];
  const slower = both.filter((r) => r.gain < -GAIN_EPS), faster = both.filter((r) => r.gain > GAIN_EPS);
  claims.push({ id: 'faster', claim: 'closed-min jobs run faster than sequential ones',
    reproduced: both.length > 0 && slower.length === 0 && faster.length > 0,
    detail: `faster in ${faster.length}, equal in ${both.length - faster.length - slower.length}, slower in ${slower.length} of ${both.length} kernel/class pairs` });
  const classes = [...new Set(both.map((r) => r.class))].sort();
  const byClass = classes.map((c) => ({ c, tasks: both.find((r) => r.class === c).tasks, g: mean(both.filter((r) => r.class === c).map((r) => r.gain)) }));
  claims.push({ id: 'growth', claim: 'the gain grows from 4 to 64 processes',
    reproduced: byClass.length > 1 && byClass.every((x, i) => i === 0 || x.g > byClass[i - 1].g),
    detail: `mean gain ${byClass.map((x) => `${x.c} (${x.tasks}): ${pct(x.g)}`).join(', ')}` });
  const ep = both.filter((r) => r.kernel === 'EP');
  claims.push({ id: 'ep', claim: 'EP gains nothing (no communication)',
    reproduced: ep.length > 0 && ep.every((r) => Math.abs(r.gain) < EP_TOLERANCE),
    detail: ep.length ? `EP gains ${ep.map((r) => pct(r.gain)).join(', ')}` : 'no EP job ran' });
  const kernels = [...new Set(both.map((r) => r.kernel))];
  const byKernel = kernels.map((k) => ({ k, g: mean(both.filter((r) => r.kernel === k).map((r) => r.gain)) })).sort((a, b) => b.g - a.g);
  const is = byKernel.find((x) => x.k === 'IS');
  const top = both.reduce((a, r) => (r.gain > a.gain ? r : a), both[0]);
  claims.push({ id: 'is', claim: 'IS gains most',
    reproduced: !!is && byKernel[0].k === 'IS',
    detail: byKernel.length ? `largest mean gains over the classes: ${byKernel.slice(0, 3).map((x) => `${x.k} ${pct(x.g)}`).join(', ')}${is && !byKernel.slice(0, 3).includes(is) ? `; IS ${pct(is.g)}` : ''}; largest single gain ${top.kernel}.${top.class} ${pct(top.gain)}` : '' });
  return { rows, policies, claims, closedPolicy: closed.policy };
}

/**
 * The bounded view of one run: the first JOB_ROWS_IN_PAGE job rows, and for every job what the
 * drawing needs, in typed arrays: job i holds the node ranges ranges[2k], ranges[2k + 1] (first,
 * count) for offsets[i] <= k < offsets[i + 1], and owns ownedIdle[i] reserved idle nodes; its
 * traffic is traffic.tasks[i] tasks over traffic.routers[i] routers and traffic.links[i] links.
 * Frame id lists become typed arrays (views into one buffer); `running` holds job indices (not
 * ids). `jobCount` counts every job (also rows the engine left out, `omitted.jobRows`);
 * `rowsLeftOut` = jobCount - rows.
 */
function boundRun(run, rowsLimit, transfer) {
  const jobs = run.jobs || [];
  const n = jobs.length;
  const offsets = new Uint32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) { total += (jobs[i].nodeRanges || []).length; offsets[i + 1] = total; }
  const ranges = new Uint32Array(2 * total);
  const ownedIdle = new Uint32Array(n);
  const tasks = new Uint32Array(n), routers = new Uint32Array(n), links = new Uint32Array(n);
  const index = new Map();
  for (let i = 0, k = 0; i < n; i++) {
    const job = jobs[i];
    index.set(job.id, i);
    ownedIdle[i] = job.ownedIdle || 0;
    tasks[i] = job.tasks || 0;
    routers[i] = job.routers || 0;
    links[i] = job.links || 0;
    for (const [first, count] of job.nodeRanges || []) { ranges[k++] = first; ranges[k++] = count; }
  }
  transfer.push(offsets.buffer, ranges.buffer, ownedIdle.buffer, tasks.buffer, routers.buffer, links.buffer);
  // Every id list of every frame is a view into one buffer: one transfer, not three per frame.
  const frameList = run.frames || [];
  let idCount = 0;
  for (const f of frameList) idCount += (f.running || []).length + (f.contendedRouters || []).length + (f.contendedLinks || []).length;
  const flat = new Uint32Array(idCount);
  transfer.push(flat.buffer);
  let at = 0;
  const slice = (from, count) => { at = from + count; return flat.subarray(from, at); };
  const frames = frameList.map((f) => {
    const start = at;
    let m = 0;
    for (const id of f.running || []) { const i = index.get(id); if (i !== undefined) flat[start + m++] = i; }
    const running = slice(start, m);
    const cr = f.contendedRouters || [], cl = f.contendedLinks || [];
    flat.set(cr, at);
    const contendedRouters = slice(at, cr.length);
    flat.set(cl, at);
    const contendedLinks = slice(at, cl.length);
    return { time: f.time, busyNodes: f.busyNodes, running, contendedRouters, contendedLinks };
  });
  const rows = jobs.slice(0, rowsLimit).map(pageRow);
  const engineLeftOut = Number(run.omitted?.jobRows) || 0;
  const out = { ...run, jobs: rows, frames, placement: { offsets, ranges, ownedIdle }, traffic: { tasks, routers, links } };
  out.jobCount = n + engineLeftOut;
  out.rowsLeftOut = out.jobCount - rows.length;
  return out;
}

/** {view, transfer}: what crosses from the worker to the page for a report envelope. */
export function bound(envelope, rowsLimit = JOB_ROWS_IN_PAGE) {
  const transfer = [];
  const report = envelope.report;
  const view = { ...envelope, report: { ...report, runs: report.runs.map((r) => boundRun(r, rowsLimit, transfer)) } };
  return { view, transfer };
}

/** CSV exports from the complete report: the summary table and every job of every policy. */
export function csv(envelope) {
  const report = envelope.report;
  const runs = report.runs;
  const summary = [csvLine(['metric', ...runs.map((r) => r.policy)])];
  for (const k of summaryKeys(report)) summary.push(csvLine([k, ...runs.map((r) => r.summary?.[k] ?? '')]));
  const keys = jobKeys(report);
  const jobs = [csvLine(['policy', ...keys])];
  for (const r of runs) for (const j of r.jobs.map(flatRow)) jobs.push(csvLine([r.policy, ...keys.map((k) => j[k])]));
  return [
    { name: 'summary', text: summary.join('\n') + '\n' },
    { name: 'jobs', text: jobs.join('\n') + '\n' },
  ];
}

/**
 * Files this engine imports (see engines/data.js): a Slurm topology.conf becomes the current
 * scenario's machine; a Standard Workload Format log replays as the
 * current allocation scenario's workload (its machine kept), FCFS with EASY backfilling. A small
 * log travels inside the scenario (`swf`, so a link carries it); a large one is attached
 * (`swfFile` and its fingerprint `swfDigest`: a link then needs the same file chosen again).
 */
export const importers = [{
  id: 'topology-conf',
  label: 'Slurm topology.conf',
  extensions: ['.conf'],
  /** Slurm's topology/tree file: every line that is not blank or a comment starts with SwitchName=. */
  sniff(text) {
    const lines = text.split('\n', 200).map((l) => l.split('#')[0].trim()).filter(Boolean);
    return lines.length > 0 && lines.every((l) => /^switchname\s*=/i.test(l));
  },
  /** The machine becomes the file's tree (system kind slurmTopology); policies and workload stay. */
  scenario(base, conf, fileName) {
    if (base === null) throw new Error('a topology.conf is the machine of an allocation scenario: pick an allocation example first');
    let text = setLiteral(base, 'name', JSON.stringify(`${fileName} (Slurm topology.conf)`));
    text = setLiteral(text, 'description', JSON.stringify(`The machine of ${fileName}, a Slurm topology.conf (its switches and named nodes); the policies and workload of the scenario it was opened into.`));
    return setLiteral(text, 'system', JSON.stringify({ kind: 'slurmTopology', topologyConf: conf }));
  },
}, {
  id: 'swf',
  label: 'SWF workload log',
  extensions: ['.swf'],
  /** An SWF log: comment lines start with `;`, the first data line has 18 fields. */
  sniff(text) {
    for (const line of text.split('\n', 200)) {
      const t = line.trim();
      if (t === '' || t.startsWith(';')) continue;
      return t.split(/\s+/).length === 18;
    }
    return false;
  },
  scenario(base, log, fileName) {
    if (base === null) throw new Error('an SWF log replays on the allocation engine: pick an allocation example first');
    let text = setLiteral(base, 'name', JSON.stringify(`${fileName} (SWF log)`));
    text = setLiteral(text, 'description', JSON.stringify(`Jobs of ${fileName}, a Standard Workload Format log, replayed FCFS with EASY backfilling.`));
    return setLiteral(text, 'workload', JSON.stringify({ kind: 'swf', backfill: 'easy', swf: log }));
  },
  attaches: 'swf',
  attach(base, fileName, summary) {
    if (base === null) throw new Error('an SWF log replays on the allocation engine: pick an allocation example first');
    // a scenario (e.g. from a link) that already names this file keeps every field: the run checks the fingerprint
    let named = null;
    try { named = JSON.parse(base)?.workload?.swfFile ?? null; } catch { named = null; }
    if (named === fileName) return base;
    let text = setLiteral(base, 'name', JSON.stringify(`${fileName} (SWF log)`));
    const jobs = summary.jobs + summary.beyond;
    text = setLiteral(text, 'description', JSON.stringify(`Jobs of ${fileName} (${jobs} jobs${summary.computer ? `, ${summary.computer}` : ''}), a Standard Workload Format log attached beside the scenario, replayed FCFS with EASY backfilling: the first 10,000 jobs (raise workload.maxJobs up to 100,000).`));
    return setLiteral(text, 'workload', JSON.stringify({ kind: 'swf', backfill: 'easy', swfFile: fileName, swfDigest: summary.digest, maxJobs: 10000 }));
  },
}];
