import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import fc from 'fast-check';
import { MeasurementsError, UnsafePathError } from '../../../../src/core/api/errors';
import type { ReportRecord } from '../../../../src/core/api/types';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import {
  confinedFile,
  confinedFolder,
  MAX_NAME_LENGTH,
  reportFolderName,
  safeFileName,
} from '../../../../src/core/io/local-paths.node';
import { fileNameForUrl } from '../../../../src/core/reports/download.node';
import { downloadReport, runCell } from '../../../../src/core/run/index.node';
import { systemClock } from '../../../../src/core/time/clock';
import { sendJson, startTestServer, type TestServer } from '../../../support/core/test-server';

/** Every file and link under dir, as paths relative to it. */
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    out.push(relative(dir, join(e.parentPath, e.name)));
  }
  return out.sort();
}

/** `name` joined to root resolves to a direct child of root. */
function staysInside(root: string, name: string): boolean {
  const p = resolve(root, name);
  return dirname(p) === resolve(root) && p !== resolve(root);
}

const HOSTILE = [
  '../../.vscode',
  '..\\..',
  '/etc',
  'C:\\x',
  'a/../../b',
  'a\0b',
  '.',
  '..',
  '',
  'x'.repeat(300),
  'CON',
  'nul.txt',
  'COM1',
  'lpt9.csv',
  'name. ',
  'name..',
  '\u001b]0;title\u0007',
  '%2e%2e%2f',
];

describe('local paths: service values as names (safeFileName, reportFolderName)', () => {
  it('turns hostile report ids into one plain name inside the folder', () => {
    const expected: Record<string, string> = {
      '../../.vscode': '_.._.vscode',
      '..\\..': 'report',
      '/etc': '_etc',
      'C:\\x': 'C_x',
      'a/../../b': 'a_.._.._b',
      'a\0b': 'a_b',
      '.': 'report',
      '..': 'report',
      '': 'report',
      CON: '_CON',
      'nul.txt': '_nul.txt',
      COM1: '_COM1',
      'lpt9.csv': '_lpt9.csv',
      'name. ': 'name._',
      'name..': 'name',
    };
    const root = join(tmpdir(), 'chosen');
    for (const id of HOSTILE) {
      const name = reportFolderName(id);
      if (id in expected) assert.equal(name, expected[id], JSON.stringify(id));
      assert.match(name, /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/, JSON.stringify(id));
      assert.ok(name.length <= MAX_NAME_LENGTH, `${JSON.stringify(id)} -> ${name.length} characters`);
      assert.ok(staysInside(root, name), `${JSON.stringify(id)} -> ${name}`);
    }
    assert.equal(reportFolderName('x'.repeat(300)), 'x'.repeat(MAX_NAME_LENGTH));
    assert.equal(reportFolderName('JBLLZT8NW9'), 'JBLLZT8NW9', 'real ids are kept as they are');
  });

  it('any string at all becomes one plain name that stays inside the folder (property)', () => {
    const root = join(tmpdir(), 'chosen');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (s) => {
        const name = safeFileName(s, 'fallback');
        return (
          /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name) &&
          name.length <= MAX_NAME_LENGTH &&
          !/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(name) &&
          staysInside(root, name)
        );
      }),
      { numRuns: 500 },
    );
  });

  it('file names from URLs: the last path segment, decoded, made one plain name', () => {
    assert.equal(fileNameForUrl('https://h/f/..%2F..%2F.vscode%2Ftasks.json?sig=1', 0, 'R'), '_.._.vscode_tasks.json');
    assert.equal(fileNameForUrl('https://h/f/%2e%2e', 1, '../../.vscode'), '_.._.vscode_1.csv');
    assert.equal(fileNameForUrl('https://h/f/CON.csv.gz', 0, 'R'), '_CON.csv');
    assert.equal(fileNameForUrl('https://h/f/a%00b.csv', 0, 'R'), 'a_b.csv');
  });
});

describe('local paths: writes confined to the chosen folder (confinedFolder, confinedFile)', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'measnb-confine-'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('creates the folders inside the chosen one and refuses a segment that is not one plain name', async () => {
    const root = join(base, 'ws');
    const folder = await confinedFolder(root, ['.measurements', 'reports', 'JBLLZT8NW9']);
    assert.equal(folder, join(root, '.measurements', 'reports', 'JBLLZT8NW9'));
    assert.ok(existsSync(folder));
    for (const bad of ['..', '.', '', 'a/b', 'a\\b', 'a\0b']) {
      await assert.rejects(confinedFolder(root, ['x', bad]), UnsafePathError, JSON.stringify(bad));
    }
    assert.deepEqual(await readdir(root), ['.measurements'], 'a refused call creates nothing');
  });

  it('refuses a symbolic link planted inside the folder that points outside, writing nothing there', async () => {
    const root = join(base, 'ws');
    const outside = join(base, 'home', '.ssh');
    await mkdir(outside, { recursive: true });
    await mkdir(join(root, '.measurements'), { recursive: true });
    // As a cloned repository could ship it: .measurements/reports -> ~/.ssh
    await symlink(outside, join(root, '.measurements', 'reports'));
    await assert.rejects(
      confinedFolder(root, ['.measurements', 'reports', 'R1']),
      (e: unknown) =>
        e instanceof UnsafePathError &&
        e.message.includes(`outside the chosen folder ${root}`) &&
        e.message.includes(outside),
    );
    assert.deepEqual(await readdir(outside), []);
    // A link that stays inside is fine.
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'alias'));
    assert.equal(await confinedFolder(root, ['alias', 'R1']), join(root, 'alias', 'R1'));
    assert.ok(existsSync(join(root, 'real', 'R1')));
  });

  it('refuses to write a file through a planted symbolic link, or over a folder', async () => {
    const folder = await confinedFolder(join(base, 'dl'));
    const victim = join(base, 'authorized_keys');
    await writeFile(victim, 'mine');
    await symlink(victim, join(folder, 'a.csv'));
    await assert.rejects(confinedFile(folder, 'a.csv'), /is a symbolic link/);
    await mkdir(join(folder, 'b.csv'));
    await assert.rejects(confinedFile(folder, 'b.csv'), /not a file/);
    await assert.rejects(confinedFile(folder, '../x.csv'), UnsafePathError);
    assert.equal(await confinedFile(folder, 'c.csv'), join(folder, 'c.csv'));
    assert.equal(await readFile(victim, 'utf8'), 'mine');
  });
});

