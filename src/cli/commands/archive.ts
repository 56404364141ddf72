// `measnb archive`: an org's history as Hive-partitioned Parquet in --dest (core/archive), and
// `measnb archive --snippet ENGINE`: how each engine reads it.
import type { Command } from 'commander';
import { ArchiveError, ArchiveQuotaError, UsageError } from '../../core/api/errors';
import { OUTPUT_FREQUENCIES, type OutputFrequency } from '../../core/api/types';
import { type ArchiveEvent, runArchive } from '../../core/archive/archive.node';
import { DEFAULT_MAX_REPORTS_PER_DAY } from '../../core/archive/plan';
import { archiveSnippet, SNIPPET_ENGINES, type SnippetEngine } from '../../core/archive/snippets';
import { formatDuration } from '../../core/time/duration';
import { type ActionContext, action } from '../action';
import { addConnectionOptions, type ConnectionFlags, openConnection } from '../connection';
import { writeErrorLines } from '../errors';
import { EXIT } from '../exit-codes';
import { collectGarbage } from '../v8-tuning';

interface ArchiveFlags extends ConnectionFlags {
  from?: string;
  to?: string;
  frequency?: string;
  datasources?: string;
  all?: boolean;
  dest?: string;
  maxReportsPerDay?: string;
  wait?: boolean;
  snippet?: string;
}

export function registerArchiveCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('archive')
      .description("Keep the org's history as Hive-partitioned Parquet in --dest (resumable; one report per month)")
      .option('--from <date>', 'first day (UTC), e.g. 2025-01-01')
      .option('--to <date>', 'end (exclusive, UTC), e.g. 2026-01-01')
      .option('--frequency <f>', `${OUTPUT_FREQUENCIES.join(', ')}`, 'hour')
      .option('--datasources <ids>', 'datasource ids, comma-separated')
      .option('--all', 'every datasource of the org')
      .option('--dest <dir>', 'the archive folder (its manifest says what is done)')
      .option(
        '--max-reports-per-day <n>',
        'reports this archive creates per UTC day',
        String(DEFAULT_MAX_REPORTS_PER_DAY),
      )
      .option('--wait', 'when the day is spent, sleep until the UTC midnight reset and go on')
      .option('--snippet <engine>', `print how ${SNIPPET_ENGINES.join(', ')} read --dest, and exit`),
  ).action(action(archiveAction));
}

function describeEvent(e: ArchiveEvent): string | undefined {
  switch (e.kind) {
    case 'plan':
      return `Archive: ${e.toFetch} of ${e.months} month${e.months === 1 ? '' : 's'} to fetch for ${e.datasources} datasource${e.datasources === 1 ? '' : 's'} (${e.reportsToday} report${e.reportsToday === 1 ? '' : 's'} created today so far)`;
    case 'month-report':
      return `${e.month}: report ${e.reportId} ${e.reused ? 'picked up again' : 'created'} (${e.datasources} datasources)`;
    case 'report-status':
      return `${e.month}: report ${e.reportId} ${e.status}, ${formatDuration(e.elapsedMs)} elapsed`;
    case 'month-done':
      return `${e.month}: written (${e.done}/${e.total})`;
    case 'quota-wait':
      return `The day's reports are spent; waiting until ${e.until.toISOString()} (--wait)`;
  }
}

async function archiveAction(ctx: ActionContext, flags: ArchiveFlags): Promise<number> {
  if (!flags.dest) throw new UsageError('--dest <dir> is required.');
  if (flags.snippet) return printSnippet(flags);
  if (!flags.from || !flags.to) throw new UsageError('--from and --to are required.');
  if (!!flags.all === !!flags.datasources) throw new UsageError('Give --datasources <ids> or --all (one of them).');
  const max = Number(flags.maxReportsPerDay);
  const conn = ctx.use(await openConnection(flags, ctx.clock));
  if (!conn.org) throw new UsageError('No org given: use --org <org> (or set MEASUREMENTS_ORG).');
  try {
    const summary = await runArchive({
      client: conn.client,
      clock: ctx.clock,
      org: conn.org,
      dest: flags.dest,
      from: flags.from,
      to: flags.to,
      frequency: flags.frequency ?? 'hour',
      datasourceIds: flags.datasources
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      maxReportsPerDay: max,
      wait: flags.wait,
      signal: ctx.signal,
      onEvent: (e) => {
        if (e.kind === 'month-done') collectGarbage();
        const text = describeEvent(e);
        if (text) ctx.progress.update(text, e.kind !== 'report-status');
      },
    });
    ctx.progress.message(
      `Archive complete: ${summary.fetched} month${summary.fetched === 1 ? '' : 's'} fetched (${summary.rows} rows), ${summary.months - summary.fetched} already there; ${summary.reportsCreated} report${summary.reportsCreated === 1 ? '' : 's'} created.`,
    );
    return EXIT.ok;
  } catch (e) {
    return archiveFailure(ctx, e);
  }
}

function archiveFailure(ctx: ActionContext, e: unknown): number {
  if (e instanceof ArchiveQuotaError) {
    ctx.progress.clear();
    writeErrorLines([
      `${e.message} ${e.remainingMonths} month${e.remainingMonths === 1 ? '' : 's'} left to fetch.`,
      `Run the same command again after ${e.resumeAt.toISOString()} (or add --wait) to continue.`,
    ]);
    return EXIT.archivePaused;
  }
  if (e instanceof ArchiveError) {
    ctx.progress.clear();
    writeErrorLines([e.message]);
    return e.code === 'ARCHIVE_UNKNOWN_DATASOURCE'
      ? EXIT.notFound
      : e.code === 'ARCHIVE_INPUT'
        ? EXIT.usage
        : EXIT.output;
  }
  throw e;
}

function printSnippet(flags: ArchiveFlags): number {
  const engine = flags.snippet as SnippetEngine;
  if (!SNIPPET_ENGINES.includes(engine))
    throw new UsageError(`--snippet ${flags.snippet}: expected ${SNIPPET_ENGINES.join(', ')}.`);
  const frequency = (flags.frequency ?? 'hour') as OutputFrequency;
  if (!OUTPUT_FREQUENCIES.includes(frequency))
    throw new UsageError(`--frequency ${flags.frequency}: expected ${OUTPUT_FREQUENCIES.join(', ')}.`);
  process.stdout.write(`${archiveSnippet(engine, { dir: flags.dest as string, frequency })}\n`);
  return EXIT.ok;
}
