// 1. A recent query of ~95 MB of csv-wide through the project's client into a Table, vs
//    `curl --compressed` of the same bytes to /dev/null (target ≤ 2.0×, peak RSS ≤ 1.5× the body).
//    Both read from a static loopback server that sends one pre-made reply (generated once by the
//    emulator, gzip-compressed once) with Content-Encoding gzip and Content-Length: the baseline is the
//    physical floor (receive + gunzip), not the emulator's data generation.
//    Also measured: `measnb query --csv`, which streams csv-wide through untouched.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { type BenchResult, bundledChild, median, NODE_RSS, runCommand, sideBySide } from './lib';
import { startEmulatorProcess } from './support/emulator-process';
import { startStaticServer } from './support/static-server';

const DATA_DIR = path.resolve('.artifacts/bench/data');
const BODY = path.join(DATA_DIR, 'recent-csv-wide.csv');
const BODY_GZ = `${BODY}.gz`;

/** The reply of a recent query (400 datasources, minute, 23.5 h, all metrics), made once by the emulator. */
async function makeBody(): Promise<void> {
  if (fs.existsSync(BODY) && fs.existsSync(BODY_GZ)) return;
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const emu = await startEmulatorProcess(['--datasources', '400']);
  try {
    const request = {
      org: emu.org,
      allDatasources: true,
      outputFrequency: 'minute',
      startTime: new Date(Date.now() - 23.5 * 3600_000).toISOString(),
      format: 'csv-wide',
      metricSelect: 'all',
    };
    const url = `${emu.baseUrl}/v2/recent-datasource-measurements-query`;
    await runCommand('curl', [
      ...['-sS', '--fail', '-X', 'POST', '-H', 'content-type: application/json'],
      ...['-H', `x-api-key: ${emu.apiKey}`, '-d', JSON.stringify(request), url, '-o', `${BODY}.part`],
    ]);
  } finally {
    await emu.stop();
  }
  fs.renameSync(`${BODY}.part`, BODY);
  fs.writeFileSync(BODY_GZ, zlib.gzipSync(fs.readFileSync(BODY)));
}

export async function recentQueryBench(runs: number): Promise<BenchResult> {
  await makeBody();
  const bodyMb = fs.statSync(BODY).size / 1e6;
  const gzMb = fs.statSync(BODY_GZ).size / 1e6;
  const server = await startStaticServer(
    { bytes: fs.readFileSync(BODY_GZ) },
    { 'content-type': 'text/csv; charset=utf-8', 'content-encoding': 'gzip' },
  );
  try {
    const request = JSON.stringify({
      org: 'bench',
      allDatasources: true,
      outputFrequency: 'minute',
      startTime: '2026-11-01T00:00:00Z',
      format: 'csv-wide',
      metricSelect: 'all',
    });
    const url = `${server.origin}/v2/recent-datasource-measurements-query`;
    const curl = () =>
      runCommand('curl', [
        ...['-sS', '--fail', '--compressed', '-X', 'POST', '-H', 'content-type: application/json'],
        ...['-H', 'x-api-key: bench', '-d', request, url, '-o', '/dev/null'],
      ]);
    const childJs = await bundledChild('bench/support/recent-child.ts');
    const env = { MEASUREMENTS_API_KEY: 'bench' };
    const client = async () => {
      const r = await runCommand(process.execPath, [...NODE_RSS, childJs, server.origin, request], { env });
      if (!/@@rows=[1-9]/.test(r.stderr)) throw new Error(`the client read no rows: ${r.stderr.slice(-500)}`);
      return r;
    };
    const cell = `recent\nallDatasources: true\noutputFrequency: minute\nstartTime: -1410m\nformat: csv-wide\nmetricSelect: all`;
    const cli = () =>
      runCommand(
        process.execPath,
        [...NODE_RSS, 'dist/cli.js', 'query', '--csv', '-e', cell, '--base-url', server.origin, '--org', 'bench'],
        { env, stdoutFile: '/dev/null' },
      );
    const s = await sideBySide(runs, curl, client);
    const cliRuns = [];
    for (let i = 0; i < Math.max(1, Math.min(runs, 3)); i++) cliRuns.push(await cli());
    const b = median(s.baseline.map((x) => x.ms));
    const p = median(s.subject.map((x) => x.ms));
    const rss = median(s.subject.map((x) => x.maxRssMb ?? Number.NaN));
    const inProcess = median(s.subject.map((x) => Number(/@@query_ms=([\d.]+)/.exec(x.stderr)?.[1] ?? Number.NaN)));
    return {
      name: 'recent query ~95 MB csv-wide → Table',
      target: '≤ 2.0× curl --compressed (static server), peak RSS ≤ 1.5× body',
      baseline: 'curl --compressed to /dev/null, same gzip body from a static loopback server',
      subject: 'client.recentQuery → Table (bundled, node start included)',
      baselineMedianMs: b,
      subjectMedianMs: p,
      ratio: p / b,
      figures: {
        bodyMb,
        gzMb,
        subjectPeakRssMb: rss,
        rssPerBody: rss / bodyMb,
        // Not the target's measure (that is the whole process, node's start included): the request to
        // the Table in a running process, as in the extension host.
        inProcessMs: inProcess,
        inProcessRatio: inProcess / b,
        cliCsvMs: median(cliRuns.map((x) => x.ms)),
        cliCsvRatio: median(cliRuns.map((x) => x.ms)) / b,
      },
      pass: p / b <= 2.0 && rss <= 1.5 * bodyMb,
    };
  } finally {
    await server.close();
  }
}
