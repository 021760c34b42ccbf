// The moldable report as data, without the DOM (it runs in the workers, and the page uses
// scheduleArrays for the live partial results): the bounded view, the CSV and SWF exports, and
// the SWF and TORQUE importers.
import { csvLine } from '../dom.js';
import { literalAt } from '../jsontext.js';

/**
 * A schedule (rows {job, variant, start, end, ranks, machines: [[first, count], ...]}) as typed
 * arrays: row i is job job[i] in its variant variant[i] (0-based) of ranks[i] ranks, from start[i] to end[i] on the machine runs
 * runFirst[k], runCount[k] for k in runOffset[i] .. runOffset[i + 1].
 */
export function scheduleArrays(rows, transfer = null) {
  const n = rows.length;
  let runs = 0;
  for (const r of rows) runs += r.machines.length;
  const job = new Uint32Array(n), start = new Float64Array(n), end = new Float64Array(n);
  const variant = new Uint32Array(n), ranks = new Uint32Array(n);
  const runOffset = new Uint32Array(n + 1), runFirst = new Uint32Array(runs), runCount = new Uint32Array(runs);
  let k = 0;
  rows.forEach((r, i) => {
    job[i] = r.job; start[i] = r.start; end[i] = r.end; variant[i] = r.variant; ranks[i] = r.ranks;
    runOffset[i] = k;
    for (const [f, c] of r.machines) { runFirst[k] = f; runCount[k] = c; k++; }
  });
  runOffset[n] = k;
  if (transfer) transfer.push(job.buffer, start.buffer, end.buffer, variant.buffer, ranks.buffer, runOffset.buffer, runFirst.buffer, runCount.buffer);
  return { length: n, job, start, end, variant, ranks, runOffset, runFirst, runCount };
}

/**
 * {view, transfer}: the report with each schedule as typed arrays, the GA curve as a Float64Array,
 * and the job list as `jobNames` and `jobVariants` (each job's number of variants).
 */
export function bound(envelope) {
  const transfer = [];
  const r = envelope.report || {};
  const methods = (r.methods || []).map(({ schedule, ...m }) => ({ ...m, schedule: scheduleArrays(schedule || [], transfer) }));
  const names = (r.jobList || []).map((j) => j.name);
  const jobVariants = Uint32Array.from(r.jobList || [], (j) => j.variants.length);
  transfer.push(jobVariants.buffer);
  const report = { ...r, methods, jobNames: names, jobVariants, jobList: undefined };
  if (r.ga) {
    const curve = Float64Array.from(r.ga.curve || []);
    transfer.push(curve.buffer);
    report.ga = { ...r.ga, curve };
  }
  return { view: { ...envelope, report }, transfer };
}

const SUMMARY_COLUMNS = ['method', 'label', 'makespan', 'ratioToBound', 'ratioToOptimum', 'meanRelativeWeight', 'utilization', 'valid'];
const JOB_COLUMNS = ['method', 'job', 'name', 'variant', 'ranks', 'start', 'end', 'machines'];

const runsText = (machines) => machines.map(([f, c]) => (c === 1 ? `${f}` : `${f}-${f + c - 1}`)).join(' ');

/** A number as SWF writes it: whole numbers as they are, others with up to 3 decimals. */
const swfNumber = (v) => (Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000));

/**
 * A schedule in the Standard Workload Format: one line per job, 18 fields (job number, submit
 * = release, wait = start - release, run time, allocated processors, -1, -1, requested
 * processors, requested time = run time, -1, status 1, then -1 for the rest), ordered by start.
 */
export function scheduleSwf(report, method) {
  const m = report.methods.find((x) => x.method === method) || report.methods[report.methods.length - 1];
  const lines = ['; Version: 2.2', `; Computer: placelab moldable schedule, ${m.label}`, `; MaxProcs: ${report.machines}`,
    `; MaxJobs: ${report.jobs}`, `; Note: makespan ${m.makespan}; machine sets are in the CSV export`];
  const rows = [...m.schedule].sort((a, b) => a.start - b.start || a.job - b.job);
  for (const s of rows) {
    const rel = report.jobList[s.job]?.release ?? 0;
    lines.push([s.job + 1, swfNumber(rel), swfNumber(s.start - rel), swfNumber(s.end - s.start), s.ranks, -1, -1, s.ranks,
      swfNumber(s.end - s.start), -1, 1, -1, -1, -1, -1, -1, -1, -1].join(' '));
  }
  return lines.join('\n') + '\n';
}

/**
 * Exports from the complete report: `summary` (one row per method, then the GA's figures),
 * `jobs` (every job of every schedule with its machine runs) and `swf` (the GA's schedule, or
 * the last method's, in the Standard Workload Format).
 */
