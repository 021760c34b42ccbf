// The selection engine's view: the T(P) curve with its terms stacked and the chosen set, the
// reservation protocol's timeline with a scrubber, the all-to-all layouts; tables below.
import { el, formatValue, formatCount } from '../dom.js';
import { drawLegend, PALETTE, jobColor } from '../draw/common.js';
import { TERMS, CHOSEN_COLOR, BAND_COLOR, LOST_COLOR, drawCurve, drawTimeline, drawLayoutBars, formatMs } from '../draw/select.js';
import { EVENT_KINDS } from './select-data.js';

/** The page re-runs this engine as the user types (each run takes milliseconds). */
export const LIVE = true;

const CURVE_H = 320;          // px
const MAX_FIGURE_W = 1100;    // px
const MIN_FIGURE_W = 320;     // px
const MAX_STATION_LANES = 32; // stations drawn as their own lane; the rest share one
const PLAY_STEPS = 200;       // a playback crosses the whole time in this many frames
const PLAY_FPS = 30;
const ROWS_SHOWN = 500;
const STATION_ROWS_SHOWN = 100; // the table is rebuilt at each keystroke's re-run
/** Time windows of the timeline: [ticks shown before the cursor (0: the whole run), label]. */
const WINDOWS = [[0, 'whole run'], [50, 'last 50 ticks'], [200, 'last 200 ticks'], [1000, 'last 1,000 ticks']];

/** Station names shown in a sentence; longer selections are counted, not listed. */
const MAX_NAMES_SHOWN = 16;

/** Names as the source writes them: consecutive numbered names as ranges ("W1-W7"); at most
 *  MAX_NAMES_SHOWN groups, then how many stations there are in all. */
export function nameRanges(names) {
  const groups = nameGroups(names);
  return groups.length <= MAX_NAMES_SHOWN ? groups.join(', ')
    : `${groups.slice(0, MAX_NAMES_SHOWN).join(', ')}, … (${formatCount(names.length)} stations; the stations table marks them all)`;
}

function nameGroups(names) {
  const out = [];
  let i = 0;
  while (i < names.length) {
    const m = /^(.*?)(\d+)$/.exec(names[i]);
    let j = i;
    if (m) {
      while (j + 1 < names.length) {
        const n = /^(.*?)(\d+)$/.exec(names[j + 1]);
        if (!n || n[1] !== m[1] || Number(n[2]) !== Number(m[2]) + (j + 1 - i)) break;
        j++;
      }
    }
    out.push(j > i + 1 ? `${names[i]}-${names[j]}` : j === i + 1 ? `${names[i]}, ${names[j]}` : names[i]);
    i = j + 1;
  }
  return out;
}

/** Selection order sorted back into name order for display: by prefix, then number ("W2" before "W10"). */
function sortedNames(names) {
  const keyed = names.map((n) => { const m = /^(.*?)(\d+)$/.exec(n); return m ? [m[1], Number(m[2]), n] : [n, -1, n]; });
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  return keyed.map((k) => k[2]);
}