describe('local paths: a service answering like the real one with a hostile report id (end to end through core)', () => {
  let service: TestServer;
  let base: string;
  let downloads: string;
  const csv = 'datasourceId,time\nD1,2026-11-01T00:00:00Z\n';
  const hostileId = '../../.vscode';

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'measnb-hostile-'));
    downloads = join(base, 'ws', '.measurements', 'reports');
    service = await startTestServer();
    const record = (): ReportRecord => ({
      reportId: hostileId,
      reportStatus: 'succeeded',
      message: 'Complete',
      report: 'datasource-measurements',
      urls: [`${service.url}/files/..%2F..%2F.vscode%2Ftasks.json?sig=1`],
      query: {},
    });
    service.handle((req, res) => {
      if (req.url?.startsWith('/files/')) return res.end(csv);
      return sendJson(res, 200, record());
    });
  });
  afterEach(async () => {
    await service.close();
    await rm(base, { recursive: true, force: true });
  });

  it('a report cell refuses the id where it arrives: a clear error, no file request, nothing written', async () => {
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: service.url, apiKey: 'k', retry: false });
    await assert.rejects(
      runCell(
        'report datasource-measurements\ndatasourceIds: D1\noutputFrequency: hour\nstartTime: 2026-11-01\nendTime: 2026-11-02',
        { client, org: 'o', now: new Date('2026-11-20T00:00:00Z'), downloadDir: downloads },
      ),
      (e: unknown) =>
        e instanceof MeasurementsError &&
        e.code === 'SERVER_ERROR' &&
        e.message ===
          'The service answered with a report id that is not letters, digits, - and _ ("../../.vscode"); refusing it.',
    );
    assert.deepEqual(
      service.requests.map((r) => r.method),
      ['POST'],
    );
    assert.deepEqual(await tree(base), [], 'nothing was written anywhere');
    // Status reads refuse it too.
    await assert.rejects(client.getReport('R1'), /not letters, digits, - and _/);
  });

  it('a record that reached the download anyway (kept from before) lands inside the chosen folder, neutralised', async () => {
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: service.url, apiKey: 'k', retry: false });
    const record: ReportRecord = {
      reportId: hostileId,
      reportStatus: 'succeeded',
      message: '',
      report: 'datasource-measurements',
      urls: [`${service.url}/files/..%2F..%2F.vscode%2Ftasks.json?sig=1`],
      query: {},
    };
    const { files, dir } = await downloadReport(record, { client, downloadDir: downloads });
    assert.equal(dir, join(downloads, '_.._.vscode'));
    assert.deepEqual(files, [join(downloads, '_.._.vscode', '_.._.vscode_tasks.json')]);
    assert.deepEqual(await tree(base), [
      'ws',
      `ws${sep}.measurements`,
      `ws${sep}.measurements${sep}reports`,
      `ws${sep}.measurements${sep}reports${sep}_.._.vscode`,
      `ws${sep}.measurements${sep}reports${sep}_.._.vscode${sep}_.._.vscode_tasks.json`,
    ]);
    assert.ok(!existsSync(join(base, 'ws', '.vscode')));
    assert.equal(await readFile(files[0], 'utf8'), csv);
    for (const f of files) assert.ok(!isAbsolute(relative(downloads, f)) && !relative(downloads, f).startsWith('..'));
  });

  it('a link planted where the report folder goes is refused: nothing is downloaded through it', async () => {
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: service.url, apiKey: 'k', retry: false });
    const outside = join(base, 'home');
    await mkdir(outside);
    await mkdir(downloads, { recursive: true });
    await symlink(outside, join(downloads, 'R1'));
    const record: ReportRecord = {
      reportId: 'R1',
      reportStatus: 'succeeded',
      message: '',
      report: 'datasource-measurements',
      urls: [`${service.url}/files/authorized_keys`],
      query: {},
    };
    await assert.rejects(downloadReport(record, { client, downloadDir: downloads }), UnsafePathError);
    assert.deepEqual(await readdir(outside), []);
    assert.equal(service.requests.length, 0, 'no file was fetched');
  });
});
