import assert from 'node:assert/strict';
// @ts-expect-error: a plain .mjs script without types
import { mirrorIndex, PY_PACKAGES } from '../../../scripts/python-lane.mjs';

describe('scripts/python-lane.mjs: the local package mirror alone', () => {
  it("takes pip's index-url, else the first extra-index-url, from `pip config list`", () => {
    const config = [
      ":env:.find-links='/opt/wheels'",
      "global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'",
      "global.find-links='/opt/wheels'",
    ].join('\n');
    assert.equal(mirrorIndex(config, {}), 'file:///opt/pypi/simple');
    assert.equal(
      mirrorIndex(`${config}\nglobal.index-url='http://mirror.local/simple'`, {}),
      'http://mirror.local/simple',
    );
    assert.equal(mirrorIndex(config, { MEASNB_PIP_INDEX: 'file:///x' }), 'file:///x');
    assert.equal(mirrorIndex('', {}), undefined);
  });

  it('installs the engines the issue names', () => {
    assert.deepEqual(PY_PACKAGES, ['pyarrow', 'pandas', 'dask[dataframe]', 'ray[data]']);
  });
});
