// `node test/host/walkthrough-media.mjs`: the Getting Started walkthrough's images (media/walkthrough/)
// from the e2e lane's screenshots (.artifacts/screenshots/, run `npm run test:e2e` first), scaled down
// to 640 px wide in chromium so that the .vsix stays small.
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium } from './browser.mjs';
import { ARTIFACTS, ROOT } from './toolchain.mjs';

/** media/walkthrough/<key>.png ← .artifacts/screenshots/<value>.png */
export const WALKTHROUGH_MEDIA = {
  connect: 'reports-view-empty',
  tour: 'notebook-tour-opened',
  run: 'notebook-tour-run-all',
  chart: 'notebook-chart',
  'create-report': 'reports-create-report',
  reports: 'reports-view-finished',
};
const WIDTH = 640;

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: 400 } });
  const out = path.join(ROOT, 'media', 'walkthrough');
  fs.mkdirSync(out, { recursive: true });
  for (const [name, shot] of Object.entries(WALKTHROUGH_MEDIA)) {
    const src = path.join(ARTIFACTS, 'screenshots', `${shot}.png`);
    if (!fs.existsSync(src)) throw new Error(`${src} is missing: run npm run test:e2e first`);
    const data = fs.readFileSync(src).toString('base64');
    await page.setContent(
      `<body style="margin:0"><img id="i" style="display:block;width:${WIDTH}px" src="data:image/png;base64,${data}"></body>`,
    );
    await page.locator('#i').evaluate((img) => img.decode());
    const file = path.join(out, `${name}.png`);
    await page.locator('#i').screenshot({ path: file });
    console.log(`${path.relative(ROOT, file)} ← ${shot}.png (${(fs.statSync(file).size / 1024).toFixed(0)} KiB)`);
  }
} finally {
  await browser.close();
}