function workstationSummary(ws) {
  const lines = [];
  if (ws.best) {
    lines.push(el('p', { class: 'select-chosen', 'data-testid': 'chosen-set', dataset: { p: String(ws.best.p), stations: ws.best.stations.join(',') } },
      el('strong', { text: `Chosen: ${nameRanges(sortedNames(ws.best.stations))}` }),
      ` (P = ${ws.best.p}), predicted T = ${formatMs(ws.best.t)}`));
  } else {
    lines.push(el('p', { 'data-testid': 'chosen-set', text: 'No P gives a finite predicted time.' }));
  }
  if (ws.all && ws.lost !== null && ws.lost !== undefined) {
    lines.push(el('p', { 'data-testid': 'lost', dataset: { lost: String(ws.lost) },
      text: ws.lost > 0
        ? `Using every station (P = ${ws.all.p}) would take ${formatMs(ws.all.t)}: ${formatMs(ws.lost)} lost (${formatValue(ws.lostPercent)} % of it).`
        : `Using every station (P = ${ws.all.p}) is the best choice here (${formatMs(ws.all.t)}).` }));
  }
  const u = ws.uncertainty;
  if (u) {
    const parts = [];
    if (u.minUpper) parts.push(`best worst case: ${nameRanges(sortedNames(u.minUpper.stations))} (P = ${u.minUpper.p}, at most ${formatMs(u.minUpper.t)})`);
    if (u.minRegret) parts.push(`least regret: P = ${u.minRegret.p} (at most ${formatMs(u.minRegret.t)} slower than the best for any loads in the ranges)`);
    if (parts.length) lines.push(el('p', { 'data-testid': 'band-choice', text: `Loads given as ranges: ${parts.join('; ')}.` }));
  }
  const ref = ws.reference;
  if (ref) {
    const bits = [];
    if (ref.selected) bits.push(`selected ${nameRanges(ref.selected)}`);
    if (ref.computed !== undefined && ref.computed !== null) bits.push(`computed ${ref.computed} s`);
    if (ref.measured !== undefined && ref.measured !== null) bits.push(`measured ${ref.measured} s`);
    if (ref.measuredAll !== undefined && ref.measuredAll !== null) bits.push(`measured on all stations ${ref.measuredAll} s`);
    const ours = ws.best ? `ours: ${nameRanges(sortedNames(ws.best.stations))}, ${formatMs(ws.best.t)}${ws.all ? `; all ${formatMs(ws.all.t)}` : ''}` : '';
    lines.push(el('p', { class: 'note', 'data-testid': 'reference', text: `${ref.label || 'Source'}: ${bits.join(', ')}. ${ours}.` }));
  }
  return lines;
}

/** Which stations get a lane of their own: those in the shown trace, lowest first, at most MAX_STATION_LANES. */
function lanesFor(r) {
  const seen = new Set();
  for (let i = 0; i < r.hold.length; i++) seen.add(r.hold.station[i]);
  for (let i = 0; i < r.trace.length; i++) if (r.trace.station[i] >= 0) seen.add(r.trace.station[i]);
  const all = [...seen].sort((a, b) => a - b);
  const stations = all.slice(0, MAX_STATION_LANES);
  const index = new Map(stations.map((s, k) => [s, k]));
  return { initiators: r.initiators, stations, other: all.length > stations.length, laneOf: (s) => index.get(s) ?? -1 };
}

/** What the protocol looks like at time t: holders, messages in flight, and the events of that tick. */
function protocolState(r, t) {
  const held = new Map();
  for (let i = 0; i < r.hold.length; i++) {
    if (r.hold.from[i] <= t && !(r.hold.to[i] <= t)) held.set(r.hold.tid[i], (held.get(r.hold.tid[i]) || 0) + 1);
  }
  let inFlight = 0, lostSoFar = 0;
  const now = [];
  for (let i = 0; i < r.trace.length; i++) {
    const t0 = r.trace.time[i];
    if (t0 > t) break;
    if (r.trace.local[i]) { if (t0 === t) now.push(`${EVENT_KINDS[r.trace.kind[i]]} ${r.trace.station[i] >= 0 ? `S${r.trace.station[i]}` : `I${r.trace.tid[i]}`}`); continue; }
    if (r.trace.lost[i]) lostSoFar++;
    else if (r.trace.arrive[i] > t) inFlight++;
  }
  const holders = [...held].sort((a, b) => a[0] - b[0]).map(([tid, n]) => `I${tid} holds ${n}`);
  return { holders, inFlight, lostSoFar, now };
}

function reservationHeadline(r) {
  const c = r.checks;
  const done = r.outcomes.filter((o) => o.status === 'done').length;
  const starved = r.outcomes.filter((o) => o.status === 'starved').length;
  const parts = [`${r.mode === 'ordered' ? 'Ordered claims' : 'Broadcast (the paper\'s protocol)'}${r.leaseTimeout ? `, leases of ${r.leaseTimeout} ticks` : ', no leases'}`,
    `${done} of ${r.outcomeCount} jobs done${starved ? `, ${starved} starved` : ''}`,
    c.doubleAllocation ? `DOUBLE ALLOCATION: ${c.violationCount} times` : 'no station ever given to two jobs (checked at every grant)',
    c.stationsHeldAtEnd.length ? `${c.stationsHeldAtEnd.length} station(s) still held at the end` : 'every station free at the end'];
  return parts.join(' · ');
}

