// measnb export: a notebook run with `measnb run --out` (its saved results) written as HTML, Markdown and
// .ipynb; --max-rows; usage errors; files written whole through a .part and a rename.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { lstat, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { codeCell, markdownCell, serializeNotebook } from '../../src/core/notebook';
import { ManualClock, type RunningEmulator } from '../../src/emulator';
import { type Connection, runCli, startCliEmulator, stopCliEmulator } from './support';

const NOW = Date.parse('2026-11-20T12:00:30Z');

interface Ipynb {
  nbformat: number;
  nbformat_minor: number;
  cells: Array<{
    cell_type: string;
    source: string[];
    execution_count?: number | null;
    outputs?: Array<{ output_type: string; data?: Record<string, string[]> }>;
  }>;
}

describe('measnb export (built CLI)', function () {
  this.timeout(90_000);
  let emu: RunningEmulator;
  let conn: Connection;
  let dir: string;
  let ran: string;
  let rows: number;

  before(async () => {
    ({ emu, conn, dir } = await startCliEmulator({ clock: new ManualClock(NOW), seed: 3 }));
    const ids = emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId);
    const src = join(dir, 'morning.measnb');
    await writeFile(
      src,
      serializeNotebook({
        metadata: {},
        cells: [
          markdownCell('# Morning PM2.5\n\nTwo sensors, *hourly*.'),
          codeCell(
            `recent\ndatasourceIds: ${ids.join(', ')}\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMassNowcast\nstartTime: -12h`,
          ),
          codeCell('datasources'),
        ],
      }),
    );
    ran = join(dir, 'morning-run.measnb');
    const r = await runCli(['run', src, '--out', ran, ...conn.args], { env: conn.env });
    assert.equal(r.code, 0, r.stderr);
    const m = /cell 2 \(recent\): (\d+) rows/.exec(r.stderr);
    assert.ok(m, r.stderr);
    rows = Number(m[1]);
    assert.ok(rows > 5, `${rows} rows`);
  });
  after(() => stopCliEmulator(emu, dir));

  const exportCli = (...args: string[]) => runCli(['export', ran, ...args]);
  const noPartLeft = async () =>
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.endsWith('.part')),
      [],
      'no .part left behind',
    );

  it('--to html: one page with the markdown, the query, the table of the first rows and the total', async () => {
    const out = join(dir, 'page.html');
    const r = await exportCli('--to', 'html', '--out', out, '--max-rows', '4');
    assert.equal(r.code, 0, r.stderr);
    const html = await readFile(out, 'utf8');
    assert.match(html, /^<!DOCTYPE html>/i);
    assert.match(html, /<h1>Morning PM2\.5<\/h1>/);
    assert.match(html, /recent/);
    assert.match(html, /<table/);
    assert.ok(html.includes(`Showing the first 4 of ${rows} rows.`), 'states the total');
    assert.ok(!/<script/i.test(html), 'no script');
    await noPartLeft();
  });

  it('--to md (default name beside the notebook): markdown as written, measq fences, Markdown tables', async () => {
    const r = await exportCli('--to', 'md', '--max-rows', '3');
    assert.equal(r.code, 0, r.stderr);
    const md = await readFile(ran.replace(/\.measnb$/, '.md'), 'utf8');
    assert.match(md, /^# Morning PM2\.5\n\nTwo sensors, \*hourly\*\./);
    assert.match(md, /```measq\nrecent\n/);
    const header = md.split('\n').find((l) => l.startsWith('| ') && l.includes('datasourceId'));
    assert.ok(header, 'a Markdown table header');
    assert.ok(md.includes(`_Showing the first 3 of ${rows} rows._`));
    await noPartLeft();
  });

  it('--to ipynb: valid JSON, nbformat 4, markdown and code cells, text/html and text/csv outputs', async () => {
    const out = join(dir, 'nb.ipynb');
    const r = await exportCli('--to', 'ipynb', '--out', out, '--max-rows', '5');
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(await readFile(out, 'utf8')) as Ipynb;
    assert.equal(doc.nbformat, 4);
    assert.ok(doc.nbformat_minor >= 4);
    assert.deepEqual(
      doc.cells.map((c) => c.cell_type),
      ['markdown', 'code', 'code'],
    );
    assert.equal(doc.cells[0].source.join(''), '# Morning PM2.5\n\nTwo sensors, *hourly*.');
    assert.match(doc.cells[1].source.join(''), /^recent\n/);
    assert.equal(doc.cells[1].execution_count, 1);
    for (const cell of doc.cells.slice(1)) {
      const display = cell.outputs?.find((o) => o.output_type === 'display_data');
      assert.ok(display?.data, 'a table output');
      assert.match(display.data['text/html'].join(''), /<table>/);
      const csv = display.data['text/csv'].join('').trimEnd().split('\n');
      assert.ok(csv.length >= 2 && csv.length <= 6, `header + at most 5 rows: ${csv.length}`);
    }
    const csv = doc.cells[1].outputs?.[0].data?.['text/csv'].join('').trimEnd().split('\n') ?? [];
    assert.equal(csv.length, 6, 'header + --max-rows 5');
    assert.match(csv[0], /datasourceId/);
    assert.ok(doc.cells[1].outputs?.[0].data?.['text/html'].join('').includes(`Showing the first 5 of ${rows} rows.`));
    await noPartLeft();
  });

  it('--max-rows 0 writes no rows but states the total; a bad --max-rows is a usage error', async () => {
    const out = join(dir, 'none.md');
    const r = await exportCli('--out', out, '--max-rows', '0');
    assert.equal(r.code, 0, r.stderr);
    assert.ok((await readFile(out, 'utf8')).includes(`of ${rows} rows`));
    for (const bad of ['-1', 'ten', '2.5']) {
      const b = await exportCli('--to', 'md', '--out', join(dir, 'bad.md'), '--max-rows', bad);
      assert.equal(b.code, 2, `${bad}: ${b.stderr}`);
      assert.match(b.stderr, /--max-rows must be a whole number/);
    }
    assert.ok(!existsSync(join(dir, 'bad.md')));
  });

  it('an unknown --to, or no format at all: usage exit 2, one line, nothing written', async () => {
    const r = await exportCli('--to', 'pdf', '--out', join(dir, 'x.pdf'));
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'measnb: --to pdf: expected one of html, md, ipynb.\n');
    assert.ok(!existsSync(join(dir, 'x.pdf')));
    const none = await exportCli('--out', join(dir, 'x.txt'));
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--to txt: expected one of/);
    const noOut = await exportCli();
    assert.equal(noOut.code, 2);
    assert.match(noOut.stderr, /Give --to html\|md\|ipynb/);
  });

  it('a missing notebook: usage exit 2 with one line naming it; a non-notebook: exit 3', async () => {
    const missing = join(dir, 'nope.measnb');
    const r = await runCli(['export', missing, '--to', 'html']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `measnb: Cannot read ${missing}: ENOENT\n`);
    assert.ok(!existsSync(join(dir, 'nope.html')));
    const junk = join(dir, 'junk.measnb');
    await writeFile(junk, 'not json');
    const j = await runCli(['export', junk, '--to', 'html']);
    assert.equal(j.code, 3, j.stderr);
    assert.match(j.stderr, /junk\.measnb: not a valid \.measnb file/);
  });

  it('written through <out>.part then renamed: a stale .part is replaced; a symlink at the target is refused, not written through', async () => {
    const out = join(dir, 'atomic.html');
    await writeFile(`${out}.part`, 'stale');
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'precious\n');
    await symlink(victim, out);
    const refused = await exportCli('--to', 'html', '--out', out);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /^measnb: Refusing to write .*atomic\.html: it is a symbolic link/);
    assert.equal(await readFile(victim, 'utf8'), 'precious\n', 'the link target is untouched');
    assert.ok((await lstat(out)).isSymbolicLink(), 'the link is left as it was');
    await rm(out);
    const r = await exportCli('--to', 'html', '--out', out);
    assert.equal(r.code, 0, r.stderr);
    assert.ok((await lstat(out)).isFile(), 'the target is a regular file');
    assert.match(await readFile(out, 'utf8'), /<h1>Morning PM2\.5<\/h1>/);
    assert.ok(!existsSync(`${out}.part`));
  });
});
