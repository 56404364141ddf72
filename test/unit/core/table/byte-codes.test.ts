import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteCodes } from '../../../../src/core/table/byte-codes';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('table: ByteCodes (dictionary codes by bytes)', () => {
  it('finds each added text by its bytes and nothing else, also when hashes collide', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'binary-ascii', maxLength: 12 }), { maxLength: 3000 }),
        fc.integer({ min: 0, max: 3 }),
        (texts, bits) => {
          const codes = new ByteCodes();
          // A hash of few bits makes most texts collide: the bytes decide.
          const hash = (s: string) => (s.length * 7 + (s.charCodeAt(0) || 0)) & ((1 << bits) - 1);
          const added = texts.slice(0, texts.length >> 1);
          added.forEach((t, i) => {
            const b = bytes(`,${t},`);
            codes.add(hash(t), b, 1, b.length - 1, i);
          });
          added.forEach((t, i) => {
            const b = bytes(`x${t}`);
            assert.equal(codes.get(hash(t), b, 1, b.length), i, JSON.stringify(t));
          });
          for (const t of texts.slice(texts.length >> 1)) {
            const b = bytes(t);
            assert.equal(codes.get(hash(t), b, 0, b.length), -1, JSON.stringify(t));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('matches the text found or added last only as a whole cell (a comma or the end after it)', () => {
    const codes = new ByteCodes();
    const comma = 44;
    const line = bytes('SERVICE_NODE,SERVICE_NODE_X,SERVICE,SERVICE_NODE');
    assert.equal(codes.matchLast(line, 0, line.length, comma), -1, 'nothing added yet');
    codes.add(7, line, 0, 12, 3);
    assert.equal(codes.matchLast(line, 0, line.length, comma), 12);
    assert.equal(codes.lastCode, 3);
    assert.equal(codes.matchLast(line, 13, line.length, comma), -1, 'a longer cell that starts with it');
    assert.equal(codes.matchLast(line, 28, line.length, comma), -1, 'a shorter cell');
    assert.equal(codes.matchLast(line, 36, line.length, comma), line.length, 'the last cell of the line');
    codes.add(8, line, 28, 35, 4);
    assert.equal(codes.matchLast(line, 0, line.length, comma), -1, 'the last one is now SERVICE');
    assert.equal(codes.get(7, line, 0, 12), 3);
    assert.equal(codes.matchLast(line, 36, line.length, comma), line.length, 'found again by get');
  });

  it('predicts the text that followed the last one the previous time, as a whole cell, and only as a hint', () => {
    const comma = 44;
    const codes = new ByteCodes();
    const hash = (s: string) => s.length; // colliding on purpose: only bytes decide
    // Rows cycling through three ids, as minute rows of every datasource do.
    const cycle = ['DA', 'DBB', 'DCCC'];
    const lookUp = (id: string) => {
      const b = bytes(`${id},x`);
      const stop = codes.matchNext(b, 0, b.length, comma);
      if (stop >= 0) return { code: codes.lastCode, predicted: true, stop };
      const code = codes.get(hash(id), b, 0, id.length);
      if (code >= 0) return { code, predicted: false, stop: id.length };
      codes.add(hash(id), b, 0, id.length, cycle.indexOf(id));
      return { code: codes.lastCode, predicted: false, stop: id.length };
    };
    const first = [...cycle, ...cycle].map(lookUp);
    assert.deepEqual(
      first.map((r) => r.predicted),
      [false, false, false, false, true, true],
      'DA after DCCC is new the first time round; then each id is predicted',
    );
    assert.deepEqual(
      first.map((r) => r.code),
      [0, 1, 2, 0, 1, 2],
    );
    assert.ok(
      first.every((r, i) => r.stop === [...cycle, ...cycle][i].length),
      'ends at the comma',
    );
    // DA then DCCC: the prediction (DBB) is wrong, so it does not match; DCCC is found by its bytes.
    assert.equal(lookUp('DA').predicted, true);
    const skip = lookUp('DCCC');
    assert.deepEqual([skip.code, skip.predicted], [2, false]);
    // After DA came DCCC last time: that is the prediction now. A cell that only starts with it is not it.
    assert.equal(lookUp('DA').code, 0, 'DA after DCCC again');
    const longer = bytes('DCCCC,x');
    assert.equal(codes.matchNext(longer, 0, longer.length, comma), -1, 'DCCCC is not DCCC');
    const atEnd = bytes('DCCC');
    assert.equal(codes.matchNext(atEnd, 0, atEnd.length, comma), 4, 'the last cell of a line');
    assert.equal(codes.lastCode, 2);
  });

  it('predictions survive the entry tables growing (thousands of ids in a cycle)', () => {
    const comma = 44;
    const codes = new ByteCodes();
    const ids = Array.from({ length: 3000 }, (_, i) => `D${String(i).padStart(7, '0')}`);
    let predicted = 0;
    for (let round = 0; round < 3; round++) {
      ids.forEach((id, i) => {
        const b = bytes(`${id},`);
        if (codes.matchNext(b, 0, b.length, comma) === id.length) {
          assert.equal(codes.lastCode, i, id);
          predicted++;
          return;
        }
        const h = id.charCodeAt(7) * 31 + id.charCodeAt(6);
        const code = codes.get(h, b, 0, id.length);
        if (code < 0) codes.add(h, b, 0, id.length, i);
        else assert.equal(code, i, id);
      });
    }
    assert.equal(predicted, 2 * 3000 - 1, 'every id after the first round but the first of the second');
  });
});
