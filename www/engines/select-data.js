// The selection report as data, without the DOM (it runs in the workers): the bounded view the page
// draws from, and the CSV exports built from the complete report.
import { csvLine } from '../dom.js';

/** Station rows that cross to the page (the drawing uses the curve, which always crosses whole). */
export const STATION_ROWS_IN_PAGE = 500;
/** Protocol events that cross to the page (the engine already caps them at `maxEvents`). */
export const EVENT_ROWS_IN_PAGE = 20_000;
/** Holder intervals that cross to the page. */
export const HOLD_ROWS_IN_PAGE = 20_000;
/** Layouts per rank that cross to the page (fastest first). */
export const LAYOUT_ROWS_IN_PAGE = 50;
/** Initiator outcome rows that cross to the page. */
export const OUTCOME_ROWS_IN_PAGE = 1000;

/** Message and local event kinds, in the order of `kinds[k]` in the bounded events. */
export const EVENT_KINDS = ['request', 'reply', 'occupy', 'cancel', 'release', 'claim', 'grant', 'busy',
  'ineligible', 'renew', 'renewAck', 'start', 'retry', 'run', 'done', 'tooFew', 'abort', 'starved', 'expire'];

const num = (v) => (typeof v === 'number' ? v : NaN);

/**
 * The curve as typed arrays, one entry per P (index P - 1): p, allowed (0/1), the four terms,
 * the pace factor on To, T and its band (NaN where absent).
 */
const CURVE_KEYS = ['ts', 'tc', 'tr', 'to', 'pace', 't', 'tLo', 'tHi', 'regret'];

function boundCurve(curve, transfer) {
  const n = curve.length;
  const p = new Uint32Array(n), allowed = new Uint8Array(n);
  const cols = CURVE_KEYS.map(() => new Float64Array(n));
  let hasBand = false;
  for (let i = 0; i < n; i++) {
    const c = curve[i];
    p[i] = c.p;
    allowed[i] = c.allowed ? 1 : 0;
    for (let k = 0; k < CURVE_KEYS.length; k++) cols[k][i] = num(c[CURVE_KEYS[k]]);
    if (typeof c.tLo === 'number') hasBand = true;
  }
  transfer.push(p.buffer, allowed.buffer, ...cols.map((a) => a.buffer));
  const out = { length: n, p, allowed, hasBand };
  CURVE_KEYS.forEach((k, j) => { out[k] = cols[j]; });
  return out;
}

function boundWorkstations(ws, transfer) {
  const { curve, stations, order, ...rest } = ws;
  const chosen = new Set(ws.best?.stations || []);
  return {
    ...rest,
    curve: boundCurve(curve || [], transfer),
    // a live preview keeps the first rows; previewOf has the complete counts
    stationCount: ws.previewOf?.stations ?? stations.length,
    stations: stations.slice(0, STATION_ROWS_IN_PAGE).map((s, i) => ({ ...s, index: i, chosen: chosen.has(s.name) })),
    order: (order || []).slice(0, STATION_ROWS_IN_PAGE),
  };
}

/**
 * The protocol trace as typed arrays: event i was sent at time[i] and arrives at arrive[i] (NaN when
 * lost; equal to time[i] for a local event), of kind EVENT_KINDS[kind[i]]; it goes from an initiator
 * to a station when toStation[i] (station → initiator when 0; local when local[i]), between
 * initiator tid[i] (-1 when none) and station station[i] (-1 when none).
 */
function boundReservation(r, transfer) {
  const ev = (r.events || []).slice(0, EVENT_ROWS_IN_PAGE);
  const n = ev.length;
  const time = new Float64Array(n), arrive = new Float64Array(n);
  const kind = new Uint8Array(n), toStation = new Uint8Array(n), local = new Uint8Array(n), lost = new Uint8Array(n);
  const tid = new Int32Array(n), station = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const e = ev[i];
    time[i] = e.time;
    arrive[i] = e.arrive ?? NaN;
    const k = EVENT_KINDS.indexOf(e.kind);
    kind[i] = k < 0 ? 255 : k;
    local[i] = e.from === e.to ? 1 : 0;
    toStation[i] = !local[i] && String(e.to).startsWith('S') ? 1 : 0;
    lost[i] = e.lost ? 1 : 0;
    tid[i] = e.tid ?? -1;
    station[i] = e.station ?? -1;
  }
  const hs = (r.holds || []).slice(0, HOLD_ROWS_IN_PAGE);
  const m = hs.length;
  const hStation = new Uint32Array(m), hTid = new Uint32Array(m), hFrom = new Float64Array(m), hTo = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    hStation[i] = hs[i].station; hTid[i] = hs[i].tid; hFrom[i] = hs[i].from; hTo[i] = hs[i].to ?? NaN;
  }
  transfer.push(time.buffer, arrive.buffer, kind.buffer, toStation.buffer, local.buffer, lost.buffer, tid.buffer,
    station.buffer, hStation.buffer, hTid.buffer, hFrom.buffer, hTo.buffer);
  const { events, holds, outcomes, ...rest } = r;
  return {
    ...rest,
    eventsInPage: n,
    eventsLeftOut: (r.events || []).length - n + (Number(r.eventsOmitted) || 0),
    trace: { length: n, time, arrive, kind, toStation, local, lost, tid, station },
    holdsInPage: m,
    holdsLeftOut: (r.holds || []).length - m + (Number(r.holdsOmitted) || 0),
    hold: { length: m, station: hStation, tid: hTid, from: hFrom, to: hTo },
    outcomes: (outcomes || []).slice(0, OUTCOME_ROWS_IN_PAGE),
    outcomeCount: (outcomes || []).length,
  };
}

