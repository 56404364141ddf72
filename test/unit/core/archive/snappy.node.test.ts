import assert from 'node:assert/strict';
import { snappyUncompress } from 'hyparquet';
import { nativeSnappy } from '../../../../src/core/archive/snappy.node';

// A page as the archive writes them: repeated texts and numbers, the kind of bytes snappy finds matches in.
const PAGE = new TextEncoder().encode(`${'calibrated-ready,sensor-ready,12.5,12.5,'.repeat(500)}tail é`);

describe('core/archive/snappy: the native snappy, or none (hyparquet-writer then uses its JavaScript one)', () => {
  it('loads the native package here and writes raw snappy that hyparquet decodes to the same bytes', () => {
    const compress = nativeSnappy();
    assert.ok(compress, 'the snappy package (a dependency) loads on this platform');
    const packed = compress(PAGE);
    assert.ok(packed.length < PAGE.length / 5, `compressed ${packed.length} of ${PAGE.length}`);
    const out = new Uint8Array(PAGE.length);
    snappyUncompress(packed, out);
    assert.deepEqual(out, PAGE);
  });

  it('answers undefined when the package cannot load or is not what it should be (no throw)', () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'snappy'"), { code: 'MODULE_NOT_FOUND' });
    };
    assert.equal(nativeSnappy(missing), undefined);
    assert.equal(
      nativeSnappy(() => ({}) as never),
      undefined,
    );
    // The default loader's answer is not spoilt by a failed test loader.
    assert.ok(nativeSnappy());
  });
});
