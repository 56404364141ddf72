// Report files as object stores serve gzip uploads (Content-Encoding: gzip, the default) and as plain gzip
// bodies (an option): a plain HTTP client reads CSV text from the first; the project's downloader writes the
// same CSV from both, never decoding twice and never leaving gzip bytes in a .csv.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { PATHS } from '../../../src/core/api/paths';
import { MeasurementsClient } from '../../../src/core/client/client.node';
import { systemClock } from '../../../src/core/time/clock';
import type { ReportFileEncoding } from '../../../src/emulator/index';
import { createReport, type Json, startTestEmulator, type TestEmulator } from '../../support/emulator';

const isGzip = (b: Buffer) => b[0] === 0x1f && b[1] === 0x8b;

describe('emulator report files: Content-Encoding gzip by default, plain gzip as an option', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'measnb-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function reportUrl(emu: TestEmulator): Promise<string> {
    const created = await createReport(emu);
    await emu.advance('6s');
    const record: Json = await (await emu.get(PATHS.reportRequest(created.reportId))).json();
    return record.urls[0];
  }

  /** The raw bytes on the wire, without any client-side decoding. */
  async function raw(url: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      request(url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  }

  for (const [encoding, headerExpected] of [
    [undefined, 'gzip'],
    ['plain-gzip', undefined],
  ] as Array<[ReportFileEncoding | undefined, string | undefined]>) {
    it(`${encoding ?? 'default (content-encoding)'}: the wire, a plain text reader, and the project's downloader`, async () => {
      const emu = await startTestEmulator(encoding ? { reportFileEncoding: encoding } : {});
      try {
        const url = await reportUrl(emu);
        const wire = await raw(url);
        assert.equal(wire.headers['content-encoding'], headerExpected);
        assert.ok(isGzip(wire.body), 'the body on the wire is gzip either way');
        const csv = gunzipSync(wire.body).toString('utf8');
        assert.match(csv, /^datasourceId,sourceId,/);
        // What production clients do: read the URL's text straight into a CSV reader.
        const text = await (await fetch(url)).text();
        if (headerExpected === 'gzip') assert.equal(text, csv);
        else assert.notEqual(text.slice(0, 12), 'datasourceId');

        const client = new MeasurementsClient({
          clock: systemClock,
          baseUrl: emu.url,
          apiKey: emu.apiKey,
          retry: false,
        });
        const dest = path.join(dir, 'part-000.csv');
        const saved = await client.downloadReportFile(url, dest);
        const written = readFileSync(dest);
        assert.ok(!isGzip(written), 'no gzip bytes in the .csv');
        assert.equal(written.toString('utf8'), csv, 'decoded exactly once');
        assert.equal(saved.bytes, written.length);
        const chunks: Buffer[] = [];
        await client.downloadReportFile(
          url,
          new Writable({
            write(chunk: Buffer, _enc, cb) {
              chunks.push(chunk);
              cb();
            },
          }),
        );
        assert.equal(Buffer.concat(chunks).toString('utf8'), csv);
      } finally {
        await emu.close();
      }
    });
  }
});
