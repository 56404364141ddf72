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
});
