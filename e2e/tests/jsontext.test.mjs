// The scenario-text scanner behind the editor (www/jsontext.js), without a browser: it finds the
// source span of a value and edits only that span, so every other byte stays as written.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { literalAt, valueAt, setLiteral, fold, unfold } from '../../www/jsontext.js';

const TEXT = '{"version": 1.0, "seed": 18446744073709551615, "name": "a \\"}\\" b",\n  "system": {"kind": "mesh", "width": 1e400},\n  "x": [1, {"y": "]"}]}';

describe('jsontext', () => {
  it('reads literals as written, with escapes and brackets inside strings', () => {
    assert.equal(literalAt(TEXT, 'version'), '1.0');
    assert.equal(literalAt(TEXT, 'seed'), '18446744073709551615');
    assert.equal(literalAt(TEXT, 'system.width'), '1e400');
    assert.equal(valueAt(TEXT, 'name'), 'a "}" b');
    assert.equal(literalAt(TEXT, 'x'), '[1, {"y": "]"}]');
    assert.equal(literalAt(TEXT, 'system.height'), undefined);
    assert.equal(literalAt(TEXT, 'x.y'), undefined);
  });

  it('replaces, adds and removes one value, leaving every other byte alone', () => {
    const wider = setLiteral(TEXT, 'system.width', '6');
    assert.equal(wider, TEXT.replace('1e400', '6'));
    const taller = setLiteral(wider, 'system.height', '4');
    assert.equal(taller, TEXT.replace('"width": 1e400', '"width": 6, "height": 4'));
    assert.equal(setLiteral(taller, 'system.height', undefined), wider);
    const pretty = '{\n  "version": 1,\n  "name": "x"\n}';
    assert.equal(setLiteral(pretty, 'workload.kind', '"set"'), '{\n  "version": 1,\n  "name": "x",\n  "workload": {"kind": "set"}\n}');
    assert.equal(setLiteral('{}', 'seed', '3'), '{"seed": 3}');
    assert.equal(setLiteral(pretty, 'name', undefined), '{\n  "version": 1\n}');
    assert.equal(setLiteral('{"a": 1, "a": 2}', 'a', '3'), '{"a": 1, "a": 3}', 'the last duplicate is the one JSON.parse reads');
  });

  it('walks past a value nested 100,000 levels deep without recursion', () => {
    const deep = `{"x": ${'['.repeat(100_000)}${']'.repeat(100_000)}, "engine": "allocation"}`;
    assert.equal(valueAt(deep, 'engine'), 'allocation');
  });

  it('folds a long job list into a placeholder and restores it byte for byte', () => {
    const jobs = Array.from({ length: 50_000 }, (_, i) => `{"name": "j${i}", "tasks": ${i % 9}}`).join(', ');
    const text = `{"version": 1, "engine": "allocation", "workload": {"kind": "set", "jobs": [${jobs}]}, "seed": 9007199254740993}`;
    const { shown, folds } = fold(text);
    assert.ok(shown.length < 300, `shown: ${shown.length} characters`);
    assert.match(valueAt(shown, 'workload.jobs'), /^… folded: 50,000 jobs \(1\.\d MB\)/);
    assert.equal(literalAt(shown, 'seed'), '9007199254740993');
    assert.equal(unfold(shown, folds), text);
    const edited = setLiteral(shown, 'seed', '2');
    assert.equal(unfold(edited, folds), text.replace('9007199254740993', '2'));
    assert.deepEqual(fold('{"a": 1}'), { shown: '{"a": 1}', folds: [] }, 'short text is not folded');
  });
});
