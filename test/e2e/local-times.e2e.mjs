// The built renderer alone in chromium, an emulator result in a notebook set to America/Denver: see
// notebook-renderer-page.mjs checkLocalTimes. Screenshots: .artifacts/screenshots/local-times-*.png.
import { checkLocalTimes } from './notebook-renderer-page.mjs';

describe('e2e: local times', function () {
  this.timeout(300_000);
  it('a table and chart in America/Denver: ISO 24-hour times, the zone named once, a UTC toggle, hour-starting axis, daily means, three metrics stacked with the cursor synced', async () => {
    await checkLocalTimes();
  });
});
