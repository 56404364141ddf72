// 2. Downloading a ~1 GB report file (csv.gz, decoded to csv on disk): the project's client vs
//    `curl | gzip -dc` on the same URL (target ≤ 1.1×), with the client's peak RSS below 100 MB.
//    The file is a real emulator report tiled to 1 GB and served statically, so that the emulator's
//    generation speed does not hide the client's own cost.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { type BenchResult, bundledChild, median, NODE_RSS, runCommand, sideBySide } from './lib';
import { startEmulatorProcess } from './support/emulator-process';

const TARGET_BYTES = 1e9;

async function makeFile(file: string): Promise<void> {
  if (fs.existsSync(file)) return;
  const emu = await startEmulatorProcess(['--report-delay', '0s', '--datasources', '60']);
  let sample: string;
  try {
    const headers = { 'x-api-key': emu.apiKey, 'content-type': 'application/json' };
    const end = new Date(Math.floor(Date.now() / 3600_000) * 3600_000);
    const created = await (
      await fetch(`${emu.baseUrl}/v2/report-requests`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          org: emu.org,
          report: 'datasource-measurements',
          allDatasources: true,
          outputFrequency: 'minute',
          startTime: new Date(end.getTime() - 24 * 3600_000).toISOString(),
          endTime: end.toISOString(),
        }),
      })
    ).json();
    let record = created as { reportId: string; reportStatus: string; urls: string[] };
    while (record.reportStatus === 'in-progress') {
      await new Promise((r) => setTimeout(r, 200));
      record = await (await fetch(`${emu.baseUrl}/v2/report-requests/${record.reportId}`, { headers })).json();
    }
    sample = await reportCsv(record.urls[0]);
  } finally {
    await emu.stop();
  }
  const nl = sample.indexOf('\n');
  const header = sample.slice(0, nl + 1);
  const body = sample.slice(nl + 1);
  const repeats = Math.ceil((TARGET_BYTES - header.length) / body.length);
  async function* tiles() {
    yield header;
    for (let i = 0; i < repeats; i++) yield body;
  }
  await pipeline(tiles, zlib.createGzip({ level: 1 }), fs.createWriteStream(`${file}.part`));
  fs.renameSync(`${file}.part`, file);
}

/**
 * The CSV text of a report file URL, as the emulator serves it: by default with `Content-Encoding: gzip`
 * (fetch decodes it on the way, as it does an object store's gzip upload), or as an application/gzip body
 * (the `plain-gzip` option) that is gunzipped here. Either way the result must be the report's CSV.
 */
async function reportCsv(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`report file: HTTP ${res.status}`);
  const encoded = res.headers.get('content-encoding') === 'gzip';
  const bytes = Buffer.from(await res.arrayBuffer());
  const csv = (encoded ? bytes : zlib.gunzipSync(bytes)).toString('utf8');
  if (!csv.startsWith('datasourceId,')) throw new Error(`report file: not the report's CSV: ${csv.slice(0, 80)}`);
  return csv;
}

export async function downloadBench(runs: number): Promise<BenchResult> {
  const dir = path.resolve('.artifacts/bench/data');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'report-1gb.csv.gz');
  await makeFile(file);
  const size = fs.statSync(file).size;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/files/report-1gb.csv.gz?sig=bench`;
  const outCurl = path.join(dir, 'out-curl.csv');
  const outClient = path.join(dir, 'out-client.csv');
  // Bundled like dist/cli.js: a transpiler in the measured process would add its own ~30 MB of RSS.
  const childJs = await bundledChild('bench/support/download-child.ts');
  try {
    const s = await sideBySide(
      runs,
      () => runCommand('sh', ['-c', `curl -sS --fail '${url}' | gzip -dc > '${outCurl}'`]),
      () => runCommand(process.execPath, [...NODE_RSS, childJs, url, outClient]),
    );
    const same = fs.statSync(outCurl).size === fs.statSync(outClient).size;
    const b = median(s.baseline.map((x) => x.ms));
    const p = median(s.subject.map((x) => x.ms));
    const rss = Math.max(...s.subject.map((x) => x.maxRssMb ?? Number.POSITIVE_INFINITY));
    return {
      name: 'report file download ~1 GB',
      target: '≤ 1.1× curl, client peak RSS < 100 MB',
      baseline: 'curl | gzip -dc > file',
      subject: 'client.downloadReportFile (gunzip, to file)',
      baselineMedianMs: b,
      subjectMedianMs: p,
      ratio: p / b,
      figures: { decodedMb: fs.statSync(outClient).size / 1e6, gzMb: size / 1e6, clientPeakRssMb: rss },
      pass: same && p / b <= 1.1 && rss < 100,
      note: same ? undefined : 'decoded sizes differ',
    };
  } finally {
    server.close();
    fs.rmSync(outCurl, { force: true });
    fs.rmSync(outClient, { force: true });
  }
}
