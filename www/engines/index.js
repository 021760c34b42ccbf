// Engine id → its view: {draw(host, report) → handle, table(host, report), csv(report) → [{name, text}]}.
// A new engine plugs in with one file beside this one and one line here.
import * as allocation from './allocation.js';
import * as generic from './generic.js';

export const VIEWS = {
  allocation,
};

export function viewFor(engineId) {
  return VIEWS[engineId] || generic;
}
