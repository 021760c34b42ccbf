// A study worker: hosts the wasm (src/wasm.rs StudyHost, src/study/page.rs). The pool (pool.js)
// starts several to run points; the page keeps one more, the helper, for everything else: the
// point count and admission of a study being edited, the chart model (model.js) of a run or of
// a results file, and the tables of the finished points. Typed protocol: every message has a
// `type` and an `id` that the reply repeats; a failure replies {type: 'error', id, error: {path,
// message}}; an unknown type is logged and answered with an error.
//   {type: 'study', id, study, attachments}
//                                     → {type: 'outline', id, outline}: parse (and host) a study,
//                                       the files its scenarios name attached first (attach.js)
//   {type: 'admit', id, maxPoints}    → {type: 'admitted', id, order}: refused over the limit, or
//                                       when the engine refuses every point; `order`: every
//                                       point, the costliest estimated first (the run's order)
//   {type: 'points', id, is}          → {type: 'records', id, records: [{point, line, csv}], ms}:
//                                       run the points `is`, taking `ms` in all
//   {type: 'model', id, outline}      → {type: 'snapshot', id, snapshot}: an empty chart model
//   {type: 'add', id, csv}            → {type: 'snapshot', id, snapshot}: tidy CSV rows added
//   {type: 'load', id, file}          → {type: 'snapshot', id, snapshot, columns, rows}: a results file
//   {type: 'tables', id, lines}       → {type: 'tables', id, tables}: the four tables
import init, { StudyHost, SwfAttach, TraceAttach, study_summaries as summaries, study_tidy_layout as tidyLayout } from '../pkg/placelab.js';
import { createAttacher } from '../attach.js';
import { asError } from '../errors.js';
import { createModel, parseCsv, csvValue, readTidy } from './model.js';

const ready = init();
let host = null;   // the StudyHost of the last `study` message
let model = null;  // the chart model of the current run or file
let columns = null;

const attachAll = createAttacher({ SwfAttach, TraceAttach });
const summarize = (lists) => JSON.parse(summaries(JSON.stringify(lists)));
const MAX_FILE_BYTES = 64 * 1024 * 1024;

const HANDLERS = {
  async study({ study, attachments = [] }) {
    await attachAll(attachments);
    host?.free();
    host = null;
    host = new StudyHost(study);
    return { type: 'outline', outline: JSON.parse(host.outline()) };
  },
  admit({ maxPoints }) {
    return { type: 'admitted', order: Array.from(host.admit(maxPoints)) };
  },
  points({ is }) {
    const t0 = performance.now();
    const records = is.map((i) => JSON.parse(host.point(i)));
    return { type: 'records', records, ms: performance.now() - t0 };
  },
  model({ outline }) {
    columns = outline.tidyColumns;
    const layout = { axes: outline.axes.map((a) => a.path), groups: outline.groups, metrics: outline.metrics };
    model = createModel({ layout, columns, summarize, axisValues: outline.axes.map((a) => a.values) });
    return { type: 'snapshot', snapshot: model.snapshot() };
  },
  add({ csv }) {
    model.add(parseCsv(csv).map((r) => r.map(csvValue)));
    return { type: 'snapshot', snapshot: model.snapshot() };
  },
  async load({ file }) {
    if (file.size > MAX_FILE_BYTES) throw new Error(`${file.name}: ${file.size} bytes; the page opens results files of at most ${MAX_FILE_BYTES} bytes`);
    const table = readTidy(await file.text(), file.name);
    const layout = JSON.parse(tidyLayout(JSON.stringify(table.columns)));
    columns = table.columns;
    model = createModel({ layout, columns, summarize });
    model.add(table.rows);
    return { type: 'snapshot', snapshot: model.snapshot(), columns, rows: table.rows.slice(0, 200) };
  },
  tables({ lines }) {
    return { type: 'tables', tables: JSON.parse(host.tables(lines)) };
  },
};

self.onmessage = async ({ data }) => {
  const id = data?.id ?? null;
  try {
    await ready;
    const handler = data && Object.hasOwn(HANDLERS, data.type) ? HANDLERS[data.type] : null;
    if (!handler) {
      console.warn('placelab study worker: unknown message type', data?.type);
      postMessage({ type: 'error', id, error: { path: '', message: `unknown message type ${JSON.stringify(data?.type)}`, internal: true } });
      return;
    }
    postMessage({ id, ...(await handler(data)) });
  } catch (e) {
    postMessage({ type: 'error', id, error: asError(e) });
  }
};
