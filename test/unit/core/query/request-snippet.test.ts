import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PATHS } from '../../../../src/core/api/paths';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { parseCell } from '../../../../src/core/query/parse';
import { requestSnippet } from '../../../../src/core/query/request-snippet';
import { type ResolvedCell, resolveCell } from '../../../../src/core/query/resolve';
import { datasourcesTable } from '../../../../src/core/run/index.node';
import { tableToCsv } from '../../../../src/core/table/csv-export';
import { systemClock } from '../../../../src/core/time/clock';
import { ManualClock, type RunningEmulator, startEmulator } from '../../../../src/emulator';

const run = promisify(execFile);

// The snippet's only dependency, `requests`, stood in for by urllib (no PyPI here): the request the
// snippet makes (method, URL, headers, JSON body) still goes over real HTTP to the emulator.
const REQUESTS_SHIM = `
import json, urllib.request
class Response:
    def __init__(self, status, text): self.status_code, self.text = status, text
    def raise_for_status(self):
        if self.status_code >= 400: raise Exception(self.status_code)
def _send(method, url, headers, body=None):
    data = None if body is None else json.dumps(body).encode()
    h = dict(headers, **({"content-type": "application/json"} if data else {}))
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=h, method=method)) as r:
            return Response(r.status, r.read().decode())
    except urllib.error.HTTPError as e:
        return Response(e.code, e.read().decode())
def get(url, headers=None, timeout=None): return _send("GET", url, headers or {})
def post(url, headers=None, json=None, timeout=None): return _send("POST", url, headers or {}, json)
`;

