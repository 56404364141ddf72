// Hostile table files (issue 25, section 2): what a cloned repository may hold where a report file is
// expected. Each is refused with a clear error, in bounded time and memory, and leaves the process
// usable (libuv's threadpool free). Memory is measured in a child process of its own (its peak RSS).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { InputLimitError, TableFileError } from '../../../../src/core/api/errors';
import { readTableFile } from '../../../../src/core/sql/file-read.node';
import { readInChild } from '../../../support/core/read-in-child';

const HEADER = 'datasourceId,time,pm2_5ConcMass.value\n';
const rows = (n: number, from = 0) =>
  Array.from(
    { length: n },
    (_, i) => `D${(from + i) % 7},2026-03-01T00:${String((from + i) % 60).padStart(2, '0')}:00.000Z,${i}.5\n`,
  ).join('');

/** `count` copies of one gzip member of `member` decoded bytes: a gzip stream of count × member bytes, made fast. */
function gzipMembers(member: Buffer, count: number): Buffer {
  const one = gzipSync(member, { level: 9 });
  return Buffer.concat(Array.from({ length: count }, () => one));
}

describe('core table: hostile table files are refused in bounded time and memory', function () {
  this.timeout(60_000);
  let dir: string;
  const fifos: string[] = [];
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-hostile-'));
  });
  after(() => {
    // A reader left waiting in open() on a FIFO (the code before this fix) is released by a writer.
    for (const f of fifos) {
      try {
        fs.closeSync(fs.openSync(f, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
      } catch {
        // no reader waiting
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const at = (name: string) => path.join(dir, name);
  const write = (name: string, body: string | Uint8Array) => {
    fs.writeFileSync(at(name), body);
    return at(name);
  };

  const refused = (pattern: RegExp) => (e: unknown) => {
    assert.ok(e instanceof TableFileError, `a TableFileError, not ${(e as Error)?.name}: ${(e as Error)?.message}`);
    assert.equal(e.code, 'TABLE_FILE');
    assert.match(e.message, pattern);
    return true;
  };

  it('a link to /dev/zero (.csv.gz and .csv) is refused as a device before any read', async function () {
    if (!fs.existsSync('/dev/zero') || process.platform === 'win32') this.skip();
    for (const name of ['zero.csv.gz', 'zero.csv', 'zero.parquet']) {
      fs.symlinkSync('/dev/zero', at(name));
      await assert.rejects(
        readTableFile(at(name), { maxRows: 10 }),
        refused(
          new RegExp(`^${name.replace('.', '\\.')} is a device \\(through a symbolic link\\), not a regular file`),
        ),
      );
    }
  });

  it('a FIFO, a link to one, a folder: refused; the threadpool stays free (a later readFile completes)', async function () {
    if (process.platform === 'win32') this.skip();
    // Four (libuv's default threadpool size) FIFOs read at once: an open() waiting for a writer holds a thread each.
    for (let i = 0; i < 4; i++) {
      const fifo = at(`pipe${i}.csv`);
      execFileSync('mkfifo', [fifo]);
      fifos.push(fifo);
    }
    fs.symlinkSync(fifos[0], at('link-to-pipe.csv.gz'));
    fs.mkdirSync(at('folder.csv'));
    const reads = [
      ...fifos.map((f) => assert.rejects(readTableFile(f, { maxRows: 10 }), refused(/is a named pipe \(FIFO\), not/))),
      assert.rejects(
        readTableFile(at('link-to-pipe.csv.gz'), { maxRows: 10 }),
        refused(/is a named pipe \(FIFO\) \(through a symbolic link\)/),
      ),
      assert.rejects(readTableFile(at('folder.csv'), { maxRows: 10 }), refused(/^folder\.csv is a folder, not/)),
    ];
    const settled = Promise.all(reads);
    const later = fs.promises.readFile(write('after.csv', HEADER + rows(3)), 'utf8');
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('blocked: no answer in 5 s')), 5000));
    await Promise.race([Promise.all([settled, later]), timeout]);
    assert.equal(await later, HEADER + rows(3));
  });

  it('a link to a regular file still opens', async () => {
    fs.symlinkSync(write('real.csv', HEADER + rows(5)), at('link-to-real.csv'));
    const r = await readTableFile(at('link-to-real.csv'), { maxRows: 10 });
    assert.equal(r.table.rowCount, 5);
  });

  it('a line past 16 MiB (plain, in a gzip, quoted) is refused naming the limit; 16 MiB - 1 is read', async () => {
    const long = Buffer.alloc(16 * 1024 * 1024 + 2, 'x'.charCodeAt(0));
    const cases = {
      'long-line.csv': Buffer.concat([Buffer.from(HEADER), long, Buffer.from('\n')]),
      'long-line.csv.gz': gzipSync(Buffer.concat([Buffer.from(HEADER), long])),
      'long-quoted.csv': Buffer.concat([Buffer.from(`${HEADER}"`), long, Buffer.from('"\n')]),
      'long-header.csv': Buffer.concat([long, Buffer.from(`\n${rows(2)}`)]),
    };
    for (const [name, body] of Object.entries(cases)) {
      await assert.rejects(readTableFile(write(name, body), { maxRows: 10 }), (e: unknown) => {
        refused(/a line is longer than 16 MiB, the most a line may have/)(e);
        const cause = (e as TableFileError).cause;
        assert.ok(cause instanceof InputLimitError, name);
        assert.equal(cause.code, 'INPUT_LIMIT');
        assert.equal(cause.limit, 'line-bytes');
        return true;
      });
    }
    const ok = Buffer.alloc(16 * 1024 * 1024 - 1, '7'.charCodeAt(0));
    const r = await readTableFile(
      write('just-fits.csv', Buffer.concat([Buffer.from('n\n1\n'), ok, Buffer.from('\n2\n')])),
      {
        maxRows: 10,
      },
    );
    assert.equal(r.totalRows, 3);
  });

  it('a header of more than 10,000 columns is refused naming the limit; 10,000 columns are read', async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`).join(',');
    for (const [name, header] of [
      ['wide.csv', names(10_001)],
      ['wide-empty.csv', ','.repeat(5_000_000)],
      ['wide-quoted.csv', `"a",${names(10_001)}`],
    ]) {
      await assert.rejects(readTableFile(write(name, `${header}\n1\n`), { maxRows: 10 }), (e: unknown) => {
        refused(/columns, more than the 10,000 a table may have/)(e);
        assert.equal(((e as TableFileError).cause as InputLimitError).limit, 'columns');
        return true;
      });
    }
    const r = await readTableFile(write('widest.csv', `${names(10_000)}\n1,2\n`), { maxRows: 10 });
    assert.equal(r.table.columns.length, 10_000);
  });

  it('a file of many columns keeps no more than 50,000,000 cells: fewer rows than maxRows, and says so', async () => {
    const header = Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',');
    const empty = `${','.repeat(9_999)}\n`;
    const file = write('many-cells.csv', `${header}\n${empty.repeat(5_100)}`);
    const r = await readTableFile(file, { maxRows: 250_000 });
    assert.equal(r.table.rowCount, 5_000, '50,000,000 cells of 10,000 columns');
    assert.equal(r.totalRows, 5_100, 'the rest counted');
    assert.equal(r.sizeLimited, true);
    const small = await readTableFile(write('few-cells.csv', `${header}\n${empty.repeat(10)}`), { maxRows: 5 });
    assert.equal(small.table.rowCount, 5);
    assert.equal(small.sizeLimited, false, 'cut by maxRows, not by size');
  });

  it('gzip bombs (1 GiB of zeros, 1 GiB of line ends, in ~1 MB) fail fast with bounded memory', async () => {
    const MiB = 1024 * 1024;
    const zeros = write('zeros.csv.gz', gzipMembers(Buffer.alloc(16 * MiB), 64));
    const lineEnds = write('line-ends.csv.gz', gzipMembers(Buffer.alloc(16 * MiB, 10), 64));
    // Sparse but real-looking: a header, then rows of 300 empty cells (95:1), 96 MiB: not a bomb.
    const sparse = Buffer.from(`2026-03-01T00:00:00.000Z${','.repeat(300)}\n`.repeat(4096));
    const real = write('sparse.csv.gz', gzipMembers(Buffer.concat([Buffer.from(HEADER), sparse]), 1));
    const many = write('sparse-many.csv.gz', Buffer.concat([fs.readFileSync(real), gzipMembers(sparse, 72)]));
    assert.ok(fs.statSync(zeros).size < 1.1 * MiB && fs.statSync(lineEnds).size < 1.1 * MiB);
    const report = await readInChild(1000, write('warm.csv', HEADER + rows(2000)), [zeros, lineEnds, many], 30_000);
    const [z, l, s] = report.reads;
    assert.match(z.outcome, /^TableFileError\/TABLE_FILE <- InputLimitError\/INPUT_LIMIT$/);
    assert.match(z.message ?? '', /a line is longer than 16 MiB/);
    assert.match(l.outcome, /InputLimitError\/INPUT_LIMIT$/);
    assert.match(l.message ?? '', /the gzip data expands more than 250 times .* refused as a gzip bomb/);
    assert.equal(s.outcome, 'table', `the sparse file is read: ${s.message}`);
    for (const r of [z, l]) assert.ok(r.ms < 5000, `${path.basename(r.file)}: ${r.ms.toFixed(0)} ms`);
    const growth = report.peakMiB - report.baseMiB;
    assert.ok(
      growth < 120,
      `peak RSS grew ${growth.toFixed(0)} MiB (${report.baseMiB.toFixed(0)} -> ${report.peakMiB.toFixed(0)})`,
    );
  });
});
