import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { liveCsvWorkers, type ParallelOptions } from '../../../../src/core/table/csv-parallel.node';
import { type CsvReadOptions, parseCsvWide } from '../../../../src/core/table/csv-read.node';
import { cellText, type Table } from '../../../../src/core/table/table';

/** Everything a Table holds: names, kinds, metadata, typed-array classes, dictionaries and every cell. */
function shape(t: Table): unknown {
  return {
    rows: t.rowCount,
    columns: t.columns.map((c) => ({
      name: c.name,
      kind: c.kind,
      canonical: c.canonical,
      metric: c.metric,
      array: ('values' in c ? c.values : c.codes).constructor.name,
      length: ('values' in c ? c.values : c.codes).length,
      dict: 'dict' in c ? c.dict : undefined,
      cells: Array.from({ length: t.rowCount }, (_, r) => cellText(c, r)),
    })),
  };
}

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEADERS = [
  'datasourceId',
  'time',
  'sourceType',
  'locationLatitude',
  'pm2_5ConcMassIndividual.value',
  'pm2_5ConcMassIndividual.qcFlags',
  'pm2_5ConcMassIndividual.qcAssessment',
  'code',
  'note',
];

/** A cell for a header: mostly what the service sends, sometimes a cell that demotes the column. */
function cell(header: string, rnd: () => number, oddness: number): string {
  const odd = rnd() < oddness;
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  switch (header) {
    case 'datasourceId':
      return pick(['D1', 'D2', 'D3', 'Dé', '', `D${Math.floor(rnd() * 50)}`]);
    case 'time':
      return odd
        ? pick(['n/a', '2026-02-30T00:00:00Z', '2026-11-01'])
        : pick([
            '2026-11-01T00:00:00Z',
            '2026-11-01T00:00:00.123Z',
            '',
            `2026-11-0${1 + Math.floor(rnd() * 9)}T10:00:00Z`,
          ]);
    case 'pm2_5ConcMassIndividual.qcFlags':
      // Unquoted cells only ([] and [ ] are one list read from two texts); lists of strings need quotes.
      return odd ? 'notjson' : pick(['', '[]', '[ ]']);
    case 'code':
      return odd ? pick(['007', 'x1']) : pick(['1', '-2.5', '', '12.0', '1e5']);
    case 'note':
      return pick(['ok', 'µg/m³', '', 'x']);
    default:
      return odd
        ? pick(['n/a', 'NaN', '1e400'])
        : pick(['1.50', '-0', '', '12345678901234567', `${Math.floor(rnd() * 1000) / 100}`, '.5', '0007']);
  }
}