function boundLayouts(l) {
  return {
    ...l,
    ranks: (l.ranks || []).map((r) => ({
      ...r,
      layoutCount: r.layouts.length,
      layouts: r.layouts.slice(0, LAYOUT_ROWS_IN_PAGE),
    })),
  };
}

/** {view, transfer}: what crosses from the worker to the page for a report envelope. */
export function bound(envelope) {
  const transfer = [];
  const r = envelope.report || {};
  const report = {};
  if (r.workstations) report.workstations = boundWorkstations(r.workstations, transfer);
  if (r.subsystem) report.subsystem = r.subsystem;
  if (r.layouts) report.layouts = boundLayouts(r.layouts);
  if (r.reservation) report.reservation = boundReservation(r.reservation, transfer);
  for (const [k, v] of Object.entries(r)) if (!(k in report)) report[k] = v;
  return { view: { ...envelope, report }, transfer };
}

const CURVE_COLUMNS = ['p', 'allowed', 'ts', 'tc', 'tr', 'to', 'pace', 't', 'tLo', 'tHi', 'regret'];
const EVENT_COLUMNS = ['time', 'arrive', 'kind', 'from', 'to', 'tid', 'station', 'lost'];

/**
 * CSV exports from the complete report: `summary` (the T(P) curve), `jobs` (the protocol's
 * events), `outcomes` (per initiator), `layouts` (every layout of every rank) and `subsystem`.
 */
export function csv(envelope) {
  const r = envelope.report || {};
  const parts = [];
  if (r.workstations) {
    const lines = [csvLine(CURVE_COLUMNS)];
    for (const c of r.workstations.curve) lines.push(csvLine(CURVE_COLUMNS.map((k) => c[k] ?? '')));
    parts.push({ name: 'summary', text: lines.join('\n') + '\n' });
  }
  if (r.reservation) {
    const lines = [csvLine(EVENT_COLUMNS)];
    for (const e of r.reservation.events) lines.push(csvLine(EVENT_COLUMNS.map((k) => e[k] ?? '')));
    parts.push({ name: 'jobs', text: lines.join('\n') + '\n' });
    const cols = ['tid', 'wanted', 'got', 'retries', 'aborts', 'status', 'occupiedAt', 'finish', 'chosen'];
    const out = [csvLine(cols)];
    for (const o of r.reservation.outcomes) out.push(csvLine(cols.map((k) => (k === 'chosen' ? o.chosen.join(' ') : o[k] ?? ''))));
    parts.push({ name: 'outcomes', text: out.join('\n') + '\n' });
  }
  if (r.layouts) {
    const cols = ['rank', 'label', 'nodes', 'perNode', 'nodeIds', 'time', 'firstFit'];
    const lines = [csvLine(cols)];
    for (const rk of r.layouts.ranks) {
      for (const l of [...rk.layouts, rk.firstFit]) {
        lines.push(csvLine([rk.rank, l.label, l.nodes, l.perNode.join(' '), l.nodeIds.join(' '), l.time, l === rk.firstFit]));
      }
    }
    parts.push({ name: 'layouts', text: lines.join('\n') + '\n' });
  }
  if (r.subsystem) {
    const s = r.subsystem;
    const cols = ['method', 'set', 'log10Product', 'product', 'proven', 'work', 'gapPercent'];
    const lines = [csvLine(cols)];
    const row = (name, x, gap) => x && lines.push(csvLine([name, x.set.join(' '), x.log10Product, x.product ?? '', x.proven ?? '', x.work, gap ?? '']));
    row('exact', s.exact, 0);
    row('heuristic', s.heuristic, s.gapPercent);
    row('first-fit', s.firstFit, s.firstFitGapPercent);
    parts.push({ name: 'subsystem', text: lines.join('\n') + '\n' });
  }
  return parts;
}
