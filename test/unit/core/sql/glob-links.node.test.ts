// The walk that checks a sql cell's glob for links out (core/sql/glob-links.node.ts) counts the files
// DuckDB's own glob() matches, on the same tree: the bound of 10,000 files means the same as before.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { asAllowedDir } from '../../../../src/core/sql/confine.node';
import { globRegExp, globRoot, walkGlob } from '../../../../src/core/sql/glob-links.node';

describe('core sql glob-links: the walk of a glob', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'measnb-glob-')));
    for (const p of ['a=1/x', 'a=1/y', 'a=2/x', 'b=1/x', 'a=10/deep/z']) await mkdir(join(dir, p), { recursive: true });
    const files = ['a=1/x/p.parquet', 'a=1/x/q.csv', 'a=1/y/p.parquet', 'a=2/x/p.parquet', 'b=1/x/p.parquet'];
    for (const f of [...files, 'a=10/deep/z/p.parquet', 'top.parquet', 'a=1/p1.parquet'])
      await writeFile(join(dir, f), '');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('globRoot: the leading folders without a wildcard, then the segments', () => {
    assert.deepEqual(globRoot('/data/arch/frequency=hour/*/x.parquet'), {
      root: join('/data/arch/frequency=hour'),
      rest: ['*', 'x.parquet'],
    });
    assert.deepEqual(globRoot('/data/**/*.csv').rest, ['**', '*.csv']);
  });

  it('globRegExp: * and ? stay in a segment, [..] and [!..] are classes, ** spans folders, {..} matches any name', () => {
    assert.ok(globRegExp(['*', '*.parquet']).test('a=1/p.parquet'));
    assert.ok(!globRegExp(['*', '*.parquet']).test('a=1/x/p.parquet'));
    assert.ok(globRegExp(['a=?', 'x']).test('a=1/x'));
    assert.ok(globRegExp(['a=[12]']).test('a=2') && !globRegExp(['a=[12]']).test('a=3'));
    assert.ok(globRegExp(['a=[!1]']).test('a=3') && !globRegExp(['a=[!1]']).test('a=1'));
    assert.ok(globRegExp(['**', '*.parquet']).test('top.parquet'));
    assert.ok(globRegExp(['**', '*.parquet']).test('a/b/c/top.parquet'));
    assert.ok(globRegExp(['**']).test('a/b/c/top.parquet') && globRegExp(['**']).test('top.parquet'));
    assert.ok(globRegExp(['{a,b}.csv']).test('c.csv'), 'a superset: more is checked, never less');
    assert.ok(globRegExp(['a.(csv)+']).test('a.(csv)+') && !globRegExp(['a.(csv)+']).test('axcsv'));
  });

  it("counts the files DuckDB's glob() matches, for each kind of pattern", async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const patterns = [
        '*/*/*.parquet',
        'a=*/x/*',
        'a=?/*/*.parquet',
        'a=[12]/*/p.parquet',
        '**/*.parquet',
        '*.parquet',
        '**',
        'a=1/**',
      ];
      for (const p of patterns) {
        const pattern = join(dir, p);
        const r = await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM glob('${pattern}')`);
        const duck = Number(r.getRowObjectsJS()[0].n);
        const walk = await walkGlob(pattern, [asAllowedDir(dir)], { maxFiles: 100, maxEntries: 1000 });
        assert.deepEqual(walk, { kind: 'ok', files: duck }, p);
      }
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });

  it('stops at its bounds: files matched, then folder entries read', async () => {
    const pattern = join(dir, '**', '*.parquet');
    assert.deepEqual(await walkGlob(pattern, [asAllowedDir(dir)], { maxFiles: 3, maxEntries: 1000 }), {
      kind: 'too-many-files',
    });
    assert.deepEqual(await walkGlob(pattern, [asAllowedDir(dir)], { maxFiles: 100, maxEntries: 5 }), {
      kind: 'too-many-entries',
    });
    assert.deepEqual(await walkGlob(join(dir, 'none', '*'), [asAllowedDir(dir)], { maxFiles: 1, maxEntries: 1 }), {
      kind: 'ok',
      files: 0,
    });
  });
});
