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
  for (const run of report.runs) for (const j of run.jobs.slice(0, 50)) Object.keys(j).forEach((k) => present.add(k));
  present.delete('nodeRanges');
  const keys = JOB_COLUMNS.filter((k) => present.has(k));
  for (const k of present) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** A job row for the page: id lists become their lengths (what tables and CSV show), no node ranges. */
function pageRow(job) {
  const row = {};
  for (const [k, v] of Object.entries(job)) {
    if (k === 'nodeRanges') continue;
    row[k] = Array.isArray(v) ? v.length : v;
  }
  return row;
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
  for (const r of runs) for (const j of r.jobs) jobs.push(csvLine([r.policy, ...keys.map((k) => j[k])]));
  return [
    { name: 'summary', text: summary.join('\n') + '\n' },
    { name: 'jobs', text: jobs.join('\n') + '\n' },
  ];
}

/**
 * Files this engine imports (see engines/data.js): a Standard Workload Format log replays as the
 * current allocation scenario's workload (its machine kept), FCFS with EASY backfilling.
 */
export const importers = [{
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
}];
