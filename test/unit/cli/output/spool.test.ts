// The spool of a streamed reply: held in memory, then in a private temporary file, bounded; restart
// drops a broken attempt; playTo hands back exactly the bytes of the last attempt.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Writable } from 'node:stream';
import { Spool } from '../../../../src/cli/output/spool';
import { OutputError } from '../../../../src/core/api/errors';

function put(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => out.write(text, (e) => (e ? reject(e) : resolve())));
}

async function played(spool: Spool): Promise<string> {
  const pieces: Buffer[] = [];
  await spool.playTo(async (p) => {
    pieces.push(p);
  });
  return Buffer.concat(pieces).toString();
}

async function spoolDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((n) => n.startsWith('measnb-spool-'));
}

describe('cli/output/spool', () => {
  it('small replies stay in memory; what is played is what was written, in order', async () => {
    const before = await spoolDirs();
    const spool = new Spool({ memory: 1000, limit: 10_000 });
    await put(spool.out, 'a,b\n');
    spool.out.write('1,2\n');
    assert.equal(await played(spool), 'a,b\n1,2\n');
    assert.deepEqual(await spoolDirs(), before, 'no temporary file');
    await spool.dispose();
  });

  it('past the memory bound the bytes go to a temporary file, removed by dispose', async () => {
    const before = await spoolDirs();
    const spool = new Spool({ memory: 10, limit: 10_000 });
    const lines = Array.from({ length: 50 }, (_, i) => `row ${i}\n`);
    for (const l of lines) await put(spool.out, l);
    assert.equal((await spoolDirs()).length, before.length + 1, 'one temporary folder');
    assert.equal(await played(spool), lines.join(''));
    await spool.dispose();
    assert.deepEqual(await spoolDirs(), before);
  });

  it('restart drops the broken attempt (memory and file)', async () => {
    const before = await spoolDirs();
    const spool = new Spool({ memory: 10, limit: 10_000 });
    await put(spool.out, 'half of a reply that broke\n');
    const fresh = await spool.restart();
    assert.deepEqual(await spoolDirs(), before, 'the first attempt file is gone');
    await put(fresh, 'whole\n');
    assert.equal(await played(spool), 'whole\n');
    await spool.dispose();
  });

  it('a reply past the limit fails as an output error that names --stream and --out', async () => {
    const before = await spoolDirs();
    const spool = new Spool({ memory: 10, limit: 30 });
    await put(spool.out, 'twenty bytes exactly\n');
    spool.out.write('and twenty more bytes\n');
    await assert.rejects(played(spool), (e: Error) => {
      assert.ok(e instanceof OutputError, String(e));
      assert.match(e.message, /bigger than 30 bytes.*use --stream or --out/);
      return true;
    });
    await spool.dispose();
    assert.deepEqual(await spoolDirs(), before);
  });
});