describe('copy a cell as a request (curl, Python)', () => {
  let emu: RunningEmulator;
  let client: MeasurementsClient;
  let dir: string;
  const resolve = (text: string): ResolvedCell => {
    const now = new Date(emu.clock.now());
    const parsed = parseCell(text, { now });
    assert.ok(parsed.cell, JSON.stringify(parsed.diagnostics));
    const r = resolveCell(parsed.cell, { now, org: emu.org });
    assert.ok(r.resolved, JSON.stringify(r.diagnostics));
    return r.resolved;
  };
  const env = () => ({ ...process.env, MEASUREMENTS_API_KEY: emu.apiKey });

  before(async () => {
    emu = await startEmulator({ seed: 2, clock: new ManualClock(Date.parse('2026-11-20T12:00:30Z')) });
    client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    dir = await mkdtemp(join(tmpdir(), 'measnb-snippet-'));
    await writeFile(join(dir, 'requests.py'), REQUESTS_SHIM);
  });
  after(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('never contains the key, only the environment variable', () => {
    for (const lang of ['curl', 'python'] as const) {
      const s = requestSnippet(resolve('datasources'), emu.url, lang);
      assert.ok(!s.includes(emu.apiKey));
      assert.ok(s.includes('MEASUREMENTS_API_KEY'));
    }
  });

  it('curl: the snippet run by bash gets what the client gets (a csv-wide recent query, resolved times)', async () => {
    const ids = emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId);
    const cell = `recent\ndatasourceIds: ${ids.join(', ')}\noutputFrequency: hour\nstartTime: -6h\nformat: csv-wide`;
    const snippet = requestSnippet(resolve(cell), emu.url, 'curl');
    assert.match(snippet, /"startTime":"2026-11-20T06:00:30\.000Z"/, 'relative times resolved');
    const { stdout } = await run('bash', ['-c', snippet], { env: env(), encoding: 'buffer', maxBuffer: 1 << 26 });
    const { table } = await client.recentQuery({
      org: emu.org,
      datasourceIds: ids,
      outputFrequency: 'hour',
      startTime: '2026-11-20T06:00:30.000Z',
      format: 'csv-wide',
    });
    assert.ok(table.rowCount > 0);
    assert.equal(stdout.toString('utf8').split('\n')[0], table.columns.map((c) => c.name).join(','));
    assert.equal(stdout.toString('utf8').trim().split('\n').length, table.rowCount + 1);
  });

  it('python: the snippet runs and prints the service reply (datasources)', async () => {
    const snippet = requestSnippet(resolve('datasources'), emu.url, 'python');
    const { stdout } = await run('python3', ['-c', snippet], { env: { ...env(), PYTHONPATH: dir } });
    const reply = JSON.parse(stdout);
    const list = await client.listDatasources(emu.org);
    assert.equal(tableToCsv(datasourcesTable(reply)), tableToCsv(datasourcesTable(list)));
  });

  it('hostile cell values cannot break out of their quotes (shell and Python)', async () => {
    const marker = join(dir, 'pwned');
    const evil = `x'; touch ${marker}; echo '$(touch ${marker})\`touch ${marker}\`"""\\`;
    const resolved: ResolvedCell = {
      verb: 'report',
      request: {
        org: emu.org,
        report: 'datasource-measurements',
        datasourceIds: [evil],
        outputFrequency: 'hour',
        startTime: '2026-11-01',
        endTime: '2026-11-02',
      },
    };
    const curl = requestSnippet(resolved, emu.url, 'curl');
    await run('bash', ['-n', '-c', curl]);
    const py = requestSnippet(resolved, emu.url, 'python');
    await run('python3', ['-c', `import ast, sys; ast.parse(sys.argv[1])`, py]);
    // Run both for real: the service rejects the unknown id; no command ran.
    await run('bash', ['-c', curl], { env: env() }).catch(() => undefined);
    await run('python3', ['-c', py], { env: { ...env(), PYTHONPATH: dir } }).catch(() => undefined);
    assert.equal(existsSync(marker), false);
    assert.ok(curl.includes(JSON.stringify(evil).slice(1, -1).replace(/'/g, `'\\''`)), 'the value is sent as written');
  });

  it('invisible characters (C1, bidi overrides, zero-width) are escapes in the snippet, and mean the same', async () => {
    const hidden = [
      '\u009b31m',
      '\u202eevil',
      '\u2066x\u2069',
      '\u200e\u200f\u061c',
      '\ufeff\u200b',
      '\u{e0041}',
      "q'\\",
    ];
    const resolved: ResolvedCell = {
      verb: 'report',
      request: {
        org: emu.org,
        report: 'datasource-measurements',
        datasourceIds: hidden,
        outputFrequency: 'hour',
        startTime: '2026-11-01',
        endTime: '2026-11-02',
      },
    };
    const invisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
    const curl = requestSnippet(resolved, emu.url, 'curl');
    const py = requestSnippet(resolved, emu.url, 'python');
    for (const s of [curl, py]) {
      assert.ok(!invisible.test(s.replace(/\n/g, '')), `no invisible character in:\n${s}`);
      for (const e of ['\\u009b', '\\u202e', '\\u2066', '\\u200e', '\\u061c', '\\ufeff', '\\U000e0041']) {
        assert.ok(s.includes(e), `${e} in:\n${s}`);
      }
    }
    // bash reads the quoted body back to the very JSON the client would send (curl stood in for by printf).
    const shell = `curl() { printf '%s' "\${@: -1}"; }\n${curl}`;
    const { stdout } = await run('bash', ['-c', shell], { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    assert.equal(stdout, JSON.stringify(resolved.request));
    // Python's literal reads back to the same body.
    const line = py.split('\n').find((l) => l.startsWith('body = '));
    const echo = 'import json, sys\nexec(sys.argv[1])\nsys.stdout.write(json.dumps(body))';
    const back = await run('python3', ['-c', echo, String(line)]);
    assert.deepEqual(JSON.parse(back.stdout), resolved.request);
  });

  it('follow says how to continue; credentials in the base URL are dropped', () => {
    const s = requestSnippet(
      resolve('follow\ndatasourceIds: D1\nstartTime: -1h'),
      'https://u:p@api.example.com/',
      'curl',
    );
    assert.match(s, /"replyWithContinuationToken":true/);
    assert.match(s, /# then POST https:\/\/api\.example\.com\/v2\/recent-datasource-measurements-continuation/);
    assert.ok(!s.includes('u:p@'));
  });

  it('asks the URL the client asks (one URL builder, core/api/paths serviceUrl): path prefixes, extra slashes, a query', () => {
    for (const base of [
      'https://api.example.com',
      'https://api.example.com/prefix/',
      'https://api.example.com/prefix//',
      'https://api.example.com/prefix?x=1#f',
    ]) {
      const c = new MeasurementsClient({ clock: systemClock, baseUrl: base, apiKey: 'k' });
      const recent = requestSnippet(resolve('recent\ndatasourceIds: D1'), base, 'curl');
      assert.ok(recent.includes(c.url(PATHS.recentQuery).href), `${base}: ${recent}`);
      const list = requestSnippet(resolve('datasources'), base, 'curl');
      assert.ok(list.includes(c.url(PATHS.datasources, { org: emu.org }).href), `${base}: ${list}`);
    }
  });
});
