import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { InputLimitError } from '../../../../src/core/api/errors';
import { writeWholeLines } from '../../../../src/core/io/line-stream.node';

function sink(): { dest: Writable; written: () => Buffer } {
  const out: Buffer[] = [];
  const dest = new Writable({
    write(c: Buffer, _e, cb) {
      out.push(c);
      cb();
    },
  });
  return { dest, written: () => Buffer.concat(out) };
}

describe('core api: writeWholeLines', () => {
  it('copies whole lines; a body ending mid-line is an incomplete reply', async () => {
    const { dest, written } = sink();
    const n = await writeWholeLines(Readable.from([Buffer.from('a,b\n1,'), Buffer.from('2\n')]), dest, () => undefined);
    assert.equal(n, 8);
    assert.equal(written().toString(), 'a,b\n1,2\n');
    await assert.rejects(
      writeWholeLines(Readable.from([Buffer.from('a,b\n1,2')]), sink().dest, () => undefined),
      { code: 'INCOMPLETE_REPLY' },
    );
  });

  it('a reply without line ends is refused once its line passes 16 MiB (nothing held beyond it)', async () => {
    const MiB = 1024 * 1024;
    let pulled = 0;
    // 1 GiB of bytes without a line end, made as they are read.
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < 1024; i++) {
          pulled++;
          yield Buffer.alloc(MiB, 'x'.charCodeAt(0));
        }
      })(),
    );
    const { dest, written } = sink();
    await assert.rejects(
      writeWholeLines(body, dest, () => undefined),
      (e: unknown) => {
        assert.ok(e instanceof InputLimitError);
        assert.equal(e.limit, 'line-bytes');
        assert.match(e.message, /a line is longer than 16 MiB/);
        return true;
      },
    );
    assert.ok(pulled <= 18, `read ${pulled} MiB before refusing`);
    assert.equal(written().length, 0, 'no partial line written');
  });
});
