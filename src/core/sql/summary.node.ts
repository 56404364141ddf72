// The Summary view's numbers over ALL the rows of a file (never only the rows the table editor keeps): per
// datasource × metric, the count, periods with a value, min / mean / median / p98 / max and QC-invalid values,
// computed by DuckDB in one scan. The renderer rounds them and lays them out as its own Summary does
// (renderer/model/aq-views `summaryFromFull`), so the same rows give the same table. Percentiles are
// `quantile_cont`, Hyndman–Fan type 7 (numpy's default), the definition core/aq/stats `distribution` uses.

import { StatisticsInputError } from '../api/errors';
import { PERIOD_MS } from '../api/types';
import type { FullSummary, SummaryCell, SummaryPlan } from '../notebook/renderer-protocol';
import { cellText, isNumeric, numberAt, type Table } from '../table/table';
import { quoteIdent } from '../text/sql-text';
import { SqlEngine } from './engine.node';
import { type RunSql, withFileEngine } from './statistics.node';

/** The plan's columns, each checked to be a column of the data (names from a message are hostile input). */
function checkColumns(plan: SummaryPlan, names: readonly string[]): void {
  const known = new Set(names);
  const asked = [plan.groupColumn, plan.timeColumn, ...plan.metrics.flatMap((m) => [m.column, m.qc?.column])];
  const missing = asked.filter((n): n is string => n !== undefined && !known.has(n));
  if (missing.length)
    throw new StatisticsInputError(
      `No column ${missing.slice(0, 3).join(', ')} in this data: the Summary cannot be computed over it.`,
    );
}

/** SQL of a metric's value (NaN as no value) and of whether its QC marks it invalid. */
function metricSql(m: SummaryPlan['metrics'][number], i: number): string[] {
  const x = `CAST(${quoteIdent(m.column)} AS DOUBLE)`;
  const value = `CASE WHEN isnan(${x}) THEN NULL ELSE ${x} END AS v${i}`;
  if (!m.qc) return [value, `false AS q${i}`];
  const q = quoteIdent(m.qc.column);
  // qcFlags: JSON text ["QC.I.a.1", …] in csv, a list in Parquet; a flag of severity I makes a value invalid.
  const invalid =
    m.qc.kind === 'assessment'
      ? `coalesce(CAST(${q} AS VARCHAR) = 'invalid', false)`
      : `coalesce(regexp_matches(CAST(${q} AS VARCHAR), '(^|[\\[",\\s])QC\\.I\\.', 'i'), false)`;
  return [value, `${invalid} AS q${i}`];
}

/** The SQL of a Summary over `from` (a reader call or a quoted result name): one row per group. */
export function summarySql(from: string, plan: SummaryPlan): string {
  const group = plan.groupColumn ? `coalesce(CAST(${quoteIdent(plan.groupColumn)} AS VARCHAR), '(none)')` : `'(all)'`;
  const time = plan.timeColumn ? `epoch_ms(${quoteIdent(plan.timeColumn)})` : 'NULL::BIGINT';
  const step = PERIOD_MS[plan.frequency];
  const aggregates = plan.metrics.flatMap((_, i) => [
    `count(v${i}) AS n${i}`,
    `min(v${i}) AS min${i}`,
    `avg(v${i}) AS mean${i}`,
    `quantile_cont(v${i}, 0.5) AS median${i}`,
    `quantile_cont(v${i}, 0.98) AS p98_${i}`,
    `max(v${i}) AS max${i}`,
    plan.timeColumn
      ? `count(DISTINCT floor(t / ${step})) FILTER (WHERE v${i} IS NOT NULL AND t IS NOT NULL) AS w${i}`
      : `count(v${i}) AS w${i}`,
    `count(*) FILTER (WHERE q${i}) AS bad${i}`,
  ]);
  return [
    '-- The Summary over every row: per group × metric (percentiles: quantile_cont, Hyndman–Fan type 7)',
    'WITH src AS (',
    `  SELECT ${[`${group} AS g`, `${time} AS t`, ...plan.metrics.flatMap(metricSql)].join(', ')}`,
    `  FROM ${from}`,
    ')',
    `SELECT ${['g', 'count(*) AS rows_', 'min(t) AS from_', 'max(t) AS to_', ...aggregates].join(', ')}`,
    'FROM src GROUP BY g',
  ].join('\n');
}

/** A cell's number, null when it has none (NaN, a NULL aggregate). */
function valueAt(t: Table, name: string, row: number): number | null {
  const c = t.columns.find((x) => x.name === name);
  const v = c && isNumeric(c) ? numberAt(c, row) : Number.NaN;
  return Number.isNaN(v) ? null : v;
}

/** The Summary's numbers of every row of `from`, groups in the order the renderer's Summary lists them. */
async function summaryOf(run: RunSql, from: string, plan: SummaryPlan): Promise<FullSummary> {
  checkColumns(
    plan,
    (await run(`SELECT * FROM ${from} LIMIT 0`)).columns.map((c) => c.name),
  );
  const out = await run(summarySql(from, plan));
  const g = out.columns.find((c) => c.name === 'g');
  const groups = Array.from({ length: out.rowCount }, (_, r) => ({ r, name: g ? cellText(g, r) : '(all)' }));
  // The renderer's order (core/table/collocation groupRows): by UTF-16 code units, not a collation.
  groups.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let rows = 0;
  let from_: number | null = null;
  let to: number | null = null;
  const cells: SummaryCell[] = [];
  for (const { r, name } of groups) {
    rows += valueAt(out, 'rows_', r) ?? 0;
    const lo = valueAt(out, 'from_', r);
    const hi = valueAt(out, 'to_', r);
    if (lo !== null && (from_ === null || lo < from_)) from_ = lo;
    if (hi !== null && (to === null || hi > to)) to = hi;
    plan.metrics.forEach((m, i) => {
      cells.push({
        group: name,
        metric: m.column,
        count: valueAt(out, `n${i}`, r) ?? 0,
        withValue: valueAt(out, `w${i}`, r) ?? 0,
        min: valueAt(out, `min${i}`, r),
        mean: valueAt(out, `mean${i}`, r),
        median: valueAt(out, `median${i}`, r),
        p98: valueAt(out, `p98_${i}`, r),
        max: valueAt(out, `max${i}`, r),
        invalid: valueAt(out, `bad${i}`, r) ?? 0,
      });
    });
  }
  return { rows, from: from_, to, cells };
}

/** The Summary of every row of a local table file (the table editor keeps only its first rows). */
export function fileSummary(
  file: string,
  plan: SummaryPlan,
  options: { signal?: AbortSignal } = {},
): Promise<FullSummary> {
  return withFileEngine(file, (run, from) => summaryOf(run, from, plan), options);
}

/**
 * The Summary of every row of a result held in memory (a progressive output's whole result, of which the
 * renderer holds the first rows): only the plan's columns are put in a confined engine that reads no files.
 */
export async function tableSummary(table: Table, plan: SummaryPlan): Promise<FullSummary> {
  checkColumns(
    plan,
    table.columns.map((c) => c.name),
  );
  const wanted = new Set([plan.groupColumn, plan.timeColumn, ...plan.metrics.flatMap((m) => [m.column, m.qc?.column])]);
  const columns = table.columns.filter((c) => wanted.has(c.name));
  const engine = await SqlEngine.open();
  try {
    await engine.putTable('result', { rowCount: table.rowCount, columns });
    return await summaryOf((sql) => engine.query(sql), quoteIdent('result'), plan);
  } finally {
    engine.close();
  }
}