/** Draws the report into `host`; returns the handle {canvases, destroy, ...}. */
export function draw(host, envelope) {
  const report = envelope.report || {};
  const ws = report.workstations;
  const rs = report.reservation;
  const lay = report.layouts;
  host.replaceChildren();
  const figs = {};
  const width = () => Math.max(MIN_FIGURE_W, Math.min(MAX_FIGURE_W, host.clientWidth || 800));

  if (ws) {
    const curveCanvas = el('canvas', { 'data-testid': 'select-curve', class: 'select-curve' });
    const legend = el('canvas', { 'data-testid': 'legend', class: 'legend' });
    host.append(el('section', { class: 'select-part', 'data-testid': 'select-workstations' },
      el('h3', { text: 'Workstation selection: predicted time T(P)' }), ...workstationSummary(ws), curveCanvas, legend));
    figs.curve = { canvas: curveCanvas, legend };
  }
  let cursor = 0, tMax = 0, lanes = null;
  const scrubber = el('input', { type: 'range', min: '0', step: '1', 'data-testid': 'timeline-scrubber', 'aria-label': 'protocol time' });
  const caption = el('p', { class: 'caption', 'data-testid': 'timeline-caption' });
  const playBtn = el('button', { type: 'button', class: 'secondary', text: 'Play', 'data-testid': 'timeline-play' });
  // The timeline shows the whole run, or a window of ticks ending at the cursor.
  const zoom = el('select', { 'data-testid': 'timeline-window', 'aria-label': 'time shown' },
    WINDOWS.map(([v, label]) => el('option', { value: String(v), text: label })));
  if (rs) {
    for (let i = 0; i < rs.trace.length; i++) {
      tMax = Math.max(tMax, rs.trace.time[i], Number.isFinite(rs.trace.arrive[i]) ? rs.trace.arrive[i] : 0);
    }
    tMax = Math.max(tMax, rs.endTime || 0, 1);
    cursor = tMax;
    scrubber.max = String(tMax);
    scrubber.value = String(cursor);
    lanes = lanesFor(rs);
    const canvas = el('canvas', { 'data-testid': 'timeline', class: 'timeline' });
    const legend = el('canvas', { 'data-testid': 'timeline-legend', class: 'legend' });
    const notes = [];
    if (rs.eventsLeftOut > 0) notes.push(`The timeline shows the first ${formatCount(rs.eventsInPage)} events; ${formatCount(rs.eventsLeftOut)} more are counted (raise maxEvents to see them; the Jobs CSV has every listed event).`);
    if (lanes.other) notes.push(`Stations after S${lanes.stations[lanes.stations.length - 1]} share the last lane.`);
    host.append(el('section', { class: 'select-part', 'data-testid': 'select-reservation' },
      el('h3', { text: 'Reservation protocol (simulated)' }),
      el('p', { 'data-testid': 'reservation-checks', dataset: { doubleAllocation: String(rs.checks.doubleAllocation) }, text: reservationHeadline(rs) }),
      el('div', { class: 'stream-controls' }, playBtn, el('label', { class: 'slider' }, el('span', { text: 'Time' }), scrubber),
        el('label', {}, 'Show ', zoom)),
      caption, canvas, legend, notes.map((t) => el('p', { class: 'note', text: t }))));
    figs.timeline = { canvas, legend };
  }
  if (lay && lay.ranks?.length) {
    const canvas = el('canvas', { 'data-testid': 'layouts-chart', class: 'layouts-chart' });
    host.append(el('section', { class: 'select-part', 'data-testid': 'select-layouts' }, el('h3', { text: 'All-to-all on multi-core nodes: layouts ranked' }), canvas));
    figs.layouts = { canvas };
  }
  if (report.subsystem) {
    const s = report.subsystem;
    const gap = s.gapPercent === null || s.gapPercent === undefined ? 'exact search not run (N over the exact limit)' : `heuristic ${s.gapPercent.toFixed(3)} % from the exact optimum${s.exact?.proven ? ' (proven)' : ' (search stopped at its budget: best found)'}`;
    host.append(el('section', { class: 'select-part', 'data-testid': 'select-subsystem' },
      el('h3', { text: `All-to-all subsystem: ${s.m} of ${s.machines} machines (${s.objective})` }),
      el('p', { 'data-testid': 'subsystem-summary', text: `${gap}; first-fit (machines 0..${s.m - 1}) ${s.firstFitGapPercent === null || s.firstFitGapPercent === undefined ? '' : `${s.firstFitGapPercent.toFixed(2)} % from it`}. Sets in the tables below.` })));
  }
  if (!ws && !rs && !lay && !report.subsystem) host.append(el('p', { class: 'note', text: 'The scenario asks for nothing: add stations, alltoall or reservation.' }));

  let rafId = 0, playTimer = 0, lastWidth = 0;
  function drawCurvePart() {
    if (!figs.curve) return;
    const w = width();
    const best = ws.best?.p, all = ws.all?.p;
    figs.curve.result = drawCurve(figs.curve.canvas, { width: w, height: CURVE_H, curve: ws.curve,
      marks: { best, all, minUpper: ws.uncertainty?.minUpper?.p, minRegret: ws.uncertainty?.minRegret?.p },
      title: `${ws.preset === 'custom' ? 'Your formulas' : ws.preset === 'pmr' ? 'Matrix multiply (Pipe-Multiply-Roll)' : '1D wave equation'}: T(P) = Ts + Tc + Tr + To/(1 − η)` });
    const entries = TERMS.map((t) => ({ label: t.label, color: t.color }));
    entries.push({ label: 'T(P)', color: PALETTE.text, line: true, lineWidth: 1.5 });
    entries.push({ label: 'chosen P', color: CHOSEN_COLOR, line: true, lineWidth: 2.5 });
    if (ws.curve.hasBand) entries.push({ label: 'band: loads at the ends of their ranges', color: BAND_COLOR, line: true });
    if (ws.curve.allowed.some((a) => !a)) entries.push({ label: '× P not allowed by the model', color: PALETTE.background, border: PALETTE.muted });
    drawLegend(figs.curve.legend, entries, w);
  }
  function drawTimelinePart() {
    if (!figs.timeline) return;
    const w = width();
    const win = Number(zoom.value) || 0;
    const [from, to] = win > 0 && win < tMax ? [Math.max(0, cursor - win), Math.max(win, cursor)] : [0, tMax];
    drawTimeline(figs.timeline.canvas, { width: w, r: rs, lanes, tMin: from, tMax: to, cursor, kinds: EVENT_KINDS });
    const st = protocolState(rs, cursor);
    caption.textContent = `t = ${cursor} of ${tMax}: ${st.holders.length ? st.holders.join(', ') : 'no station held'}; ${st.inFlight} message(s) in flight, ${st.lostSoFar} lost so far${st.now.length ? `; now: ${st.now.slice(0, 6).join(', ')}` : ''}`;
    caption.dataset.time = String(cursor);
  }
  function drawTimelineLegend() {
    if (!figs.timeline) return;
    const entries = [];
    for (let k = 0; k < Math.min(rs.initiators, 6); k++) entries.push({ label: `I${k}`, color: jobColor(k) });
    if (rs.initiators > 6) entries.push({ label: `… ${rs.initiators} initiators (colours repeat)`, heading: true });
    entries.push({ label: 'station held (bar, holder\'s colour)', color: '#BCD4E6' });
    entries.push({ label: 'lost message (dashed, ×)', color: LOST_COLOR, line: true });
    entries.push({ label: '▶ run  ■ done  ↺ too few  ↻ retry  ✕ starved  ! abort  ◆ lease expired', heading: true });
    drawLegend(figs.timeline.legend, entries, width());
  }
  function drawLayoutsPart() {
    if (!figs.layouts) return;
    drawLayoutBars(figs.layouts.canvas, { width: width(), ranks: lay.ranks });
  }
  function drawAll() {
    rafId = 0;
    lastWidth = width();
    drawCurvePart();
    drawTimelinePart();
    drawTimelineLegend();
    drawLayoutsPart();
  }
  const schedule = (fn) => { if (!rafId) rafId = requestAnimationFrame(() => { rafId = 0; fn(); }); };

  function setCursor(t) {
    cursor = Math.max(0, Math.min(tMax, Math.round(Number(t) || 0)));
    scrubber.value = String(cursor);
    schedule(drawTimelinePart);
  }
  function handleScrub() { setCursor(scrubber.value); }
  function handlePlay() {
    if (playTimer) { clearInterval(playTimer); playTimer = 0; playBtn.textContent = 'Play'; return; }
    if (cursor >= tMax) setCursor(0);
    playBtn.textContent = 'Pause';
    const step = Math.max(1, Math.ceil(tMax / PLAY_STEPS));
    playTimer = setInterval(() => {
      if (cursor >= tMax) { handlePlay(); return; }
      setCursor(cursor + step);
    }, 1000 / PLAY_FPS);
  }
  scrubber.addEventListener('input', handleScrub);
  zoom.addEventListener('change', () => schedule(drawTimelinePart));
  playBtn.addEventListener('click', handlePlay);
  const observer = new ResizeObserver(() => { if (Math.abs(width() - lastWidth) > 8) schedule(drawAll); });
  observer.observe(host);
  drawAll();

  return {
    /** Rows of canvases for the PNG export. */
    canvases: () => [figs.curve && [figs.curve.canvas], figs.curve && [figs.curve.legend], figs.timeline && [figs.timeline.canvas],
      figs.timeline && [figs.timeline.legend], figs.layouts && [figs.layouts.canvas]].filter(Boolean),
    get cursor() { return cursor; },
    get tMax() { return tMax; },
    setCursor,
    drawNow: drawAll,
    /** The T(P) values drawn (NaN where absent), for tests. */
    curveValues: () => (ws ? Array.from(ws.curve.t) : []),
    destroy() {
      observer.disconnect();
      if (rafId) cancelAnimationFrame(rafId);
      if (playTimer) clearInterval(playTimer);
    },
  };
}

