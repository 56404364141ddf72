import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordFolder } from '../../../../src/extension/state/record-folder';

type Rec = { n: number };
const check = (v: unknown): Rec | undefined =>
  v && typeof v === 'object' && typeof (v as Rec).n === 'number' ? (v as Rec) : undefined;

describe('RecordFolder: the shared records on disk, through the one writer', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'measnb-records-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('many puts at once (one key many times, several keys): all settle, each file holds the last value', async () => {
    const folder = new RecordFolder(dir, check);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) writes.push(folder.put(`k${i % 4}`, { n: i }));
    await Promise.all(writes); // without the queue, two writes of one file meet and one is dropped
    assert.deepEqual(
      ['k0', 'k1', 'k2', 'k3'].map((k) => folder.get(k)),
      [{ n: 56 }, { n: 57 }, { n: 58 }, { n: 59 }],
    );
    const names = await readdir(dir);
    assert.equal(names.length, 4, `one whole file per record, no .part left: ${names}`);
    for (const name of names) JSON.parse(await readFile(join(dir, name), 'utf8')); // none torn
    const another = new RecordFolder(dir, check); // another window reads the folder
    assert.deepEqual(
      another.entries().sort(([a], [b]) => a.localeCompare(b)),
      [
        ['k0', { n: 56 }],
        ['k1', { n: 57 }],
        ['k2', { n: 58 }],
        ['k3', { n: 59 }],
      ],
    );
  });

  it('a reload while writes are queued keeps the records being written (and the ones being removed stay gone)', async () => {
    const folder = new RecordFolder(dir, check);
    await folder.put('gone', { n: 1 });
    const writes = [folder.put('a', { n: 1 }), folder.put('a', { n: 2 }), folder.delete('gone')];
    const changed = folder.reload(); // another window changed the folder: read it before the writes land
    assert.equal(folder.get('a')?.n, 2, 'the value being written, not the file on disk (none yet)');
    assert.equal(folder.get('gone'), undefined, 'a record being removed is not read back from its file');
    assert.equal(changed, false, 'nothing differs from what this window knows');
    await Promise.all(writes);
    assert.equal(folder.reload(), false);
    assert.deepEqual(folder.entries(), [['a', { n: 2 }]]);
  });

  it('a write cut off midway (its .part left behind) leaves the previous file intact; the next write replaces it', async () => {
    const folder = new RecordFolder(dir, check);
    await folder.put('r', { n: 1 });
    const file = folder.fileOf('r');
    await writeFile(`${file}.part`, '{"key":"r","value":{"n":'); // what a crash mid-write leaves
    const after = new RecordFolder(dir, check);
    assert.deepEqual(after.entries(), [['r', { n: 1 }]], 'the whole old file, the half .part not read');
    await after.put('r', { n: 2 });
    assert.deepEqual(await readdir(dir), [file.slice(dir.length + 1)]);
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { key: 'r', value: { n: 2 } });
  });

  it('a refused write rejects with its code, touches nothing else, and the writes after it still land', async () => {
    const folder = new RecordFolder(dir, check);
    const outside = join(dir, 'outside.txt');
    await writeFile(outside, 'not a record');
    await symlink(outside, folder.fileOf('linked'));
    const refused = folder.put('linked', { n: 1 });
    const next = folder.put('other', { n: 2 });
    await assert.rejects(refused, { code: 'UNSAFE_PATH' });
    await next;
    assert.equal(await readFile(outside, 'utf8'), 'not a record', 'the link is never followed');
    assert.deepEqual(new RecordFolder(dir, check).get('other'), { n: 2 });
  });

  it('flushed() settles after every write asked for, failed ones included', async () => {
    const folder = new RecordFolder(dir, check);
    await symlink(join(dir, 'nowhere'), folder.fileOf('bad'));
    folder.put('bad', { n: 0 }).catch(() => undefined);
    for (let i = 0; i < 10; i++) void folder.put(`k${i}`, { n: i });
    await folder.flushed();
    assert.equal(new RecordFolder(dir, check).values().length, 10);
  });
});
