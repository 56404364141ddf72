// `measnb stats FILE --metric M [--datasource D] --year Y [--quarter Q] [--time-zone Z] [--json]`: regulatory-style
// statistics of a metric over every row of a table file (a report file, or a result `measnb run --results`
// wrote), computed by the SQL engine; labelled indicative (sensor data, not a regulatory determination).
import type { Command } from 'commander';
import { StatisticsInputError, UsageError } from '../../core/api/errors';
import { offsetText, standardOffsetMinutes } from '../../core/aq/regulatory';
import { fileStatistics, type StatisticsOutcome } from '../../core/sql/statistics.node';
import { safeForTerminalLine } from '../../core/text/terminal';
import { TimeZoneError } from '../../core/time/zone';
import { type ActionContext, action } from '../action';
import { renderFittedTable } from '../output/fitted-table';
import { writeStdout } from '../output/stdout';

interface StatsOptions {
  metric: string;
  datasource?: string;
  year: string;
  quarter?: string;
  timeZone: string;
  json?: boolean;
}

export function registerStatsCommand(program: Command): void {
  program
    .command('stats')
    .description(
      'Regulatory-style statistics of a metric over a whole file, for a year or a quarter (indicative: sensor data, not a regulatory determination)',
    )
    .argument('<file>', 'a .parquet, .csv or .csv.gz table (a report file, or a result of `measnb run --results`)')
    .requiredOption('--metric <label>', 'the metric column, e.g. pm2_5ConcMass1HourMean (its .value column is read)')
    .option('--datasource <id>', 'the datasource (needed when the file holds several)')
    .requiredOption('--year <year>', 'the calendar year, e.g. 2026')
    .option('--quarter <1-4>', 'one quarter of the year instead of the whole year')
    .option('--time-zone <zone>', "the IANA zone whose local standard time makes the days (EPA's convention)", 'UTC')
    .option('--json', 'print JSON (label, rules, each period) instead of a table')
    .action(action(statsAction));
}

function period(opts: StatsOptions) {
  const year = Number(opts.year);
  if (!Number.isInteger(year) || year < 1900 || year > 9999) throw new UsageError('--year must be a year such as 2026');
  const quarter = opts.quarter === undefined ? undefined : Number(opts.quarter);
  if (quarter !== undefined && ![1, 2, 3, 4].includes(quarter)) throw new UsageError('--quarter must be 1, 2, 3 or 4');
  try {
    return { year, quarter, offsetMinutes: standardOffsetMinutes(opts.timeZone, year) };
  } catch (e) {
    if (e instanceof TimeZoneError) throw new UsageError(`--time-zone: ${e.message}`);
    throw e;
  }
}

async function statsAction(ctx: ActionContext, file: string, opts: StatsOptions): Promise<number> {
  const p = period(opts);
  ctx.errorContext.source = file;
  let out: StatisticsOutcome;
  try {
    out = await fileStatistics(
      file,
      { metric: opts.metric, datasource: opts.datasource, period: p },
      { signal: ctx.signal },
    );
  } catch (e) {
    if (e instanceof StatisticsInputError && e.needs === 'datasource')
      throw new UsageError(`${e.message} Give one with --datasource <id>.`);
    if (e instanceof StatisticsInputError || (e as { code?: string }).code === 'TABLE_FILE')
      throw new UsageError((e as Error).message);
    throw e;
  }
  const days = `local standard time of ${opts.timeZone} (UTC${offsetText(p.offsetMinutes)})`;
  if (opts.json) {
    const rows = out.rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number.isNaN(v) ? null : v])),
    );
    const doc = {
      label: out.notes[0],
      metric: out.valueColumn,
      unit: out.unit ?? null,
      datasource: out.datasource ?? null,
      timeZone: opts.timeZone,
      days,
      rules: out.notes.slice(1),
      rows,
    };
    await writeStdout(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  const title = `${out.valueColumn}${out.unit ? ` (${out.unit})` : ''}${out.datasource ? ` · ${out.datasource}` : ''} · days in ${days}`;
  const head = [title, ...out.notes].map((l) => safeForTerminalLine(l)).join('\n');
  await writeStdout(`${head}\n${renderFittedTable(out.table, { width: process.stdout.columns || 120 })}`);
  return 0;
}
