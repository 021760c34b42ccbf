// Engine id → its view in the page: {draw(host, view) → handle, table(host, view)}, drawn from the
// bounded view that data.js (in the workers) makes of the report, where the CSV exports are built too.
// A new engine plugs in with a view file and a data file beside this one, and one line here and in data.js.
import * as allocation from './allocation.js';
import * as generic from './generic.js';
import * as partition from './partition.js';
import * as moldable from './moldable.js';
import * as place from './place.js';
import * as select from './select.js';
import * as trace from './trace.js';

export const VIEWS = {
  allocation,
  partition,
  select,
  moldable,
  place,
  trace,
};

export function viewFor(engineId) {
  return VIEWS[engineId] || generic;
}
