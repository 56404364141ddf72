// `measnb run notebook.measnb [--out executed.measnb]`: every code cell in order, headless; outputs are
// written in the format the extension saves. Stops at the first failing cell (named) unless --keep-going.

import { lstat, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { CellError, UnsafePathError, UsageError } from '../../core/api/errors';
import type { DatasourceInfo } from '../../core/api/types';
import { writeFileViaPart, writeViaPart } from '../../core/io/part-file.node';
import {
  DEFAULT_OUTPUT_LIMIT_BYTES,
  type Notebook,
  type NotebookCell,
  type NotebookOutput,
  type NotebookZone,
  notebookZone,
  serializeNotebook,
} from '../../core/notebook';
import { LANGUAGE_ID } from '../../core/query';
import type { ParamValues } from '../../core/query/params';
import { failureOutput, type RunResult, resultOutput, runCell } from '../../core/run/index.node';
import { resultDatasourceIds } from '../../core/run/outputs';
import { memoryLimit } from '../../core/sql/confine.node';
import { notebookNameDiagnostics } from '../../core/sql/names';
import { SqlSession } from '../../core/sql/session.node';
import { writeTableCsv } from '../../core/table/csv-export.node';
import { writeParquet } from '../../core/table/parquet';
import type { Table } from '../../core/table/table';
import { safeForTerminal, safeForTerminalLine } from '../../core/text/terminal';
import { nowDate } from '../../core/time/clock';
import { type ActionContext, action } from '../action';
import { readNotebookFile } from '../cell-source';
import { addConnectionOptions, type Connection, type ConnectionFlags, openConnection } from '../connection';
import { describeError, warningLine } from '../errors';
import { renderFittedTable } from '../output/fitted-table';
import { describeProgress } from '../progress';
import { codeCells, collectParam, runParams, writeExport } from '../run-params';
import { formatOf } from './export';

interface RunOptions extends ConnectionFlags {
  out?: string;
  outputLimit: string;
  dir?: string;
  keepGoing?: boolean;
  results?: string;
  resultsFormat: string;
  table?: boolean;
  sqlAllowDir: string[];
  sqlMemoryLimit?: string;
  param: Record<string, string>;
  export?: string;
  timeZone?: string;
  dayBoundary?: string;
}

export function registerRunCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('run')
      .description('Run every code cell of a .measnb notebook in order (headless)')
      .argument('<notebook>', 'the .measnb file')
      .option('--out <file>', 'write the executed notebook (with outputs) to this .measnb file')
      .option(
        '--output-limit <bytes>',
        'outputs bigger than this are saved as a summary; the full result goes beside --out',
        String(DEFAULT_OUTPUT_LIMIT_BYTES),
      )
      .option('--dir <dir>', 'where report cells download their files (default: beside --out, or a temp dir)')
      .option('--keep-going', 'run the remaining cells after a failing one')
      .option('--results <dir>', "write each cell's result table: <dir>/<name>.csv (named cells), <dir>/cell-<n>.csv")
      .option('--results-format <format>', 'csv or parquet (for --results)', 'csv')
      .option('--table', "print each cell's fitted table on stdout even when it is not a terminal")
      .option(
        '--sql-allow-dir <dir>',
        "sql cells may also read files in this folder (repeatable; by default only the notebook's folder)",
        (dir: string, dirs: string[]) => [...dirs, resolve(dir)],
        [] as string[],
      )
      .option(
        '--sql-memory-limit <size>',
        "the sql engine's memory limit, e.g. 2GB (default: 25% of RAM, at most 4 GB)",
      )
      .option(
        '--param <name=value>',
        "a value for a parameter of the notebook's params cell (repeatable; checked by its type before any request)",
        collectParam,
        {} as Record<string, string>,
      )
      .option('--export <file>', 'also write the executed notebook as a document: .html, .md or .ipynb')
      .option(
        '--time-zone <zone>',
        "the IANA time zone of the outputs' times and days and of sql cells, e.g. America/Denver (default: the notebook's timeZone, else UTC)",
      )
      .option(
        '--day-boundary <boundary>',
        "days in civil time (clock, DST included) or in standard time all year (standard, EPA's) (default: the notebook's dayBoundary, else clock)",
      ),
  ).action(action(runAction));
}

