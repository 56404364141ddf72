// 1. A recent query of about 100 MB of csv-wide over loopback from the emulator, parsed into a Table
//    by the project's client, vs `curl --compressed` of the same request to /dev/null (target ≤ 1.5×).
//    Also measured: `measnb query --csv`, which streams csv-wide through untouched.
import fs from 'node:fs';
import path from 'node:path';
import { type BenchResult, bundledChild, median, NODE_RSS, runCommand, sideBySide } from './lib';
import { startEmulatorProcess } from './support/emulator-process';

export async function recentQueryBench(runs: number): Promise<BenchResult> {
  const emu = await startEmulatorProcess(['--datasources', '450']);
  try {
    const request = {
      org: emu.org,
      allDatasources: true,
      outputFrequency: 'minute',
      startTime: new Date(Date.now() - 23.5 * 3600_000).toISOString(),
      format: 'csv-wide',
      metricSelect: 'all',
    };
    const body = JSON.stringify(request);
    const env = { MEASUREMENTS_API_KEY: emu.apiKey };
    const url = `${emu.baseUrl}/v2/recent-datasource-measurements-query`;
    const curlArgs = ['-sS', '--fail', '-X', 'POST', '-H', 'content-type: application/json'];
    const curl = () =>
      runCommand('curl', [
        ...curlArgs,
        '--compressed',
        '-H',
        `x-api-key: ${emu.apiKey}`,
        '-d',
        body,
        url,
        '-o',
        '/dev/null',
      ]);
    // The uncompressed body, once, for its size.
    const sample = path.resolve('.artifacts/bench/data/recent-minute.csv');
    fs.mkdirSync(path.dirname(sample), { recursive: true });
    await runCommand('curl', [...curlArgs, '-H', `x-api-key: ${emu.apiKey}`, '-d', body, url, '-o', sample]);
    const bodyMb = fs.statSync(sample).size / 1e6;
    fs.rmSync(sample);
    const childJs = await bundledChild('bench/support/recent-child.ts');
    const client = () =>
      runCommand(process.execPath, [...NODE_RSS, childJs, emu.baseUrl, body], {
        env,
      });
    const cell = `recent\nallDatasources: true\noutputFrequency: minute\nstartTime: -1410m\nformat: csv-wide\nmetricSelect: all`;
    const cli = () =>
      runCommand(
        process.execPath,
        [...NODE_RSS, 'dist/cli.js', 'query', '--csv', '-e', cell, '--base-url', emu.baseUrl, '--org', emu.org],
        { env, stdoutFile: '/dev/null' },
      );
    const s = await sideBySide(runs, curl, client);
    const cliRuns = [];
    for (let i = 0; i < Math.max(1, Math.min(runs, 3)); i++) cliRuns.push(await cli());
    const b = median(s.baseline.map((x) => x.ms));
    const p = median(s.subject.map((x) => x.ms));
    return {
      name: 'recent query ~100 MB csv-wide',
      target: '≤ 1.5× curl --compressed',
      baseline: 'curl --compressed to /dev/null',
      subject: 'client.recentQuery → Table (bundled, node start included)',
      baselineMedianMs: b,
      subjectMedianMs: p,
      ratio: p / b,
      figures: {
        bodyMb,
        subjectPeakRssMb: median(s.subject.map((x) => x.maxRssMb ?? Number.NaN)),
        cliCsvMs: median(cliRuns.map((x) => x.ms)),
        cliCsvRatio: median(cliRuns.map((x) => x.ms)) / b,
      },
      pass: p / b <= 1.5,
    };
  } finally {
    await emu.stop();
  }
}
