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
});