function cellTitle(cell: NotebookCell, index: number): string {
  const first = cell.source.split('\n').find((l) => l.trim() && !l.trim().startsWith('#'));
  return `cell ${index + 1}${first ? ` (${first.trim()})` : ''}`;
}

async function runAction(ctx: ActionContext, file: string, opts: RunOptions): Promise<number> {
  const limit = Number(opts.outputLimit);
  if (!Number.isInteger(limit) || limit < 0) throw new UsageError('--output-limit must be a number of bytes');
  if (opts.out && !opts.out.endsWith('.measnb')) throw new UsageError('--out must name a .measnb file');
  if (opts.resultsFormat !== 'csv' && opts.resultsFormat !== 'parquet')
    throw new UsageError('--results-format is csv or parquet');
  const exportFormat = opts.export === undefined ? undefined : formatOf({ out: opts.export });
  ctx.errorContext.source = file;
  const nb: Notebook = await readNotebookFile(file);
  refuseDuplicateNames(ctx, file, nb);
  const params = runParams(ctx, file, nb, opts.param);
  const zone = runZone(nb, opts);
  const conn = ctx.use(await openConnection({ ...opts, org: opts.org ?? nb.metadata.org }, ctx.clock));
  const outDir = opts.out ? dirname(opts.out) : undefined;
  const resultsDir = opts.out ? join(outDir as string, `${basename(opts.out, '.measnb')}.results`) : undefined;
  if (resultsDir) await refuseLinkedFolders(resultsDir);
  // Without --out or --dir, report files only live for the run.
  const tempDir = opts.dir || resultsDir ? undefined : await mkdtemp(join(tmpdir(), 'measnb-run-'));
  const reportDir = opts.dir ?? (resultsDir ? join(resultsDir, 'reports') : tempDir);
  // One SQL session for the run: named results of earlier cells are tables of later sql cells.
  const sql = new SqlSession({ allowedDirectories: opts.sqlAllowDir, memoryLimit: sqlMemoryLimit(opts) });
  try {
    const datasources = datasourceListOnce(ctx, conn);
    const places = { limit, outDir, resultsDir, reportDir, sql, params, zone, datasources };
    const code = await runCells(ctx, file, nb, conn, opts, places);
    if (opts.export && exportFormat) await writeExport(ctx, nb, opts.export, exportFormat, basename(file));
    return code;
  } finally {
    sql.dispose();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  }
}

/**
 * The connection's datasource list, asked for at most once a run, when the first result with datasource ids is
 * saved (the request the extension makes): each output's line style slots over the whole list, as the extension's
 * outputs carry them, so a datasource has one colour in every cell. A failure is a warning, never the run's: the
 * outputs are then coloured by their own lists.
 */
function datasourceListOnce(
  ctx: ActionContext,
  conn: Connection,
): () => Promise<readonly DatasourceInfo[] | undefined> {
  let list: Promise<readonly DatasourceInfo[] | undefined> | undefined;
  const org = conn.org;
  if (!org) return async () => undefined; // no org to ask about: each output's own list
  return () => {
    list ??= conn.client.listDatasources(org, { signal: ctx.signal }).then(
      (reply) => reply.datasources,
      (e: unknown) => {
        if (ctx.interrupted) throw e;
        ctx.progress.warning(
          `the connection's datasource list could not be read (${e instanceof Error ? e.message : String(e)}): ` +
            "each output's datasources are coloured by its own list, not the same in every cell.",
        );
        return undefined;
      },
    );
    return list;
  };
}

/** X.results and its reports folder belong to the notebook's folder: a link planted at either is refused. */
async function refuseLinkedFolders(resultsDir: string): Promise<void> {
  for (const folder of [resultsDir, join(resultsDir, 'reports')]) {
    const entry = await lstat(folder).catch(() => undefined);
    if (entry && !entry.isDirectory()) {
      throw new UnsafePathError(`Refusing to write into ${folder}: it is a symbolic link or not a folder.`);
    }
  }
}

