// The benchmarks' peak RSS of a child (bench/support/report-rss.cjs) is the child's own: Linux carries
// getrusage's maxRSS of the image before exec into the child, so a child forked from a big runner
// reported the runner's size (275 MB for every table-file read in a full `npm run bench`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

describe('bench: peak RSS of a measured child', () => {
  it("is the child's own, not its forking parent's, and grows with what the child holds", function () {
    if (process.platform !== 'linux') this.skip();
    const held = Buffer.alloc(300 * 1024 * 1024, 1); // this process: 300 MB resident
    const peakKb = (script: string) => {
      const r = spawnSync(
        process.execPath,
        ['--require', path.join(ROOT, 'bench/support/report-rss.cjs'), '-e', script],
        { encoding: 'utf8' },
      );
      assert.equal(r.status, 0, r.stderr);
      return Number(/@@maxrss_kb=(\d+)/.exec(r.stderr)?.[1]);
    };
    const idle = peakKb('0');
    const busy = peakKb('globalThis.b = Buffer.alloc(200 * 1024 * 1024, 1)');
    assert.ok(held.length > 0);
    assert.ok(idle > 10_000 && idle < 150 * 1024, `an idle child: ${idle} kB`);
    assert.ok(busy - idle > 180 * 1024, `a child holding 200 MB: ${busy} kB vs ${idle} kB`);
  });
});
