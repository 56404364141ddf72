import assert from 'node:assert/strict';
import { Interner } from '../../../../src/core/table/interner';

describe('core table: Interner (the codes of a dictionary column)', () => {
  it('gives each distinct value the next code once, and -1 to empty cells', () => {
    const d = new Interner();
    assert.deepEqual(
      ['b', 'a', 'b', '', undefined, null, 'c', 'a'].map((v) => d.codeOrEmpty(v)),
      [0, 1, 0, -1, -1, -1, 2, 1],
    );
    assert.deepEqual(d.values, ['b', 'a', 'c']);
  });

  it('compares values by their key: equal JSON, one code', () => {
    const d = new Interner<unknown>((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    assert.equal(d.code(['x', 1]), 0);
    assert.equal(d.code(['x', 1]), 0);
    assert.equal(d.code('["x",1]'), 0, 'a text equal to the JSON of a value is that value');
    assert.equal(d.code({ a: 1 }), 1);
    assert.deepEqual(d.values, [['x', 1], { a: 1 }]);
  });
});