/** The run's time zone (--time-zone over the notebook's metadata, else UTC), checked before anything is sent. */
function runZone(nb: Notebook, opts: RunOptions): NotebookZone {
  try {
    return notebookZone(nb.metadata, undefined, { timeZone: opts.timeZone, dayBoundary: opts.dayBoundary });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** --sql-memory-limit, checked before anything runs. */
function sqlMemoryLimit(opts: RunOptions): string | undefined {
  try {
    return opts.sqlMemoryLimit === undefined ? undefined : memoryLimit(opts.sqlMemoryLimit);
  } catch (e) {
    throw new UsageError(`--sql-memory-limit: ${(e as Error).message}`);
  }
}

/**
 * A result name given by two cells (which one a sql cell means is unclear), a second params cell, a `$name`
 * no params cell declares: nothing runs.
 */
function refuseDuplicateNames(ctx: ActionContext, file: string, nb: Notebook): void {
  const code = codeCells(nb);
  const byCell = notebookNameDiagnostics(
    code.map(({ c }) => c.source),
    nowDate(ctx.clock),
  );
  const refused = new Set(['duplicate-result-name', 'duplicate-params', 'unknown-parameter']);
  for (const [k, diagnostics] of byCell.entries()) {
    const dup = diagnostics.filter((d) => refused.has(d.code));
    if (!dup.length) continue;
    ctx.errorContext.source = `${file}#${code[k].i + 1}`;
    throw new CellError(dup);
  }
}

async function showTable(title: string, table: Table): Promise<void> {
  const width = process.stdout.columns || 120;
  process.stdout.write(`\n${safeForTerminalLine(title)}\n${renderFittedTable(table, { width })}`);
}

interface RunPlaces {
  limit: number;
  outDir?: string;
  resultsDir?: string;
  reportDir?: string;
  sql: SqlSession;
  /** The values of the notebook's parameters for this run. */
  params: ParamValues;
  zone: NotebookZone;
  /** The connection's datasource list (datasourceListOnce). */
  datasources: () => Promise<readonly DatasourceInfo[] | undefined>;
}

/**
 * --results: the cell's table as <dir>/<name>.<ext> (its `as` name, a checked identifier) or cell-<n>.<ext>,
 * through the one writer: a link planted at that name or in the way is refused, never written through.
 */
async function writeResult(dir: string, format: string, base: string, result: RunResult): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${base}.${format}`);
  if (format === 'parquet') await writeFileViaPart(path, writeParquet(result.table), { within: dir });
  else await writeViaPart(path, (out) => writeTableCsv(result.table, out), { within: dir });
  return path;
}

async function runCells(
  ctx: ActionContext,
  file: string,
  nb: Notebook,
  conn: Connection,
  opts: RunOptions,
  places: RunPlaces,
): Promise<number> {
  let failures = 0;
  let firstFailureCode = 0;
  let order = 0;
  for (const [index, cell] of nb.cells.entries()) {
    if (cell.kind !== 'code' || cell.language !== LANGUAGE_ID) continue;
    if (failures && !opts.keepGoing) break;
    const title = cellTitle(cell, index);
    const run: CellRun = { ctx, file, cell, index, title, startTime: ctx.clock.nowMs(), order: ++order };
    try {
      await runAndRecord(run, conn, opts, places);
    } catch (e) {
      ctx.progress.clear();
      if (ctx.interrupted) throw e;
      failures++;
      const code = recordFailure(run, e);
      firstFailureCode ||= code;
    }
  }
  if (opts.out) {
    if (places.outDir) await mkdir(places.outDir, { recursive: true });
    await writeFileViaPart(opts.out, serializeNotebook(nb, { outputLimitBytes: places.limit }));
    ctx.progress.message(`Wrote ${opts.out}`);
  }
  if (failures) {
    ctx.progress.message(`${failures} cell${failures === 1 ? '' : 's'} failed.`);
    return firstFailureCode;
  }
  return 0;
}

/** One code cell being run: where it is, its title in messages, its execution order and start time. */
interface CellRun {
  ctx: ActionContext;
  file: string;
  cell: NotebookCell;
  index: number;
  title: string;
  order: number;
  startTime: number;
}

/** Runs a cell and keeps its result: the cell's output and execution, --results, the terminal. */
async function runAndRecord(run: CellRun, conn: Connection, opts: RunOptions, places: RunPlaces): Promise<void> {
  const { ctx, file, cell, index, title } = run;
  const result = await runCell(cell.source, {
    client: conn.client,
    org: conn.org,
    service: conn.service,
    now: nowDate(ctx.clock),
    signal: ctx.signal,
    downloadDir: places.reportDir,
    sql: places.sql,
    params: places.params,
    baseDir: resolve(dirname(file)),
    timeZone: places.zone.name,
    onProgress: (p) => {
      const t = describeProgress(p);
      if (t) ctx.progress.update(`${title}: ${t}`, p.kind !== 'request');
    },
  });
  ctx.progress.clear();
  const output = await cellOutput(result, index, places);
  // --results names unnamed cells by their order among code cells (cell-<n>): the line names the file it wrote.
  const written = opts.results
    ? await writeResult(opts.results, opts.resultsFormat, result.name ?? `cell-${run.order}`, result)
    : undefined;
  cell.outputs = [output];
  cell.execution = { order: run.order, success: true, startTime: run.startTime, endTime: ctx.clock.nowMs() };
  for (const w of result.warnings) ctx.progress.warning(warningLine(`${file}#${index + 1}`, w));
  ctx.progress.message(`${title}: ${result.summary}${written ? ` → ${written}` : ''}`);
  if (result.notice) ctx.progress.message(`  ${result.notice}`);
  // In a terminal, each cell's table as `query` shows it; piped, stdout stays empty (--out is the data).
  if (opts.table || process.stdout.isTTY) await showTable(title, result.table);
}

/** The output saved in the executed notebook; a result too big for it goes beside the notebook. */
async function cellOutput(
  result: RunResult,
  index: number,
  { limit, outDir, resultsDir, zone, datasources }: RunPlaces,
): Promise<NotebookOutput> {
  const list = resultDatasourceIds(result.table) ? await datasources() : undefined;
  const output = resultOutput(result, { timeZone: zone, datasources: list });
  // Paths in a notebook are relative to it, so the executed notebook and its files move together.
  const kept = result.report?.dir;
  if (outDir && kept) output.metadata = { ...output.metadata, fullResultPath: relative(outDir, kept) };
  const size = output.items.reduce((n, i) => n + i.data.byteLength, 0);
  if (resultsDir && size > limit && result.table.rowCount > 0) {
    // Too big to keep in the notebook: the full result goes beside it (Parquet, as the extension
    // does), and the saved summary says where.
    await mkdir(resultsDir, { recursive: true });
    const path = join(resultsDir, `cell-${index + 1}.parquet`);
    // Within the notebook's folder: a planted X.results link (or a link at the file) is refused.
    await writeFileViaPart(path, writeParquet(result.table), { within: outDir });
    output.metadata = { ...output.metadata, fullResultPath: relative(outDir as string, path) };
  }
  return output;
}

/** A failed cell: its failure output and execution, the reason on stderr; the failure's exit code. */
function recordFailure({ ctx, file, cell, index, title, order, startTime }: CellRun, e: unknown): number {
  const failure = describeError(e, { ...ctx.errorContext, source: `${file}#${index + 1}` });
  cell.outputs = [failureOutput(e)];
  cell.execution = { order, success: false, startTime, endTime: ctx.clock.nowMs() };
  process.stderr.write(safeForTerminal(`measnb: ${title} failed:\n${failure.lines.map((l) => `  ${l}`).join('\n')}\n`));
  return failure.exitCode;
}
