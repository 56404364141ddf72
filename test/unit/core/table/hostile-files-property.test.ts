// Property: whatever bytes a table file holds (random, or a valid csv, csv.gz or Parquet file cut short
// or with bytes changed), reading it gives a Table or a clear error (TableFileError, code TABLE_FILE),
// each within 2 s, in bounded memory. Inputs from a seeded generator: a failure names its seed and file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { IncompleteReplyError, MalformedReplyError } from '../../../../src/core/api/errors';
import { parseCsvWide } from '../../../../src/core/table/csv-read.node';
import { writeParquet } from '../../../../src/core/table/parquet';
import { readInChild } from '../../../support/core/read-in-child';

/** mulberry32: a small seeded PRNG (the same inputs on every run). */
function prng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const SEED = 25;

function validCsv(rows: number): string {
  const lines = ['datasourceId,time,pm2_5ConcMass.value,status,"Location, name"'];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `D${i % 9},2026-03-01T${String(i % 24).padStart(2, '0')}:00:00.000Z,${(i * 1.25).toFixed(2)},valid,"x${i}"`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * body with a few bytes changed, inserted or removed, and maybe cut short. `hot`: where most changes go;
 * then bytes are only changed in place (the footer keeps its place, so the changes reach the metadata).
 */
function mutate(body: Uint8Array, rand: (n: number) => number, hot?: [number, number]): Uint8Array {
  const out = Array.from(body);
  const edits = 1 + rand(8);
  for (let k = 0; k < edits && out.length; k++) {
    const at = hot && rand(4) > 0 ? hot[0] + rand(Math.max(1, hot[1] - hot[0])) : rand(out.length);
    const op = hot ? 2 + rand(3) : rand(5);
    if (op === 0) out.splice(at, 1);
    else if (op === 1) out.splice(at, 0, rand(256));
    else if (op === 2) out[at] = [0, 0xff, 0x7f, 0x80, 0x15, 0x2c][rand(6)];
    else out[at] = rand(256);
  }
  if (!hot && rand(4) === 0) out.length = rand(out.length + 1);
  return Uint8Array.from(out);
}

describe('core table: any bytes read as a table give a Table or a clear error, in bounded time and memory', function () {
  this.timeout(240_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-property-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(`${SEED}: 320 inputs (random, mutated csv, csv.gz and Parquet) through readTableFile in a child`, async () => {
    const rand = prng(SEED);
    const csv = Buffer.from(validCsv(400));
    const gz = gzipSync(csv);
    const parquet = writeParquet(await parseCsvWide(csv));
    // The footer (metadata) and the first page headers are where a change says most.
    const footer: [number, number] = [Math.max(0, parquet.length - 600), parquet.length - 8];
    const files: string[] = [];
    const add = (name: string, body: Uint8Array) => {
      const file = path.join(dir, `${files.length}-${name}`);
      fs.writeFileSync(file, body);
      files.push(file);
    };
    for (let i = 0; i < 40; i++) {
      const bytes = Uint8Array.from({ length: rand(4096) }, () => rand(256));
      add(['r.csv', 'r.csv.gz', 'r.parquet'][i % 3], bytes);
    }
    for (let i = 0; i < 60; i++) add('m.csv', mutate(csv, rand));
    for (let i = 0; i < 60; i++) add('m.csv.gz', mutate(gz, rand));
    for (let i = 0; i < 80; i++) add('f.parquet', mutate(parquet, rand, footer));
    for (let i = 0; i < 60; i++) add('p.parquet', mutate(parquet, rand, [0, 400]));
    for (let i = 0; i < 20; i++) add('t.parquet', parquet.subarray(0, rand(parquet.length)));
    const report = await readInChild(100, path.join(dir, '0-r.csv'), files, 200_000);
    const outcomes = new Map<string, number>();
    for (const r of report.reads) {
      outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
      assert.ok(
        r.outcome === 'table' || r.outcome.startsWith('TableFileError/TABLE_FILE'),
        `${path.basename(r.file)}: ${r.outcome} ${r.message}`,
      );
      assert.ok(r.ms < 2000, `${path.basename(r.file)} took ${r.ms.toFixed(0)} ms`);
    }
    const growth = report.peakMiB - report.baseMiB;
    assert.ok(growth < 100, `peak RSS grew ${growth.toFixed(0)} MiB over ${report.reads.length} reads`);
    // Both kinds of outcome occur: the inputs are neither all valid nor all refused.
    assert.ok(
      (outcomes.get('table') ?? 0) > 10 && report.reads.length - (outcomes.get('table') ?? 0) > 10,
      [...outcomes].join('; '),
    );
  });

  it(`${SEED}: random and mutated replies through parseCsvWide give a Table or a reply error`, async () => {
    const rand = prng(SEED + 1);
    const csv = Buffer.from(validCsv(200));
    for (let i = 0; i < 300; i++) {
      const body = i < 100 ? Uint8Array.from({ length: rand(2048) }, () => rand(256)) : mutate(csv, rand);
      try {
        await parseCsvWide(body, { complete: i % 2 === 0 });
      } catch (e) {
        assert.ok(
          e instanceof MalformedReplyError || e instanceof IncompleteReplyError,
          `input ${i}: ${(e as Error).name}: ${(e as Error).message}`,
        );
      }
    }
  });
});
