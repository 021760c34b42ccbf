// The Study panel's pure parts, without a browser: the form as a study document (www/study/spec.js:
// the base inserted as written, values parsed by the field's kind, every refusal a sentence) and
// the reading of results files (www/study/model.js: RFC 4180 CSV as the CLI writes it, JSON Lines)
// into the chart model's cells, each holding its values in replicate order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { studyText, parseValues, axisDoc, axisRow, prefill } from '../../www/study/spec.js';
import { parseCsv, readTidy, createModel } from '../../www/study/model.js';
import { REPO } from '../lib/server.mjs';

const FIXTURE = path.join(REPO, 'e2e', 'fixtures', 'study-interarrival');

describe('study spec', () => {
  it('writes the base as written and the rest as the form says', () => {
    const base = '{"version":1,"engine":"allocation","seed":18446744073709551615,"x":1.0}';
    const { text, doc } = studyText({
      name: 'n', base, rows: [{ path: 'system.width', mode: 'values', values: '4, 8' }, { path: 'workload.meanInterarrival', mode: 'count', from: '1', to: '8', count: '4', scale: 'log' }],
      replicates: { count: '3', baseSeed: '18446744073709551615' }, metrics: ['a.b', '', ' c '],
    }, (p) => (p === 'system.width' ? 'int' : 'number'));
    assert.equal(text, `{"version":1,"name":"n","base":${base},"axes":[{"path":"system.width","values":[4,8]},{"path":"workload.meanInterarrival","from":1,"to":8,"count":4,"scale":"log"}],"replicates":{"count":3,"baseSeed":18446744073709551615},"metrics":["a.b","c"]}`);
    assert.deepEqual(doc.replicates, { count: 3, baseSeed: '18446744073709551615' });
    assert.deepEqual(doc.axes.map(axisRow), [
      { path: 'system.width', mode: 'values', values: '4, 8' },
      { path: 'workload.meanInterarrival', mode: 'count', from: '1', to: '8', count: '4', scale: 'log' },
    ]);
  });

  it('parses values by the field\'s kind and refuses with a sentence', () => {
    assert.deepEqual(parseValues('uniform, logUniform', 'enum', 'k'), ['uniform', 'logUniform']);
    assert.deepEqual(parseValues('true,false', 'bool', 'k'), [true, false]);
    assert.deepEqual(parseValues('[["a","b"],["c"]]', 'multi', 'policies'), [['a', 'b'], ['c']]);
    assert.throws(() => parseValues('4, x', 'int', 'system.width'), { message: 'axis system.width: "x" is not a number' });
    assert.throws(() => parseValues('4,,8', 'int', 'w'), { message: 'axis w: value 2 is empty' });
    assert.throws(() => parseValues('', 'int', 'w'), { message: 'axis w: give at least one value' });
    assert.throws(() => parseValues('yes', 'bool', 'b'), { message: 'axis b: "yes" is not true or false' });
    assert.throws(() => axisDoc({ path: 'w', mode: 'step', from: '1', to: 'z', step: '1' }, 'int'), { message: 'axis w: "to" must be a number (not "z")' });
    const base = { name: '', base: '{}', rows: [], metrics: ['m'] };
    assert.throws(() => studyText({ ...base, replicates: { count: '0', baseSeed: '1' } }, () => 'int'), /the count must be a whole number from 1/);
    assert.throws(() => studyText({ ...base, replicates: { count: '2', baseSeed: '-1' } }, () => 'int'), /the base seed must be a whole number/);
    assert.throws(() => studyText({ ...base, metrics: [' '], replicates: { count: '2', baseSeed: '1' } }, () => 'int'), /metrics: list at least one/);
    assert.throws(() => studyText({ ...base, rows: [{ path: 'a', mode: 'values', values: '1' }, { path: 'a', mode: 'values', values: '2' }], replicates: { count: '2', baseSeed: '1' } }, () => 'int'), { message: 'the field a is on two axes' });
  });

  it('prefills a field from its table: options, a whole-number range, a log range', () => {
    assert.deepEqual(prefill({ path: 'k', kind: 'enum', options: [{ value: 'a' }, { value: 'b' }] }), { path: 'k', mode: 'values', values: 'a, b' });
    assert.deepEqual(prefill({ path: 'w', kind: 'int', min: 1, max: 512, default: null }, 8), { path: 'w', mode: 'step', from: '8', to: '32', step: '6' });
    assert.deepEqual(prefill({ path: 'w', kind: 'int', min: 1, max: 10, default: 4 }), { path: 'w', mode: 'step', from: '4', to: '10', step: '2' });
    assert.deepEqual(prefill({ path: 'r', kind: 'number', min: 0, minExclusive: true, default: 1.2 }), { path: 'r', mode: 'count', from: '1.2', to: '4.8', count: '5', scale: 'linear' });
  });
});

describe('study results files', () => {
  it('reads RFC 4180 CSV as the CLI writes it', () => {
    assert.deepEqual(parseCsv('a,b\n"x,y","say ""hi"""\n,\n"two\nlines",3\n'), [['a', 'b'], ['x,y', 'say "hi"'], ['', ''], ['two\nlines', '3']]);
  });

  it('reads the CLI\'s tidy CSV and JSON Lines into the same values and cells', () => {
    const csv = readTidy(fs.readFileSync(path.join(FIXTURE, 'tidy.csv'), 'utf8'), 'tidy.csv');
    const jsonl = readTidy(fs.readFileSync(path.join(FIXTURE, 'tidy.jsonl'), 'utf8'), 'tidy.jsonl');
    assert.deepEqual(csv.columns, jsonl.columns);
    // seeds above 2^53 read as numbers either way; every other cell is the same value
    const drop = (rows) => rows.map((r) => r.filter((_, k) => k !== 2));
    assert.deepEqual(drop(csv.rows), drop(jsonl.rows));
    const layout = { axes: ['workload.meanInterarrival'], groups: ['runs'], metrics: csv.columns.slice(6, -1) };
    const lists = [];
    const model = createModel({ layout, columns: csv.columns, summarize: (ls) => { lists.push(...ls); return ls.map((l) => ({ n: l.length })); } });
    // the replicates arrive out of order: the cells keep replicate order
    model.add([...csv.rows].reverse());
    const snap = model.snapshot();
    assert.deepEqual(snap.axes, [{ path: 'workload.meanInterarrival', values: [3.2, 1.6, 0.8], numeric: true }]);
    assert.equal(snap.points, 9);
    assert.equal(snap.cells.length, 3 * 3 * layout.metrics.length);
    const m = layout.metrics.indexOf('report.runs[*].summary.meanWait');
    const want = csv.rows.filter((r) => r[3] === 0.8 && r[4] === 'sequential').map((r) => r[6 + m]);
    const cell = snap.cells.findIndex((c) => snap.axes[0].values[c.a[0]] === 0.8 && snap.series[c.s] === 'sequential' && c.m === m);
    assert.deepEqual(lists[cell], want);
    assert.throws(() => readTidy('a,b\n1,2,3\n', 'x.csv'), { message: 'x.csv:2: 3 cells, the header has 2' });
    assert.throws(() => readTidy('{"a":1}\nnope\n', 'x.jsonl'), /^Error: x\.jsonl:2: not JSON/);
  });
});
