// The file list of the packaged .vsix (test/host/package-vsix.mjs): LICENSE, README, the bundles and every
// screenshot README.md shows must be in it; packaging fails when one is missing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
// @ts-expect-error: the packaging script is plain JavaScript (no types)
import { missingPackageFiles, readmeImages, vsixPath, zipEntries } from '../../host/package-vsix.mjs';

const BUNDLES = ['dist/extension.js', 'dist/cli.js', 'dist/renderer.js', 'dist/emulator.js'];
const README = '# X\n\n![shot](media/screenshots/a.png)\n![web](https://h.example/b.png)\n![rel](./media/c.png)\n';

describe('packaged .vsix file list', () => {
  it('names LICENSE, README, a bundle or a README image that is missing; https images need no file', () => {
    const full = ['package.json', 'readme.md', 'LICENSE.txt', ...BUNDLES, 'media/screenshots/a.png', 'media/c.png'];
    assert.deepEqual(missingPackageFiles(full, README), []);
    assert.deepEqual(
      missingPackageFiles(
        full.filter((f) => f !== 'LICENSE.txt'),
        README,
      ),
      ['LICENSE'],
    );
    assert.deepEqual(
      missingPackageFiles(
        full.filter((f) => f !== 'readme.md'),
        README,
      ),
      ['README.md'],
    );
    assert.deepEqual(
      missingPackageFiles(
        full.filter((f) => f !== 'media/c.png'),
        README,
      ),
      ['media/c.png'],
    );
    assert.deepEqual(
      missingPackageFiles(
        full.filter((f) => f !== 'dist/cli.js'),
        README,
      ),
      ['dist/cli.js'],
    );
    assert.deepEqual(missingPackageFiles(['package.json', 'README.md', 'LICENSE', ...BUNDLES], '# none'), []);
  });

  it("the project's README: every image it shows is a media/ file the package would carry", () => {
    const images = readmeImages() as { src: string }[];
    assert.ok(images.length > 3);
    const listing = ['package.json', 'readme.md', 'LICENSE.txt', ...BUNDLES];
    const missing = missingPackageFiles(listing) as string[];
    assert.deepEqual(
      missing,
      images.map((i) => path.posix.normalize(i.src.replace(/^\.\//, ''))),
    );
    assert.ok(missing.every((m) => m.startsWith('media/')));
  });

  it('the last built .vsix (when there is one) carries LICENSE, README and the screenshots', function () {
    const file = vsixPath() as string;
    if (!fs.existsSync(file)) this.skip();
    const listing = (zipEntries(file) as string[])
      .filter((f) => f.startsWith('extension/'))
      .map((f) => f.slice('extension/'.length));
    // README images are checked against the README it was packaged from (packageVsix): here, the fixed parts.
    assert.deepEqual(missingPackageFiles(listing, '# no images'), []);
    assert.ok(listing.some((f) => /^LICENSE/i.test(f)));
    assert.ok(listing.some((f) => f.startsWith('media/screenshots/') && f.endsWith('.png')));
  });
});