export function csv(envelope) {
  const r = envelope.report || {};
  const summary = [csvLine(SUMMARY_COLUMNS)];
  for (const m of r.methods) summary.push(csvLine(SUMMARY_COLUMNS.map((k) => m[k] ?? '')));
  summary.push(csvLine(['lowerBound', r.lowerBound.value, 'area', r.lowerBound.area, 'longest', r.lowerBound.longest]));
  if (r.ga) {
    for (const k of ['ffdh', 'bfdh', 'initFfdh', 'initBfdh', 'initBest', 'delta1', 'delta2', 'delta3', 'delta4', 'evaluations']) summary.push(csvLine([`ga.${k}`, r.ga[k]]));
  }
  const jobs = [csvLine(JOB_COLUMNS)];
  for (const m of r.methods) {
    for (const s of m.schedule) jobs.push(csvLine([m.method, s.job, r.jobList[s.job]?.name ?? '', s.variant, s.ranks, s.start, s.end, runsText(s.machines)]));
  }
  return [
    { name: 'summary', text: summary.join('\n') + '\n' },
    { name: 'jobs', text: jobs.join('\n') + '\n' },
    { name: 'swf', file: 'schedule.swf', type: 'text/plain', text: scheduleSwf(r, 'ga') },
  ];
}

/**
 * A moldable scenario text for imported jobs: the base scenario's seed, machines (at least the
 * widest request), efficiency, methods and GA settings kept (copied byte for byte), its job
 * source replaced by `source`.
 */
function scenarioWith(base, name, description, widest, key, literal) {
  const keep = (p) => (base === null ? undefined : literalAt(base, p));
  const fields = ['"version": 1', '"engine": "moldable"', `"name": ${JSON.stringify(name)}`, `"description": ${JSON.stringify(description)}`];
  const seed = keep('seed');
  if (seed !== undefined) fields.push(`"seed": ${seed}`);
  const machines = Number(keep('machines') ?? 0);
  fields.push(`"machines": ${Math.max(Number.isFinite(machines) ? machines : 0, widest, 1)}`);
  for (const k of ['efficiency', 'methods', 'ga']) {
    const v = keep(k);
    if (v !== undefined) fields.push(`"${k}": ${v}`);
  }
  fields.push(`"${key}": ${literal}`);
  return `{\n  ${fields.join(',\n  ')}\n}\n`;
}

/** The first data line of an SWF log has 18 fields; comments start with `;`. */
function sniffSwf(text) {
  for (const line of text.split('\n', 200)) {
    const t = line.trim();
    if (t === '' || t.startsWith(';')) continue;
    return t.split(/\s+/).length === 18;
  }
  return false;
}

/** Default serial fraction of imported SWF logs (Amdahl variants). */
export const SWF_SERIAL_FRACTION = 0.1;

export const importers = [{
  id: 'moldable-swf',
  label: 'SWF workload log (moldable set)',
  extensions: ['.swf'],
  sniff: sniffSwf,
  scenario(base, log, fileName) {
    let widest = 0;
    for (const line of log.split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f.length < 9 || f[0].startsWith(';')) continue;
      const p = Number(f[7]) > 0 ? Number(f[7]) : Number(f[4]); // requested, else allocated
      if (Number.isFinite(p)) widest = Math.max(widest, p);
    }
    return scenarioWith(base, `${fileName} (SWF, moldable)`,
      `Jobs of ${fileName}, a Standard Workload Format log, scheduled as one set; variants by Amdahl's law with serial fraction ${SWF_SERIAL_FRACTION} at 1/4, 1/2, 1 and 2 times each job's processors.`,
      widest, 'swf', JSON.stringify({ text: log, serialFraction: SWF_SERIAL_FRACTION, releases: false }));
  },
  attaches: 'swf',
  /** A log too large to travel inside the scenario: named and pinned by its fingerprint (src/attach.rs). */
  attach(base, fileName, summary) {
    let named = null;
    try { named = JSON.parse(base)?.swf?.file ?? null; } catch { named = null; }
    if (base !== null && named === fileName) return base;
    return scenarioWith(base, `${fileName} (SWF, moldable)`,
      `Jobs of ${fileName}, a Standard Workload Format log attached beside the scenario (its first 20,000 jobs), scheduled as one set; variants by Amdahl's law with serial fraction ${SWF_SERIAL_FRACTION} at 1/4, 1/2, 1 and 2 times each job's processors.`,
      summary.widest, 'swf', JSON.stringify({ file: fileName, digest: summary.digest, serialFraction: SWF_SERIAL_FRACTION, releases: false }));
  },
}, {
  id: 'moldable-torque',
  label: 'TORQUE/Maui -L requests',
  extensions: ['.torque', '.pbs'],
  /** Request text: the first line that is not blank or a comment starts with -L. */
  sniff(text) {
    for (const line of text.split('\n', 200)) {
      const t = line.trim();
      if (t === '' || t.startsWith('#')) continue;
      return t.startsWith('-L');
    }
    return false;
  },
  scenario(base, text, fileName) {
    let widest = 0;
    for (const m of text.matchAll(/nodes\s*=\s*(\d+)(?:\s*@\s*ppn\s*=\s*(\d+))?/g)) widest = Math.max(widest, Number(m[1]) * Number(m[2] ?? 1));
    return scenarioWith(base, `${fileName} (TORQUE requests)`,
      `Jobs of ${fileName}: one job per line, one -L request (nodes, ppn, weight, walltime) per admissible variant.`,
      widest, 'torque', JSON.stringify(text));
  },
}];
