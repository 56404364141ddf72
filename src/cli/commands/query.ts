// `measnb query <file | -e text>`: runs one cell of any verb and prints or writes its result.
import { mkdir } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { UsageError } from '../../core/api/errors';
import { type RestartPart, writeViaPart } from '../../core/io/part-file.node';
import { parseCellOrThrow, type RunResult, runCell } from '../../core/run/index.node';
import { safeForTerminal } from '../../core/text/terminal';
import { nowDate } from '../../core/time/clock';
import { type ActionContext, action } from '../action';
import { readCellSource } from '../cell-source';
import { addConnectionOptions, type ConnectionFlags, openConnection, serviceOf } from '../connection';
import { warningLine } from '../errors';
import { printTable, wantsCsv } from '../output/print-table';
import { Spool } from '../output/spool';
import { writeDataToStdout, writeTo } from '../output/stdout';
import { outFormatOf, writeTableFile } from '../output/write-file';
import { describeProgress } from '../progress';

interface QueryOptions extends ConnectionFlags {
  expr?: string;
  csv?: boolean;
  table?: boolean;
  out?: string;
  dir?: string;
  wait: boolean;
  stream?: boolean;
}

export function registerQueryCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('query')
      .description('Run one cell (recent, follow, report <kind> or datasources) and print its result')
      .argument('[file]', 'a file holding the cell (or a .measnb notebook with one code cell)')
      .option('-e, --expr <text>', 'the cell text itself, e.g. -e "datasources"')
      .option('--csv', 'print CSV (the default when stdout is not a terminal)')
      .option('--table', 'print the fitted table even when stdout is not a terminal')
      .option('--out <file>', 'write the result to a .csv or .parquet file instead of stdout')
      .option('--dir <dir>', 'report cells: where to download the report files', '.')
      .option('--no-wait', 'report cells: create the report, print its id, and return')
      .option(
        '--stream',
        'csv-wide CSV on stdout: print each line as it arrives (a reply that breaks is not read again)',
      ),
  ).action(action(queryAction));
}

async function queryAction(ctx: ActionContext, file: string | undefined, opts: QueryOptions): Promise<number> {
  const src = await readCellSource(file, opts.expr);
  ctx.errorContext.source = src.label;
  const outFormat = opts.out ? outFormatOf(opts.out) : undefined;
  const now = nowDate(ctx.clock);
  const { cell, warnings } = parseCellOrThrow(src.text, now, serviceOf(opts));
  for (const w of warnings) ctx.progress.warning(warningLine(src.label, w));
  const conn = ctx.use(await openConnection(opts, ctx.clock));
  if (cell.fields.org) ctx.errorContext.org = cell.fields.org;
  if (opts.csv && opts.table) throw new UsageError('Give either --csv or --table, not both.');
  const csv = !opts.table && wantsCsv(opts.csv);

  // csv-wide recent queries bound for CSV go byte for byte from the service to stdout or the file.
  const streamed =
    cell.verb === 'recent' && cell.fields.format === 'csv-wide' && (outFormat ? outFormat === 'csv' : csv);
  const run = (csvOut?: Writable, csvRestart?: RestartPart) =>
    runCell(cell, {
      client: conn.client,
      org: conn.org,
      now,
      signal: ctx.signal,
      downloadDir: opts.dir,
      wait: opts.wait,
      csvOut,
      csvRestart,
      onProgress: (p) => {
        const text = describeProgress(p);
        if (text) ctx.progress.update(text, p.kind !== 'request');
      },
    });
  if (streamed && opts.out) {
    // Nobody has seen the .part: a reply that breaks is read again into an empty one.
    const result = await writeViaPart(opts.out, (out, restart) => run(out, restart));
    ctx.progress.message(`Wrote ${result.csvBytes} bytes of CSV to ${opts.out}`);
    return 0;
  }
  if (streamed) {
    await (opts.stream ? writeDataToStdout((out) => run(out)) : runSpooled(run));
    ctx.progress.clear();
    return 0;
  }
  const result = await run();
  ctx.progress.clear();
  return emitResult(ctx, result, { csv, out: opts.out, printReportId: !opts.wait });
}

/**
 * The reply held back until it is whole (output/spool.ts), then printed: a reply that breaks is read
 * again, and each row is printed exactly once.
 */
async function runSpooled(run: (out: Writable, restart: RestartPart) => Promise<RunResult>): Promise<void> {
  const spool = new Spool();
  try {
    await run(spool.out, spool.restart);
    await writeDataToStdout((out) => spool.playTo((piece) => writeTo(out, piece)));
  } finally {
    await spool.dispose();
  }
}

async function emitResult(
  ctx: ActionContext,
  result: RunResult,
  opts: { csv: boolean; out?: string; printReportId?: boolean },
): Promise<number> {
  if (result.notice) ctx.progress.message(result.notice);
  if (result.verb === 'report' && result.report) {
    const { record, files } = result.report;
    if (opts.printReportId) {
      // --no-wait: the id is the data.
      process.stdout.write(`${safeForTerminal(record.reportId)}\n`);
      ctx.progress.message(
        `Report ${record.reportId} is ${record.reportStatus}; check it with: measnb report status ${record.reportId}`,
      );
      return 0;
    }
    ctx.progress.message(`${result.summary}`);
    for (const f of files) ctx.progress.message(`  ${f}`);
  }
  if (opts.out) {
    if (opts.out.includes('/')) await mkdir(opts.out.replace(/\/[^/]*$/, ''), { recursive: true });
    await writeTableFile(result.table, opts.out);
    ctx.progress.message(`Wrote ${result.summary} to ${opts.out}`);
    return 0;
  }
  await printTable(result.table, opts.csv);
  return 0;
}
