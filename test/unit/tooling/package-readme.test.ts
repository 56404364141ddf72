// The README as packaged into the .vsix (test/host/package-vsix.mjs): its images must show on the
// extension's page, which shows images only from https (VS Code, the Marketplace, vsce).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error: the packaging script is plain JavaScript (no types)
import { readmeForPackage, readmeImages } from '../../host/package-vsix.mjs';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('packaged README images', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-readme-'));
    fs.mkdirSync(path.join(root, 'media'));
    fs.writeFileSync(path.join(root, 'media', 'shot.png'), PNG);
    fs.writeFileSync(path.join(root, 'media', 'logo.svg'), '<svg/>');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('keeps a relative image relative when no base URL is given (a local .vsix)', () => {
    assert.equal(
      readmeForPackage('A\n![The chart](./media/shot.png)\nB', { root }),
      'A\n![The chart](media/shot.png)\nB',
    );
  });

  it('points a relative image at the https base URL when publishing', () => {
    const out = readmeForPackage('![x](./media/shot.png "t")', { root, baseImagesUrl: 'https://h.example/raw/main/' });
    assert.equal(out, '![x](https://h.example/raw/main/media/shot.png "t")');
  });

  it('refuses what the extension page would show broken: http or other schemes, SVG, paths outside the tree', () => {
    assert.throws(() => readmeForPackage('![x](http://h.example/a.png)', { root }), /only https/);
    assert.throws(() => readmeForPackage('![x](file:///etc/a.png)', { root }), /only https/);
    assert.throws(() => readmeForPackage('![x](media/logo.svg)', { root }), /refuses SVG/);
    assert.throws(() => readmeForPackage('![x](../secret.png)', { root }), /outside the project/);
    assert.throws(() => readmeForPackage('![x](media/missing.png)', { root }), /does not exist/);
    assert.throws(
      () => readmeForPackage('![x](media/shot.png)', { root, baseImagesUrl: 'http://h.example' }),
      /https URL/,
    );
    assert.equal(readmeForPackage('![x](https://h.example/a.png)', { root }), '![x](https://h.example/a.png)');
  });

  it("the project's own README: every image is a packable file, alt text present", () => {
    const images = readmeImages();
    assert.ok(images.length >= 4, 'the README shows its screenshots');
    for (const { alt, src } of images) assert.ok(alt.length > 10, `image ${src} has a describing alt text`);
    const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
    const packaged = readmeForPackage(readme, { baseImagesUrl: 'https://h.example/raw/main' });
    const want = images.map((i: { src: string }) => `https://h.example/raw/main/${i.src}`);
    assert.deepEqual(
      readmeImages(packaged).map((i: { src: string }) => i.src),
      want,
    );
  });
});
