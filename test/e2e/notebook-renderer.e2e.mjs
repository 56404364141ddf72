// The built renderer (dist/renderer.js) alone in chromium with a 1,000,000 x 20 table: see
// notebook-renderer-page.mjs (also runnable by itself). Screenshots: .artifacts/screenshots/renderer-*.png.
import { checkAirQualityViews, checkRendererPage, checkShortTableWheel } from './notebook-renderer-page.mjs';

describe('e2e: the table renderer alone in chromium', function () {
  this.timeout(300_000);
  it('renders 1,000,000 rows, scrolls to the last with a bounded DOM, keeps a hostile id as text, sorts, filters, charts', async () => {
    await checkRendererPage(1_000_000);
  });

  it('air-quality views on an emulator result (dark and light): units, AQI chips and bands, QC marks, Summary and Collocation equal to the model, Exceedances, Profiles, Map', async () => {
    await checkAirQualityViews();
  });

  it('a table whose rows all fit (with a horizontal scrollbar) does not catch the wheel: the page scrolls', async () => {
    await checkShortTableWheel();
  });
});
