// The emulator's state file: reports and quota survive a restart (the extension's local connection
// restarts with every window), over real HTTP.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PATHS } from '../../../src/core/api/paths';
import { EmulatorStateFile } from '../../../src/emulator/state-file';
import { downloadGzipText, HOUR, NOW, startTestEmulator, type TestEmulator } from '../../support/emulator';

describe('emulator state file: reports and quota across restarts', () => {
  let dir: string;
  let stateFile: string;
  const running: TestEmulator[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-emu-state-'));
    stateFile = path.join(dir, 'state.json');
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((e) => e.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(options: Parameters<typeof startTestEmulator>[0] = {}): Promise<TestEmulator> {
    const emu = await startTestEmulator({ stateFile, reportDelayMs: 0, ...options });
    running.push(emu);
    return emu;
  }
  async function stop(emu: TestEmulator): Promise<void> {
    running.splice(running.indexOf(emu), 1);
    await emu.close();
    // Let fetch's pool see its keep-alive sockets closed before a new emulator takes the same port.
    await new Promise((r) => setTimeout(r, 50));
  }
  async function create(emu: TestEmulator, extra: Record<string, unknown> = {}) {
    return emu.json(PATHS.reportRequests, {
      org: emu.org,
      report: 'datasource-measurements',
      datasourceIds: emu.facts.datasources.slice(0, 12).map((d) => d.datasourceId),
      outputFrequency: 'hour',
      startTime: '2026-11-19T00:00:00Z',
      endTime: '2026-11-20T10:00:00Z',
      ...extra,
    });
  }
  async function status(emu: TestEmulator, id: string) {
    const res = await emu.get(PATHS.reportRequest(id));
    return { status: res.status, body: await res.json() };
  }

  it('a restarted emulator knows the report, takes the same port, and the old file URLs still work', async () => {
    const first = await start();
    const created = await create(first);
    assert.equal(created.status, 200);
    const done = await status(first, created.body.reportId);
    assert.equal(done.body.reportStatus, 'succeeded');
    assert.equal(done.body.urls.length, 2, 'twelve datasources: two files');
    const before = await Promise.all(done.body.urls.map((u: string) => downloadGzipText(u)));
    const port = new URL(first.url).port;
    await stop(first);

    const second = await start();
    assert.equal(new URL(second.url).port, port, 'the port of the last run');
    const again = await status(second, created.body.reportId);
    assert.equal(again.status, 200);
    assert.equal(again.body.reportStatus, 'succeeded');
    assert.deepEqual(again.body.query, done.body.query);
    const old = await Promise.all(done.body.urls.map((u: string) => downloadGzipText(u)));
    assert.deepEqual(
      old.map((f) => f.status),
      [200, 200],
    );
    assert.deepEqual(
      old.map((f) => f.text),
      before.map((f) => f.text),
      'the same bytes as before the restart',
    );
  });

  it('a report made in an earlier hour keeps its data (its own world), though the new run has another anchor', async () => {
    const first = await start();
    const created = await create(first);
    const before = await Promise.all(
      (await status(first, created.body.reportId)).body.urls.map((u: string) => downloadGzipText(u)),
    );
    assert.ok(before[0].text.split('\n').length > 20, 'the file has rows');
    await stop(first);

    const later = await start({ clock: NOW + 7 * HOUR });
    assert.notEqual(later.facts.anchor, first.facts.anchor, 'the new run is anchored at another hour');
    const again = await status(later, created.body.reportId);
    const after = await Promise.all(again.body.urls.map((u: string) => downloadGzipText(u)));
    assert.deepEqual(
      after.map((f) => f.text),
      before.map((f) => f.text),
    );
  });

  it('reports of many earlier hours all keep their data (their worlds are rebuilt when needed)', async () => {
    const made: { id: string; texts: string[] }[] = [];
    for (let h = 0; h < 5; h++) {
      const emu = await start({ clock: NOW + h * HOUR });
      const id = (await create(emu, { outputFrequency: 'minute', startTime: '2026-11-19T20:00:00Z' })).body.reportId;
      const urls = (await status(emu, id)).body.urls as string[];
      made.push({ id, texts: (await Promise.all(urls.map((u) => downloadGzipText(u)))).map((f) => f.text) });
      await stop(emu);
    }
    const last = await start({ clock: NOW + 9 * HOUR });
    for (const round of [1, 2]) {
      for (const { id, texts } of made) {
        const urls = (await status(last, id)).body.urls as string[];
        const now = (await Promise.all(urls.map((u) => downloadGzipText(u)))).map((f) => f.text);
        assert.deepEqual(now, texts, `report ${id}, round ${round}`);
      }
    }
  });

  it('the daily quota is counted across restarts', async () => {
    const first = await start();
    for (let i = 0; i < 20; i++) assert.equal((await create(first)).status, 200);
    await stop(first);
    const second = await start();
    for (let i = 0; i < 10; i++) assert.equal((await create(second)).status, 200);
    const refused = await create(second);
    assert.equal(refused.status, 429, 'the 31st report of the UTC day');
  });

  it('two emulators on one file (two windows) see each other’s reports, and neither drops the other’s', async () => {
    const a = await start();
    const b = await start();
    assert.notEqual(a.url, b.url, 'the second takes another port when the stored one is in use');
    const fromA = (await create(a)).body.reportId;
    const fromB = (await create(b)).body.reportId;
    assert.equal((await status(b, fromA)).status, 200, 'B finds the report A made');
    assert.equal((await status(a, fromB)).status, 200, 'A finds the report B made');
    const stored = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    assert.deepEqual(stored.reports.map((r: { id: string }) => r.id).sort(), [fromA, fromB].sort());
    assert.ok(!JSON.stringify(stored).includes(a.apiKey), 'the state file holds no key');
  });

  it('a file of another seed, or one that is not JSON, starts afresh without failing', async () => {
    const first = await start();
    const id = (await create(first)).body.reportId;
    await stop(first);
    const other = await start({ seed: 7 });
    assert.equal((await status(other, id)).status, 404);
    await stop(other);

    fs.writeFileSync(stateFile, '{ not json');
    const fresh = await start();
    assert.equal((await status(fresh, id)).status, 404);
    assert.equal((await create(fresh)).status, 200, 'and it writes a good file again');
    assert.equal(JSON.parse(fs.readFileSync(stateFile, 'utf8')).reports.length, 1);
  });

  it("writes through core's one writer: links planted at temporary names are never followed", async () => {
    // The old writer wrote `<file>.<pid>.tmp` and followed a link there; core's writer creates `<file>.part`
    // exclusively (a link at that name is removed, not followed) and renames it when whole.
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.symlinkSync(victim, `${stateFile}.part`);
    fs.symlinkSync(victim, `${stateFile}.${process.pid}.tmp`);
    const file = new EmulatorStateFile(stateFile, 1, 30);
    const state = { ...file.load(), port: 4242 };
    const first = file.save(state);
    await file.save({ ...state, port: 4343 });
    await first;
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me');
    assert.ok(!fs.lstatSync(stateFile).isSymbolicLink());
    assert.equal(JSON.parse(fs.readFileSync(stateFile, 'utf8')).port, 4343, 'saves in order: the last one stays');
    assert.ok(!fs.existsSync(`${stateFile}.part`), 'no .part left');
  });
});
