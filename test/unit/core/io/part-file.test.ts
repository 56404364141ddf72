// The one writer: whole files or nothing, never through a planted link, never outside its folder.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { UnsafePathError } from '../../../../src/core/api/errors';
import { checkDestination, writeFileViaPart, writeViaPart } from '../../../../src/core/io/part-file.node';

function put(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => out.write(text, (e) => (e ? reject(e) : resolve())));
}

/** Lets other writers run (a real turn of the event loop, with I/O). */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('part-file: the one writer', () => {
  let dir: string;
  let outside: string;
  let victim: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'measnb-part-'));
    outside = join(dir, 'outside');
    await mkdir(outside);
    victim = join(outside, 'bashrc');
    await writeFile(victim, 'precious\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes a file whole through .part, which is gone afterwards', async () => {
    const dest = join(dir, 'a.csv');
    await writeFileViaPart(dest, 'x\n');
    await writeViaPart(join(dir, 'b.csv'), (out) => put(out, 'y\n'));
    assert.equal(await readFile(dest, 'utf8'), 'x\n');
    assert.equal(await readFile(join(dir, 'b.csv'), 'utf8'), 'y\n');
    assert.deepEqual((await readdir(dir)).sort(), ['a.csv', 'b.csv', 'outside']);
  });

  it('refuses a destination that is a symbolic link: the target is untouched, the link stays', async () => {
    const res = join(dir, 'res');
    await mkdir(res);
    const dest = join(res, 'pm.csv');
    await symlink(victim, dest);
    for (const attempt of [
      () => writeFileViaPart(dest, 'evil\n', { within: res }),
      () => writeViaPart(dest, (out) => put(out, 'evil\n')),
    ]) {
      await assert.rejects(attempt(), (e: Error) => {
        assert.ok(e instanceof UnsafePathError, String(e));
        assert.match(e.message, /pm\.csv: it is a symbolic link \(to .*bashrc\)/);
        return true;
      });
    }
    assert.equal(await readFile(victim, 'utf8'), 'precious\n');
    assert.deepEqual(await readdir(res), ['pm.csv']);
  });

  it('refuses a dangling link and anything that is not a file', async () => {
    await symlink(join(dir, 'nowhere'), join(dir, 'dangling.csv'));
    await assert.rejects(writeFileViaPart(join(dir, 'dangling.csv'), 'x'), /symbolic link \(to a missing target\)/);
    await assert.rejects(writeFileViaPart(outside, 'x', { within: dir }), /outside: it is not a file/);
  });

  it('refuses a link in a parent folder that leads out of the intended folder', async () => {
    const res = join(dir, 'nb.results');
    await symlink(outside, res);
    await assert.rejects(
      writeFileViaPart(join(res, 'bashrc'), 'evil\n', { within: dir }),
      /its folder leads to .*outside, not into/,
    );
    const deeper = join(dir, 'res');
    await mkdir(deeper);
    await symlink(outside, join(deeper, 'sub'));
    await assert.rejects(writeFileViaPart(join(deeper, 'sub', 'new.csv'), 'x', { within: deeper }), UnsafePathError);
    assert.equal(await readFile(victim, 'utf8'), 'precious\n');
    assert.deepEqual(await readdir(outside), ['bashrc']);
  });

  it('refuses a `..` in a cell-chosen name', async () => {
    const res = join(dir, 'res');
    await mkdir(res);
    await assert.rejects(
      writeFileViaPart(join(res, '../outside/bashrc'), 'evil', { within: res }),
      /outside the folder/,
    );
    await assert.rejects(checkDestination(`${res}/..`, res), /not a file name/);
    assert.equal(await readFile(victim, 'utf8'), 'precious\n');
  });

  it('never follows a link planted at the .part name', async () => {
    const dest = join(dir, 'a.csv');
    await symlink(victim, `${dest}.part`);
    await writeViaPart(dest, (out) => put(out, 'mine\n'));
    assert.equal(await readFile(victim, 'utf8'), 'precious\n');
    assert.equal(await readFile(dest, 'utf8'), 'mine\n');
  });

  it('two writers of one file at once: one wins whole, the other fails clearly, no .part is left', async () => {
    const dest = join(dir, 'a.csv');
    const writer = (tag: string) =>
      writeViaPart(dest, async (out) => {
        for (let i = 0; i < 20; i++) {
          await put(out, `${tag}${i}\n`);
          await turn();
        }
      });
    const results = await Promise.allSettled([writer('a'), writer('b')]);
    const failed = results.filter((r) => r.status === 'rejected');
    assert.equal(failed.length, 1, JSON.stringify(results));
    assert.match(String((failed[0] as PromiseRejectedResult).reason), /written by someone else at the same time/);
    const text = await readFile(dest, 'utf8');
    const tag = text[0];
    assert.equal(text, Array.from({ length: 20 }, (_, i) => `${tag}${i}\n`).join(''));
    assert.deepEqual((await readdir(dir)).sort(), ['a.csv', 'outside']);
  });

  it('a writer that fails with a write still in flight: the error is thrown, no unhandled error, no .part', async () => {
    const dest = join(dir, 'a.csv');
    const unhandled: unknown[] = [];
    const onUncaught = (e: unknown) => unhandled.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      for (let i = 0; i < 20; i++) {
        await assert.rejects(
          writeViaPart(dest, async (out) => {
            out.write(Buffer.alloc(1 << 20, 0x61));
            out.write(Buffer.alloc(1 << 20, 0x62));
            throw new Error('the reply broke');
          }),
          /the reply broke/,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    assert.deepEqual(unhandled, []);
    assert.deepEqual(await readdir(dir), ['outside']);
  });

  it('restart throws away what was written and starts from an empty file', async () => {
    const dest = join(dir, 'a.csv');
    await writeViaPart(dest, async (out, restart) => {
      await put(out, 'half a reply\n');
      const fresh = await restart();
      await put(fresh, 'the whole reply\n');
    });
    assert.equal(await readFile(dest, 'utf8'), 'the whole reply\n');
    assert.deepEqual((await readdir(dir)).sort(), ['a.csv', 'outside']);
  });
});
