import assert from 'node:assert/strict';
import fc from 'fast-check';
import { base64ToBytes, bytesToBase64 } from '../../../../src/core/text/base64';

describe('core text: base64 without Buffer (neutral core)', () => {
  it('encodes as Buffer does, and decodes back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = bytesToBase64(bytes);
        assert.equal(text, Buffer.from(bytes).toString('base64'));
        assert.deepEqual(base64ToBytes(text), new Uint8Array(bytes));
      }),
    );
    const big = new Uint8Array(100_000).map((_, i) => (i * 31) & 255);
    assert.equal(bytesToBase64(big), Buffer.from(big).toString('base64'), 'across its chunks');
  });

  it('decodes unpadded text and a last lone character as Buffer does', () => {
    for (const text of ['', 'QQ', 'QUI', 'QUJD', 'QUJDR', 'QUJDRA', 'QUJDRA==', '////', '+/+/+w=']) {
      assert.deepEqual(base64ToBytes(text), new Uint8Array(Buffer.from(text, 'base64')), text);
    }
  });

  it('rejects characters outside the alphabet', () => {
    assert.throws(() => base64ToBytes('QU JD'), /not base64/);
    assert.throws(() => base64ToBytes('QUJD-_'), /not base64/);
    assert.throws(() => base64ToBytes('QUJDé'), /not base64/);
  });
});
