// Bodies are streamed: a 1,000-datasource allDatasources query holds far less memory than its body.
// Measures live heap growth (after forced GCs) while reading the body slowly; no timing assertions.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { API_KEY_HEADER, PATHS } from '../../../src/core/api/paths';
import { startTestEmulator, type TestEmulator } from '../../support/emulator';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function liveHeap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

describe('emulator streaming memory', () => {
  let emu: TestEmulator;
  before(async () => {
    // The formatted-row cache is switched off so that only streaming is measured.
    emu = await startTestEmulator({ datasources: 1000, rowCacheChars: 0 });
  });
  after(() => emu.close());

  it('an allDatasources query over 1,000 datasources streams with bounded memory', async () => {
    const baseline = liveHeap();
    // Growth over the baseline; it may be negative (garbage of earlier tests collected meanwhile).
    let peak = Number.NEGATIVE_INFINITY;
    let samples = 0;
    let bytes = 0;
    let chunks = 0;
    await new Promise<void>((resolve, reject) => {
      const req = request(
        emu.url + PATHS.recentQuery,
        { method: 'POST', headers: { [API_KEY_HEADER]: emu.apiKey, 'content-type': 'application/json' } },
        (res) => {
          assert.equal(res.statusCode, 200);
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            // Sample the live heap now and then, pausing the read so backpressure reaches the server.
            if (++chunks % 200 === 0) {
              res.pause();
              setImmediate(() => {
                peak = Math.max(peak, liveHeap() - baseline);
                samples++;
                res.resume();
              });
            }
          });
          res.on('end', resolve);
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ org: emu.org, allDatasources: true, outputFrequency: 'minute' }));
    });
    const mb = (n: number) => (n / 1e6).toFixed(1);
    assert.ok(bytes > 60e6, `a large body (${mb(bytes)} MB)`);
    assert.ok(samples > 0, 'the heap was sampled');
    // Buffering the body would need at least its size; streaming stays at a small fraction of it.
    assert.ok(peak < bytes / 4, `peak live heap growth ${mb(peak)} MB for a ${mb(bytes)} MB body`);
  });
});