/** A random csv-wide body: a random subset of headers, rows with rare short or long ones and blank lines. */
function body(rnd: () => number, options: { oddness: number; rows: number; ragged: boolean }): string {
  const headers = HEADERS.filter(() => rnd() < 0.7);
  if (!headers.length) headers.push('time');
  const lines = [headers.join(',')];
  for (let r = 0; r < options.rows; r++) {
    let cells = headers.map((h) => cell(h, rnd, options.oddness));
    if (options.ragged && rnd() < 0.01) cells = cells.slice(0, Math.max(1, cells.length - 1));
    if (options.ragged && rnd() < 0.01) cells.push('extra');
    if (rnd() < 0.01) lines.push('');
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** The bytes in chunks of random sizes (odd boundaries: mid-line, mid-cell, mid-character). */
async function* chunked(bytes: Buffer, rnd: () => number, most: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; ) {
    const n = 1 + Math.floor(rnd() * most);
    yield bytes.subarray(i, i + n);
    i += n;
  }
}

function local(rnd: () => number): Partial<ParallelOptions> {
  return {
    workers: 0,
    inline: true,
    share: rnd(),
    startAfterBytes: Math.floor(rnd() * 200),
    blockBytes: 16 + Math.floor(rnd() * 400),
  };
}

async function read(text: string, rnd: () => number, options: CsvReadOptions): Promise<Table> {
  return parseCsvWide(chunked(Buffer.from(text, 'utf8'), rnd, 300), options);
}

describe('core table: csv-wide read on two threads, split by columns (csv-parallel)', function () {
  this.timeout(120_000);

  it('gives the Table of the sequential reader for 600 random bodies, split by columns on this thread', async () => {
    let split = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const rnd = random(seed);
      const text = body(rnd, { oddness: seed % 3 === 0 ? 0.002 : 0, rows: 20 + Math.floor(rnd() * 200), ragged: true });
      const expected = shape(await parseCsvWide(text));
      const parallel = { ...local(rnd), onStats: () => split++ };
      assert.deepEqual(shape(await read(text, rnd, { parallel })), expected, `seed ${seed}`);
    }
    assert.ok(split > 500, `most reads were split (${split})`);
  });

  it('gives the same Table through a worker thread, demotions and all', async () => {
    let blocks = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const rnd = random(1000 + seed);
      const text = body(rnd, { oddness: seed % 2 ? 0.003 : 0, rows: 300 + Math.floor(rnd() * 600), ragged: true });
      const expected = shape(await parseCsvWide(text));
      const parallel: Partial<ParallelOptions> = {
        workers: 1,
        buffers: 1 + (seed % 4),
        share: rnd(),
        startAfterBytes: Math.floor(rnd() * 2000),
        blockBytes: 64 + Math.floor(rnd() * 2000),
        waitForWorkers: true,
        onStats: (s) => {
          blocks += s.blocks;
        },
      };
      assert.deepEqual(shape(await read(text, rnd, { parallel })), expected, `seed ${1000 + seed}`);
    }
    assert.ok(blocks > 50, `blocks went to the worker (${blocks})`);
    await sleep(50);
    assert.equal(liveCsvWorkers(), 0, 'every worker ended with its read');
  });

  it('hands quoted lines and carriage returns back to csv-parse, after the blocks before them', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = random(2000 + seed);
      const plain = body(rnd, { oddness: 0.002, rows: 200, ragged: false });
      const tail = seed % 2 ? 'D9,"a, b",1\nD10,x,"say ""hi"""\n' : 'D9,x,1\r\nD10,y,2\r\n';
      const text = `${plain}${tail}${plain.slice(plain.indexOf('\n') + 1)}`;
      const expected = shape(await parseCsvWide(text));
      const options =
        seed % 10 ? local(rnd) : { workers: 1, startAfterBytes: 0, blockBytes: 256, waitForWorkers: true };
      assert.deepEqual(shape(await read(text, rnd, { parallel: options })), expected, `seed ${2000 + seed}`);
    }
  });

  it('a complete reply cut short or with a row of another width fails with IncompleteReplyError, in any block', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rnd = random(3000 + seed);
      const whole = body(rnd, { oddness: 0, rows: 400, ragged: false });
      const lines = whole.split('\n');
      const at = 1 + Math.floor(rnd() * (lines.length - 2));
      const wrong = [...lines.slice(0, at), `${lines[at]},1`, ...lines.slice(at + 1)].join('\n');
      const options: Partial<ParallelOptions> =
        seed % 10 ? local(rnd) : { workers: 1, startAfterBytes: 0, blockBytes: 200, waitForWorkers: true };
      const complete = { complete: true, parallel: options };
      assert.deepEqual(
        shape(await read(whole, rnd, complete)),
        shape(await parseCsvWide(whole)),
        `seed ${3000 + seed}`,
      );
      await assert.rejects(read(whole.slice(0, -2), rnd, complete), { name: 'IncompleteReplyError' });
      await assert.rejects(read(wrong, rnd, complete), { name: 'IncompleteReplyError' });
    }
    await sleep(50);
    assert.equal(liveCsvWorkers(), 0);
  });

  it('a body that fails or is cancelled mid-way ends its workers', async () => {
    const rnd = random(7);
    const text = Buffer.from(body(rnd, { oddness: 0, rows: 3000, ragged: false }));
    const failing = Readable.from(
      (async function* () {
        yield* chunked(text.subarray(0, text.length / 2), rnd, 500);
        await sleep(20);
        throw new Error('connection reset');
      })(),
    );
    const parallel = { workers: 1, startAfterBytes: 0, blockBytes: 512, waitForWorkers: true };
    const read = parseCsvWide(failing, { complete: true, parallel });
    await sleep(10);
    assert.ok(liveCsvWorkers() > 0, 'workers are reading');
    await assert.rejects(read, /connection reset/);
    await sleep(50);
    assert.equal(liveCsvWorkers(), 0, 'none left behind');
  });

  it('a small body never starts a worker', async () => {
    const rnd = random(8);
    const text = body(rnd, { oddness: 0, rows: 50, ragged: false });
    let stats: unknown;
    await read(text, rnd, { parallel: { workers: 1, onStats: (s) => (stats = s) } });
    assert.equal(stats, undefined);
    assert.equal(liveCsvWorkers(), 0);
  });
});
