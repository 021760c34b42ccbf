// An island worker of the moldable GA's pool (gapool.js): hosts some islands of one scenario
// (wasm MoldableIsland, the step API of src/moldable/parallel.rs) and answers the pool's messages:
//   {type: 'init', scenario, islands: [i, ...]}        → {type: 'stepped', islands: [...]}
//   {type: 'step', to, from, inject, exchange, partial} → {type: 'stepped', islands: [...]}
//   {type: 'results', inject}                           → {type: 'results', results: [[i, words], ...]}
// where each stepped island is {index, makespan, curve (cycles from..to), migrant (when
// `exchange`), partial (the JSON of its best schedule, for the worker's best island when
// `partial`)}; `inject` is [[island, words], ...], applied before running. Errors reply
// {type: 'error', message}. The pool terminates this worker when the run ends or is stopped.
import init, { MoldableIsland } from './pkg/placelab.js';

const ready = init();
let islands = [];

function report({ from = 0, exchange = false, partial = null }) {
  const transfer = [];
  const out = islands.map(({ index, island }) => {
    const curve = island.curve_from(from);
    transfer.push(curve.buffer);
    const migrant = exchange ? island.migrant() : null;
    if (migrant) transfer.push(migrant.buffer);
    return { index, makespan: island.makespan(), curve, migrant, partial: null };
  });
  if (partial !== null && out.length > 0) {
    let b = 0;
    for (let k = 1; k < out.length; k++) if (out[k].makespan < out[b].makespan) b = k;
    out[b].partial = islands[b].island.partial(partial, new Float64Array(0));
  }
  postMessage({ type: 'stepped', islands: out }, transfer);
}

function inject(list) {
  for (const [index, words] of list || []) islands.find((x) => x.index === index).island.inject(words);
}

self.onmessage = async ({ data }) => {
  try {
    await ready;
    if (data.type === 'init') {
      islands = data.islands.map((index) => ({ index, island: new MoldableIsland(data.scenario, index) }));
      report({ from: 0 });
    } else if (data.type === 'step') {
      inject(data.inject);
      for (const { island } of islands) island.run_to(data.to);
      report(data);
    } else if (data.type === 'results') {
      inject(data.inject);
      const results = islands.map(({ index, island }) => [index, island.result_words()]);
      postMessage({ type: 'results', results }, results.map(([, w]) => w.buffer));
    }
  } catch (e) {
    postMessage({ type: 'error', message: String(e?.message ?? e) });
  }
};