function tableOf(testid, columns, rows) {
  return el('div', { class: 'table-scroll' }, el('table', { class: 'metrics', 'data-testid': testid },
    el('thead', {}, el('tr', {}, columns.map((c) => el('th', { scope: 'col', text: c })))),
    el('tbody', {}, rows.map((r) => el('tr', {}, r.map((v) => (v instanceof Node ? el('td', {}, v) : el('td', { text: typeof v === 'string' ? v : formatValue(v) }))))))));
}

const fmt = (v) => (typeof v === 'number' ? formatMs(v) : '—');

/** Tables: stations and the curve, protocol outcomes, subsystem sets, layouts. */
export function table(host, envelope) {
  const report = envelope.report || {};
  host.replaceChildren();
  const ws = report.workstations;
  if (ws) {
    host.append(el('h3', { text: 'Stations' }));
    const rank = new Map(ws.order.map((s, k) => [s, k + 1]));
    host.append(tableOf('stations-table', ['Station', 'Load', 'Load range', 'Speed', 'Rate', 'Order', 'Chosen'],
      ws.stations.slice(0, STATION_ROWS_SHOWN).map((s) => [s.name, s.load, s.loadLo === s.loadHi ? '—' : `${s.loadLo} – ${s.loadHi}`, s.speed, s.rate, rank.get(s.index) ?? '—', s.chosen ? 'yes' : ''])));
    if (ws.stationCount > STATION_ROWS_SHOWN) host.append(el('p', { class: 'note', text: `Showing ${formatCount(Math.min(STATION_ROWS_SHOWN, ws.stations.length))} of ${formatCount(ws.stationCount)} stations; the JSON export has them all.` }));
    // The curve's table is built when opened: a keystroke's re-run then rebuilds only what shows.
    const c = ws.curve;
    const curveHost = el('div');
    const details = el('details', { class: 'jobs-details' }, el('summary', { text: ws.previewOf ? `T(P) at ${formatCount(c.length)} of ${formatCount(ws.previewOf.curvePoints)} P (live preview: the complete curve follows when you stop typing)` : `T(P) for every P (${formatCount(c.length)}; the CSV export has them all)` }), curveHost);
    details.addEventListener('toggle', () => {
      if (!details.open || curveHost.firstChild) return;
      const rows = [];
      for (let i = 0; i < Math.min(c.length, ROWS_SHOWN); i++) {
        rows.push([c.p[i], c.allowed[i] ? 'yes' : 'no', fmt(c.ts[i]), fmt(c.tc[i]), fmt(c.tr[i]), fmt(c.to[i]), Number.isFinite(c.pace[i]) ? c.pace[i].toFixed(4) : '—', fmt(c.t[i]),
          c.hasBand ? `${fmt(c.tLo[i])} – ${fmt(c.tHi[i])}` : '—']);
      }
      curveHost.append(tableOf('curve-table', ['P', 'Allowed', 'Ts', 'Tc', 'Tr', 'To (idle)', '1/(1 − η)', 'T(P)', 'Band'], rows));
    });
    host.append(details);
    host.append(el('p', { class: 'note', text: `Formulas: Ts = ${ws.formulas.ts}; Tc = ${ws.formulas.tc}; Tr = ${ws.formulas.tr}; To = ${ws.formulas.to}.` }));
  }
  const rs = report.reservation;
  if (rs) {
    host.append(el('h3', { text: 'Reservation protocol: jobs' }));
    host.append(tableOf('outcomes-table', ['Job', 'Wanted', 'Got', 'Retries', 'Aborts', 'Status', 'Ran from', 'Released at', 'Stations'],
      rs.outcomes.slice(0, ROWS_SHOWN).map((o) => [`I${o.tid}`, o.wanted, o.got, o.retries, o.aborts, o.status, o.occupiedAt, o.finish, o.chosen.length ? `S${o.chosen.slice(0, 12).join(', S')}${o.chosen.length > 12 ? ', …' : ''}` : '—'])));
    const k = rs.counts;
    host.append(tableOf('protocol-counts', ['Message', 'Sent', 'Lost'], k.byKind.map((b) => [b.kind, b.sent, b.lost])));
    const held = rs.checks.stationsHeldAtEnd;
    host.append(el('p', { class: 'note', text: `${formatCount(k.messages)} messages, ${formatCount(k.lost)} lost, ${formatCount(k.steps)} events processed, last at t = ${rs.endTime}${k.timeLimitReached ? ' (stopped at maxTime)' : ''}${k.stepLimitReached ? ' (stopped at maxSteps)' : ''}. Held at the end: ${held.length ? held.slice(0, 20).map((h) => `S${h.station} by I${h.tid}`).join(', ') : 'none'}.` }));
  }
  const s = report.subsystem;
  if (s) {
    host.append(el('h3', { text: 'Subsystem selection' }));
    const row = (name, x, gap) => (x ? [name, x.set.join(' '), x.log10Product.toFixed(4), x.product ?? '—', x.proven === undefined ? '—' : x.proven ? 'yes' : 'no', x.work, gap === null || gap === undefined ? '—' : `${gap.toFixed(3)} %`] : null);
    host.append(tableOf('subsystem-table', ['Method', 'Machines', 'log10 product', 'Product', 'Proven optimal', 'Work', 'Gap to exact'],
      [row('exact (branch and bound)', s.exact, s.exact?.proven ? 0 : null), row('heuristic', s.heuristic, s.gapPercent), row('first-fit', s.firstFit, s.firstFitGapPercent)].filter(Boolean)));
  }
  const lay = report.layouts;
  if (lay) {
    host.append(el('h3', { text: 'All-to-all layouts' }));
    for (const r of lay.ranks) {
      const rows = r.layouts.map((l, i) => [i + 1, l.label, l.nodes, l.perNode.join(' '), l.time, l.steps.map((st) => `${st.layer}${st.cf > 1 ? ` cf ${st.cf}` : ''}`).slice(0, 8).join(', ')]);
      rows.push(['first-fit', r.firstFit.label, r.firstFit.nodes, r.firstFit.perNode.join(' '), r.firstFit.time, r.firstFit.steps.map((st) => st.layer).slice(0, 8).join(', ')]);
      host.append(el('h4', { text: `Rank ${r.rank}: best layout ${r.gainPercent.toFixed(1)} % faster than first-fit${r.reference?.length ? ` (source: ${r.reference.map((x) => `${x.nodes}x${x.ppn}${x.simulated != null ? ` simulated ${x.simulated}` : ''}${x.measured != null ? ` measured ${x.measured}` : ''}`).join('; ')})` : ''}` }));
      host.append(tableOf(`layouts-table-${r.rank}`, ['Rank', 'Layout', 'Nodes', 'Per node', 'Time (µs)', 'Steps (layer crossed)'], rows));
      if (r.layoutCount > r.layouts.length) host.append(el('p', { class: 'note', text: `Showing the fastest ${r.layouts.length} of ${r.layoutCount} layouts; the layouts CSV has them all.` }));
    }
  }
}
