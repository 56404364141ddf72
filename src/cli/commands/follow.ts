// `measnb follow <file | -e>`: prints only new rows as they arrive until Ctrl-C; with --once makes one
// step and keeps the cursor in a --state file (for cron: no gap, no duplicate row).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { UsageError } from '../../core/api/errors';
import { type FollowState, followEvery, parseFollowState, serializeFollowState } from '../../core/follow';
import { writeFileViaPart } from '../../core/io/part-file.node';
import { parseInterval } from '../../core/query/time';
import { parseCellOrThrow, runCell } from '../../core/run/index.node';
import { tableCsvChunks } from '../../core/table/csv-export';
import type { Table } from '../../core/table/table';
import { nowDate } from '../../core/time/clock';
import { type ActionContext, action } from '../action';
import { readCellSource } from '../cell-source';
import { addConnectionOptions, type ConnectionFlags, openConnection, serviceOf } from '../connection';
import { warningLine } from '../errors';
import { renderFittedTable } from '../output/fitted-table';
import { wantsCsv } from '../output/print-table';
import { requireDeliveredOutput, writeStdout } from '../output/stdout';

interface FollowOptions extends ConnectionFlags {
  expr?: string;
  once?: boolean;
  state?: string;
  every?: string;
  csv?: boolean;
  header: boolean;
}

const DEFAULT_EVERY_MS = 60_000;

export function registerFollowCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('follow')
      .description('Print only new rows of a follow (or recent) cell as they arrive, until Ctrl-C')
      .argument('[file]', 'a file holding the cell')
      .option('-e, --expr <text>', 'the cell text itself')
      .option('--once', 'make one step and exit (with --state, for cron jobs)')
      .option('--state <file>', 'where the cursor (continuation token, last time seen) is kept between runs')
      .option('--every <duration>', 'polling interval, e.g. 30s or 5m (default: the cell\'s "every", else 1m)')
      .option('--csv', 'print CSV (the default when stdout is not a terminal)')
      .option('--no-header', 'CSV without the header line (to append to a file from cron)'),
  ).action(action(followAction));
}

async function loadState(path: string | undefined): Promise<FollowState | undefined> {
  if (!path) return undefined;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`Cannot read the state file ${path}: ${(e as Error).message}`);
  }
  const state = parseFollowState(text);
  if (!state) throw new UsageError(`${path} is not a measnb follow state file; remove it to start over.`);
  return state;
}

/**
 * Written to `<file>.part` (created exclusively, never through a planted symlink) then renamed, readable
 * only by the owner (it holds a continuation token).
 */
async function saveState(path: string, state: FollowState): Promise<void> {
  await writeFileViaPart(path, serializeFollowState(state), { mode: 0o600 });
}

/** The interval: --every, else the cell's `every`, else a minute. */
function intervalMs(cellEveryMs: number | undefined, every: string | undefined): number {
  if (!every) return cellEveryMs ?? DEFAULT_EVERY_MS;
  const d = parseInterval(every);
  if ('error' in d) throw new UsageError(`--every ${every}: ${d.error}`);
  return d.ms;
}

/** Prints each batch of new rows: a fitted table on a terminal, else CSV (its header once, unless --no-header). */
function rowPrinter(opts: FollowOptions): (table: Table) => Promise<void> {
  const csv = wantsCsv(opts.csv);
  let header: string | undefined;
  return async (table) => {
    if (table.rowCount === 0) return;
    if (!csv) {
      await writeStdout(renderFittedTable(table, { width: process.stdout.columns || 120, maxRows: 1000 }));
      return;
    }
    const chunks = tableCsvChunks(table);
    const head = chunks.next().value as string;
    // One write per batch where possible, so a reader sees whole batches.
    let pending = head !== header && opts.header ? head : '';
    header = head;
    for (const chunk of chunks) {
      pending += chunk;
      if (pending.length < 1 << 20) continue;
      await writeStdout(pending);
      pending = '';
    }
    if (pending) await writeStdout(pending);
  };
}

async function followAction(ctx: ActionContext, file: string | undefined, opts: FollowOptions): Promise<number> {
  const src = await readCellSource(file, opts.expr);
  ctx.errorContext.source = src.label;
  const { cell, warnings } = parseCellOrThrow(src.text, nowDate(ctx.clock), serviceOf(opts));
  for (const w of warnings) ctx.progress.warning(warningLine(src.label, w));
  if (cell.verb !== 'follow' && cell.verb !== 'recent') {
    throw new UsageError(`measnb follow needs a follow (or recent) cell, not ${cell.verb}.`);
  }
  const everyMs = intervalMs(cell.every?.ms, opts.every);
  // A recent cell followed from the command line is the same query with a continuation token.
  const followCell = { ...cell, verb: 'follow' as const };
  const conn = ctx.use(await openConnection(opts, ctx.clock));
  let state = await loadState(opts.state);
  // Rows are written and handed to the OS before the cursor moves past them: a write that fails (a full
  // disk, a closed pipe) ends the command with the cursor where it was, so the next run prints them again.
  if (opts.state) requireDeliveredOutput();
  const print = rowPrinter(opts);
  const step = () =>
    runCell(followCell, {
      client: conn.client,
      org: conn.org,
      now: nowDate(ctx.clock),
      signal: ctx.signal,
      followState: state,
    });
  const deliver = async (result: Awaited<ReturnType<typeof step>>) => {
    if (result.notice) ctx.progress.message(result.notice);
    ctx.progress.clear();
    await print(result.table);
    state = result.followState;
    if (opts.state && state) await saveState(opts.state, state);
    ctx.progress.update(`${nowDate(ctx.clock).toISOString().slice(11, 19)} ${result.summary}`, false);
    if (!opts.once) return;
    ctx.progress.clear();
    ctx.progress.message(result.summary);
    if (!opts.state) ctx.progress.message('(no --state file: the next run starts over)');
  };
  try {
    await followEvery({
      clock: ctx.clock,
      signal: ctx.signal,
      everyMs: opts.once ? undefined : everyMs,
      step,
      deliver,
      onTransientError: (e, retryAt) =>
        ctx.progress.message(`${(e as Error).message} (trying again at ${retryAt.toISOString().slice(11, 19)})`),
    });
  } catch (e) {
    if (ctx.interrupted) return 0;
    throw e;
  }
  ctx.progress.clear();
  return 0;
}
