// A sql cell from someone else's notebook, tried as an attacker would, on the real DuckDB: it reads the
// notebook's results and the files in its folder, nothing more (issue 25, section 1).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBExtractedStatements } from '@duckdb/node-api';
import { EngineQueryError } from '../../../../src/core/api/errors';
import { memoryLimit } from '../../../../src/core/sql/confine.node';
import { SqlEngine } from '../../../../src/core/sql/engine.node';
import { SqlSession } from '../../../../src/core/sql/session.node';
import { cellText, type Table } from '../../../../src/core/table/table';

function texts(table: Table): string[][] {
  return Array.from({ length: table.rowCount }, (_, r) => table.columns.map((c) => cellText(c, r)));
}

describe('sql cells are confined to the notebook folder (real DuckDB)', function () {
  this.timeout(60_000);
  let root: string;
  let nb: string;
  let session: SqlSession;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'measnb-confine-'));
    nb = join(root, 'nb');
    await mkdir(join(nb, 'sub'), { recursive: true });
    await mkdir(join(root, 'outside'));
    await mkdir(join(root, 'granted'));
    await mkdir(join(root, 'reports'));
    await writeFile(join(nb, 'data.csv'), 'k,v\na,1\nb,2\n');
    await writeFile(join(nb, 'sub', 'more.csv'), 'k,v\nc,3\n');
    await writeFile(join(root, 'secret.txt'), 'ssh-private-key\n');
    await writeFile(join(root, 'secret.csv'), 'k\nssh-private-key\n');
    await writeFile(join(root, 'granted', 'g.csv'), 'k,v\ng,7\n');
    await writeFile(join(root, 'reports', 'r.csv'), 'k,v\nr,9\n');
  });
  beforeEach(() => {
    session = new SqlSession();
  });
  afterEach(() => session.dispose());
  after(() => rm(root, { recursive: true, force: true }));

  const query = (sql: string, s = session) => s.query(sql, { baseDir: nb });
  const refused = async (sql: string, pattern: RegExp, s = session) =>
    assert.rejects(query(sql, s), (e: unknown) => {
      assert.ok(e instanceof EngineQueryError, String(e));
      assert.match(e.message, pattern);
      return true;
    });
  const OUTSIDE = /Cannot access file .*notebook's folder.*measurements\.sql\.allowedDirectories.*--sql-allow-dir/;

  it('reads files beside the notebook by relative names: readers, lists, globs, FROM a quoted file name', async () => {
    assert.deepEqual(texts(await query("SELECT * FROM 'data.csv' ORDER BY k")), [
      ['a', '1'],
      ['b', '2'],
    ]);
    assert.deepEqual(texts(await query("FROM read_csv(['data.csv', 'sub/more.csv']) ORDER BY k")).length, 3);
    assert.deepEqual(texts(await query("SELECT count(*) FROM glob('**/*.csv')")), [['2']]);
    assert.deepEqual(texts(await query("FROM read_csv('sub/more.csv'); SELECT 'last' AS x")), [['last']]);
    assert.deepEqual(texts(await query("SELECT * FROM \"data.csv\" WHERE k = 'it''s' OR v = 2")), [['b', '2']]);
  });

  it('refuses files outside the notebook folder, however named: ../, absolute, /etc/passwd, ~, computed, globs', async () => {
    await refused("FROM read_csv('../secret.txt', header=false)", OUTSIDE);
    await refused(`FROM read_csv('${join(root, 'secret.txt')}', header=false)`, OUTSIDE);
    await refused(`FROM read_csv('${join(nb, '..', 'secret.txt')}', header=false)`, OUTSIDE);
    await refused("FROM read_csv('/etc/passwd', header=false)", OUTSIDE);
    await refused("FROM read_text('~/.ssh/id_rsa')", OUTSIDE);
    const COMPUTED = /^read_csv\(\): a sql cell names its files as written text/;
    await refused("FROM read_csv('..' || '/secret.txt', header=false)", COMPUTED);
    await refused("FROM read_csv(getvariable('p'))", COMPUTED);
    await refused("FROM read_csv(['data.csv', 'da' || 'ta.csv'])", COMPUTED);
    await refused("SELECT * FROM query('SELECT * FROM read_csv(''data.csv'')')", /^query\(\) is not run/);
    await refused("SELECT * FROM glob('/etc/*')", OUTSIDE);
    await refused("SELECT * FROM glob('../*')", OUTSIDE);
    await refused("SELECT * FROM '../secret.csv'", OUTSIDE);
  });

  it('refuses every statement that is not a read, before anything runs, naming it and what to do instead', async () => {
    const cases: [string, string][] = [
      ["COPY (SELECT 'x') TO '../outside/x.csv'", 'COPY'],
      ["COPY (SELECT 'x') TO 'beside.csv'", 'COPY'],
      [`EXPORT DATABASE '${join(root, 'outside', 'db')}'`, 'EXPORT DATABASE'],
      [`ATTACH '${join(root, 'outside', 'x.duckdb')}'`, 'ATTACH'],
      ["ATTACH 'here.duckdb'", 'ATTACH'],
      ['SET autoinstall_known_extensions = true', 'SET'],
      ['SET enable_external_access = true', 'SET'],
      ["SET VARIABLE p = '/etc/passwd'", 'SET'],
      ["INSTALL httpfs FROM 'http://127.0.0.1:9/'", 'INSTALL'],
      ['LOAD httpfs', 'INSTALL or LOAD'],
      ['PRAGMA enable_profiling', 'PRAGMA'],
      ['CREATE TABLE t AS SELECT 1', 'CREATE'],
      ['CREATE MACRO m(a) AS a', 'CREATE'],
      ["SELECT 1; COPY (SELECT 1) TO 'second.csv'", 'COPY'],
      ["EXPLAIN ANALYZE COPY (SELECT 1) TO 'analyzed.csv'", 'EXPLAIN ANALYZE'],
      ['CALL pragma_version()', 'CALL'],
    ];
    for (const [sql, label] of cases) {
      await query(sql).then(
        () => assert.fail(`${sql} ran`),
        (e: Error) => assert.match(e.message, new RegExp(`^${label}.* is not run in a sql cell`), sql),
      );
    }
    await refused("COPY (SELECT 'x') TO 'beside.csv'", /Save \(measnb run: --results\)/);
    assert.deepEqual((await readdir(join(root, 'outside'))).sort(), []);
    assert.deepEqual((await readdir(nb)).sort(), ['data.csv', 'sub']);
    assert.equal(existsSync(join(process.cwd(), 'here.duckdb')), false);
  });

  it('refuses a file name beside the notebook that is a link out of it (a repository can hold one)', async () => {
    const links = join(nb, 'links');
    await mkdir(links);
    try {
      await symlink(join(root, 'secret.csv'), join(links, 'data.csv'));
      await symlink(join(root, 'outside'), join(links, 'dir'));
      await writeFile(join(root, 'outside', 'o.csv'), 'k\nout\n');
      const LINK = /^".*" is a link to a file outside \(a sql cell reads only files in the notebook's folder/;
      await refused("FROM 'links/data.csv'", LINK);
      await refused("FROM read_csv('links/dir/o.csv')", LINK);
      await refused(`FROM read_csv(['data.csv', '${join(links, 'data.csv')}'])`, LINK);
      await refused("FROM read_csv('links/**/*.csv')", LINK);
      await refused("SELECT 1; EXPLAIN SELECT * FROM read_csv('links/data.csv')", LINK);
      // A link inside the folder stays readable.
      await symlink(join(nb, 'data.csv'), join(links, 'ok.csv'));
      await rm(join(links, 'data.csv'));
      await rm(join(links, 'dir'));
      assert.equal((await query("FROM read_csv('links/*.csv')")).rowCount, 2);
    } finally {
      await rm(links, { recursive: true, force: true });
      await rm(join(root, 'outside', 'o.csv'), { force: true });
    }
  });

  it('checks every file a wide glob matches, the link out among hundreds of files as much as the first', async () => {
    // The link check resolves globbed files in batches (an archive's glob matches thousands): the one link
    // out is the last of 600 files, past the first batch, in a folder of its own.
    const wide = join(nb, 'wide');
    try {
      for (let d = 0; d < 600; d++) {
        await mkdir(join(wide, `p=${String(d).padStart(3, '0')}`), { recursive: true });
        if (d < 599) await writeFile(join(wide, `p=${String(d).padStart(3, '0')}`, 'x.csv'), 'k,v\na,1\n');
      }
      await symlink(join(root, 'secret.csv'), join(wide, 'p=599', 'x.csv'));
      await refused("FROM read_csv('wide/*/x.csv')", /^"[^"]*p=599[/\\]x\.csv" is a link to a file outside/);
      await rm(join(wide, 'p=599', 'x.csv'));
      assert.equal((await query("SELECT count(*) AS n FROM read_csv('wide/*/x.csv')")).rowCount, 1);
    } finally {
      await rm(wide, { recursive: true, force: true });
    }
  });

  it("a glob's tree is walked once: a link out deep in it (a folder or a file) is refused, a tree without links read", async () => {
    // The archive's layout: key=value folders four deep. The walk reads each folder's entries with their
    // types and resolves only the links it finds (glob-links.node.ts).
    const tree = join(nb, 'tree');
    const part = (d: number, m: number) => join(tree, 'frequency=hour', `ds=D${d}`, 'year=2025', `month=0${m}`);
    const LINK = /^"(.*)" is a link to a file outside/;
    const linkIn = (dir: string) => (e: unknown) => {
      assert.ok(e instanceof EngineQueryError, String(e));
      assert.equal(LINK.exec(e.message)?.[1], dir);
      return true;
    };
    try {
      for (let d = 0; d < 4; d++)
        for (let m = 1; m <= 3; m++) {
          await mkdir(part(d, m), { recursive: true });
          await writeFile(join(part(d, m), 'part-0.csv'), `k,v\nd${d}m${m},${d * 10 + m}\n`);
        }
      const all = "SELECT count(*) AS n, sum(v) AS s FROM read_csv('tree/frequency=hour/*/*/*/*.csv')";
      const deep = "SELECT count(*) AS n FROM read_csv('tree/**/*.csv')";
      assert.deepEqual(texts(await query(all)), [['12', '204']]);
      assert.deepEqual(texts(await query(deep)), [['12']]);
      // A folder deep in the tree that is a link out: its files look like any other partition's.
      await writeFile(join(root, 'outside', 'part-0.csv'), 'k,v\nout,1000\n');
      await symlink(join(root, 'outside'), join(tree, 'frequency=hour', 'ds=D3', 'year=2025', 'month=04'));
      const dirLink = join(tree, 'frequency=hour', 'ds=D3', 'year=2025', 'month=04');
      await assert.rejects(query(all), linkIn(dirLink));
      await assert.rejects(query(deep), linkIn(dirLink));
      await assert.rejects(query("FROM glob('tree/**')"), linkIn(dirLink));
      await rm(dirLink);
      // A file that is a link out, in the last folder of the walk.
      const fileLink = join(part(2, 3), 'part-1.csv');
      await symlink(join(root, 'secret.csv'), fileLink);
      await assert.rejects(query(all), linkIn(fileLink));
      await assert.rejects(query(deep), linkIn(fileLink));
      await rm(fileLink);
      // A link to a folder inside the notebook's folder is followed, and a link out behind it found.
      const elsewhere = join(nb, 'elsewhere');
      await mkdir(elsewhere);
      await writeFile(join(elsewhere, 'part-0.csv'), 'k,v\nelsewhere,100\n');
      const inLink = join(tree, 'frequency=hour', 'ds=D1', 'year=2025', 'month=09');
      await symlink(elsewhere, inLink);
      assert.deepEqual(texts(await query(all)), [['13', '304']]);
      await symlink(join(root, 'secret.csv'), join(elsewhere, 'z.csv'));
      await assert.rejects(query(all), linkIn(join(inLink, 'z.csv')));
      await assert.rejects(query(deep), linkIn(join(inLink, 'z.csv')));
      await rm(join(elsewhere, 'z.csv'));
      // A link out the glob cannot reach (another frequency's folder) is left alone.
      await symlink(join(root, 'outside'), join(tree, 'frequency=day'));
      assert.deepEqual(texts(await query(all)), [['13', '304']]);
    } finally {
      await rm(join(nb, 'elsewhere'), { recursive: true, force: true });
      await rm(tree, { recursive: true, force: true });
      await rm(join(root, 'outside', 'part-0.csv'), { force: true });
    }
  });

  it('one SELECT without parameters runs as written, not prepared first (a prepared statement reading files binds, and lists a glob, again when run)', async () => {
    const proto = DuckDBExtractedStatements.prototype;
    const original = proto.prepare;
    // The cell's statements (no parameters here), not the engine's own json_serialize_sql($1) of the text.
    let prepared = 0;
    proto.prepare = async function (this: DuckDBExtractedStatements, index: number) {
      const statement = await original.call(this, index);
      if (statement.parameterCount === 0) prepared++;
      return statement;
    };
    try {
      assert.deepEqual(texts(await query("SELECT count(*) AS n FROM read_csv('sub/*.csv')")), [['1']]);
      assert.equal(prepared, 0);
      // Several statements (or $parameters) are still prepared, each checked to be a read before any runs.
      assert.deepEqual(texts(await query("SELECT 1; SELECT count(*) AS n FROM read_csv('sub/*.csv')")), [['1']]);
      assert.equal(prepared, 2);
      await refused("COPY (SELECT 1) TO 'x.csv'", /^COPY is not run in a sql cell/);
    } finally {
      proto.prepare = original;
    }
  });

  it('a glob matching more than 10,000 files is refused before DuckDB lists them', async () => {
    const many = join(nb, 'many');
    try {
      for (let d = 0; d < 11; d++) {
        await mkdir(join(many, `d${d}`), { recursive: true });
        await Promise.all(Array.from({ length: 1000 }, (_, i) => writeFile(join(many, `d${d}`, `${i}.csv`), '')));
      }
      await refused("SELECT count(*) FROM glob('many/*/*.csv')", /matches more than 10000 files/);
      assert.deepEqual(texts(await query("SELECT count(*) FROM glob('many/d1*/*.csv')")), [['2000']]);
    } finally {
      await rm(many, { recursive: true, force: true });
    }
  });

  it('runs the read forms: WITH, DESCRIBE, SUMMARIZE, EXPLAIN', async () => {
    session.hold('pm', { kind: 'files', files: [join(nb, 'data.csv')], format: 'csv' });
    assert.deepEqual(texts(await query('WITH x AS (SELECT k FROM pm) SELECT count(*) FROM x')), [['2']]);
    assert.deepEqual(
      texts(await query('DESCRIBE pm')).map((r) => r[0]),
      ['k', 'v'],
    );
    assert.equal((await query('SUMMARIZE pm')).rowCount, 2);
    assert.ok((await query('EXPLAIN SELECT * FROM pm')).rowCount >= 1);
    assert.ok((await query("SELECT 1; EXPLAIN SELECT * FROM 'data.csv'")).rowCount >= 1);
    assert.deepEqual(texts(await query("PIVOT 'data.csv' ON k IN ('a', 'b') USING sum(v)")), [['1', '2']]);
    await refused("PIVOT 'data.csv' ON k USING sum(v)", /^PIVOT without an IN list .*ON col IN \('a', 'b'\)/);
  });

  it('opens DuckDB with external access off, its settings locked, extensions neither installed nor loaded, a memory limit', async () => {
    const settings = await query(
      "SELECT current_setting('enable_external_access'), current_setting('lock_configuration'), " +
        "current_setting('autoinstall_known_extensions'), current_setting('autoload_known_extensions'), " +
        "current_setting('allow_community_extensions')",
    );
    assert.deepEqual(texts(settings), [['false', 'true', 'false', 'false', 'false']]);
    const limit = texts(await query("SELECT current_setting('memory_limit')"))[0][0];
    assert.match(limit, /^\d+(\.\d+)? (MiB|GiB)$/);
    assert.ok(Number.parseFloat(limit) * (limit.endsWith('GiB') ? 1024 : 1) <= 4096, limit);
  });

  it('spills to a folder of its own in tempRoot, removed when the session ends', async () => {
    const tempRoot = join(root, 'spill');
    const s = new SqlSession({ tempRoot });
    const [[dir]] = texts(await query("SELECT current_setting('temp_directory')", s));
    assert.ok(dir.startsWith(join(tempRoot, 'measnb-sql-')), dir);
    assert.deepEqual(await readdir(tempRoot), [dir.slice(tempRoot.length + 1)]);
    s.dispose();
    for (let i = 0; i < 100 && (await readdir(tempRoot)).length; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(await readdir(tempRoot), []);
  });

  it('a query past the memory limit fails with a clear error instead of growing', async () => {
    const small = new SqlSession({ memoryLimit: '64MB' });
    try {
      await refused(
        "SELECT length(string_agg(repeat('x', 1000), '')) FROM range(1000000)",
        /^Out of memory Error: .*the sql memory limit is 64MB: the user setting measurements\.sql\.memoryLimit/,
        small,
      );
    } finally {
      small.dispose();
    }
  });

  it('memoryLimit: 25% of RAM at most 4 GB by default; a setting is a size, else a clear error', () => {
    assert.equal(memoryLimit(undefined, 8 * 1024 ** 3), '2048MiB');
    assert.equal(memoryLimit('', 64 * 1024 ** 3), '4096MiB');
    assert.equal(memoryLimit(' 2 GB '), '2GB');
    assert.throws(() => memoryLimit('80%'), /not a size like 2GB/);
    assert.throws(() => memoryLimit("1GB'; SET x=1"), /not a size like 2GB/);
  });

  it('the user may grant more folders; held report files are read wherever they were downloaded', async () => {
    const g = join(root, 'granted', 'g.csv');
    await refused(`FROM '${g}'`, OUTSIDE);
    const wide = new SqlSession({ allowedDirectories: [join(root, 'granted')] });
    try {
      assert.deepEqual(texts(await query(`FROM '${g}'`, wide)), [['g', '7']]);
      await refused("FROM read_csv('../secret.txt')", OUTSIDE, wide);
    } finally {
      wide.dispose();
    }
    session.hold('t', { kind: 'files', files: [join(nb, 'data.csv')], format: 'csv' });
    assert.equal((await query('FROM t')).rowCount, 2);
    // A report downloaded after the engine opened, outside every granted folder: still readable as its name.
    session.hold('r', { kind: 'files', files: [join(root, 'reports', 'r.csv')], format: 'csv' });
    assert.deepEqual(texts(await query('SELECT * FROM r UNION ALL SELECT * FROM t ORDER BY k')), [
      ['a', '1'],
      ['b', '2'],
      ['r', '9'],
    ]);
  });

  it("an error after a rewritten file name is still at its place in the cell's text", async () => {
    const sql = "SELECT * FROM read_csv('data.csv') WHERE nope = 1";
    await assert.rejects(query(sql), (e: unknown) => {
      assert.ok(e instanceof EngineQueryError);
      assert.match(e.message, /^Binder Error: .*nope/);
      assert.equal(e.engine.offset, sql.indexOf('nope'));
      return true;
    });
    const multi = "SELECT 1;\nSELECT 'a;b' AS x;\nSELECT nope FROM 'data.csv'";
    await assert.rejects(query(multi), (e: unknown) => {
      assert.ok(e instanceof EngineQueryError);
      assert.match(e.message, /^Binder Error: .*nope/);
      assert.equal(e.engine.offset, multi.indexOf('nope'));
      return true;
    });
  });

  it("the table editor's engine reads the file's folder only", async () => {
    const engine = await SqlEngine.openBeside(join(nb, 'data.csv'));
    try {
      assert.equal((await engine.query(`FROM '${join(nb, 'data.csv')}'`)).rowCount, 2);
      await assert.rejects(engine.query(`FROM read_text('${join(root, 'secret.txt')}')`), OUTSIDE);
    } finally {
      engine.close();
    }
  });
});
