// 7. The emulator serves an allDatasources hour query over 1,000 datasources at ≥ 50 MB/s with
//    bounded memory. Baseline: the same bytes served from memory by a bare node:http server.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type BenchResult, median, runCommand, sideBySide } from './lib';
import { startEmulatorProcess } from './support/emulator-process';

export async function emulatorThroughputBench(runs: number): Promise<BenchResult> {
  const emu = await startEmulatorProcess(['--datasources', '1000']);
  const body = JSON.stringify({ org: emu.org, allDatasources: true, outputFrequency: 'hour', format: 'csv-wide' });
  const out = path.resolve('.artifacts/bench/data/emulator-hour-1000.csv');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const curlArgs = (url: string) => [
    '-sS',
    '--fail',
    '-X',
    'POST',
    '-H',
    'content-type: application/json',
    '-d',
    body,
    url,
  ];
  const query = `${emu.baseUrl}/v2/recent-datasource-measurements-query`;
  const keyHeader = ['-H', `x-api-key: ${emu.apiKey}`];
  // Capture the body once for the static baseline (and its size).
  await runCommand('curl', [...curlArgs(query), ...keyHeader, '-o', out]);
  const bytes = fs.readFileSync(out);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': bytes.length });
    res.end(bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const staticUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const s = await sideBySide(
      runs,
      () => runCommand('curl', [...curlArgs(staticUrl), '-o', '/dev/null']),
      () => runCommand('curl', [...curlArgs(query), ...keyHeader, '-o', '/dev/null']),
    );
    const b = median(s.baseline.map((x) => x.ms));
    const p = median(s.subject.map((x) => x.ms));
    const mbPerS = bytes.length / 1e6 / (p / 1000);
    const peak = emu.peakRssMb();
    return {
      name: 'emulator hour query, 1,000 datasources',
      target: '≥ 50 MB/s, bounded memory',
      baseline: 'same bytes from a bare node:http server',
      subject: 'emulator (csv-wide, allDatasources, hour)',
      baselineMedianMs: b,
      subjectMedianMs: p,
      ratio: p / b,
      figures: { bodyMb: bytes.length / 1e6, mbPerS, emulatorPeakRssMb: peak },
      // Bounded: the emulator's whole peak stays well under the size of one body it streams.
      pass: mbPerS >= 50 && peak < Math.max(250, bytes.length / 1e6),
    };
  } finally {
    server.close();
    await emu.stop();
  }
}
