// The chart of a result as the output showed it, for exports that must be readable without a script: the
// chosen metric (the cell's chart choice, else the chart's first metric, as the renderer starts), one line per
// value of the "Lines by" column in the same style as in the notebook (core/aq/line-styles), every line in the
// legend (beyond MAX_CHART_LINES, as the renderer, the rest is named in a note), the unit on the axis.
import { lineStyles, type StyleSlots } from '../../aq/line-styles';
import { metricUnit } from '../../aq/metric-info';
import {
  chartGroupColumn,
  chartMetricColumns,
  chartTimeColumn,
  lineLabels,
  MAX_CHART_LINES,
} from '../../table/chart-columns';
import {
  type Column,
  cellText,
  columnIndexOf,
  isNumeric,
  type NumericColumn,
  numberAt,
  type Table,
} from '../../table/table';
import type { ChartChoice } from '../renderer-protocol';
import { type PlotSeries, svgTimeChart } from './svg-plot';

interface ExportChart {
  svg: string;
  /** What the chart leaves out, said under it. */
  notes: string[];
}

/** The metric and "Lines by" columns of a choice (names), else the renderer's defaults. */
function chartColumns(table: Table, choice?: ChartChoice): { metric: number; group: number } {
  const metrics = chartMetricColumns(table);
  const named = choice?.metric !== undefined ? columnIndexOf(table, choice.metric) : -1;
  const metric = metrics.includes(named) ? named : (metrics[0] ?? -1);
  let group = chartGroupColumn(table);
  if (choice?.linesBy === '') group = -1;
  else if (choice?.linesBy !== undefined) {
    const g = table.columns.findIndex((c) => c.name === choice.linesBy && !isNumeric(c));
    if (g >= 0) group = g;
  }
  return { metric, group };
}

function linesOf(table: Table, time: NumericColumn, metric: NumericColumn, group: Column | undefined) {
  const lines = new Map<string, Array<[number, number]>>();
  for (let r = 0; r < table.rowCount; r++) {
    const x = numberAt(time, r);
    const y = numberAt(metric, r);
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    const key = group ? cellText(group, r) || '(none)' : metric.name;
    const pts = lines.get(key);
    if (pts) pts.push([x, y]);
    else lines.set(key, [[x, y]]);
  }
  return lines;
}

/**
 * The chart as an `<svg>` with its notes, or undefined when the table has no time axis or no metric. `notesInside`:
 * the notes are drawn under the legend too (an image saved alone; an export prints them under the chart). `known`:
 * the connection's line style slots (ResultInfo.datasourceStyles, checked), as the output's chart uses them.
 */
export function svgChart(
  table: Table,
  choice?: ChartChoice,
  notesInside = false,
  known?: StyleSlots,
): ExportChart | undefined {
  const t = chartTimeColumn(table);
  const { metric: m, group: g } = chartColumns(table, choice);
  if (t < 0 || m < 0 || table.rowCount === 0) return undefined;
  const metric = table.columns[m] as NumericColumn;
  const group = g >= 0 ? table.columns[g] : undefined;
  const lines = linesOf(table, table.columns[t] as NumericColumn, metric, group);
  if (lines.size === 0) return undefined;
  const keys = [...lines.keys()].sort();
  const styles = lineStyles(group ? lineLabels(table, g) : [metric.name], known);
  const drawn = keys.slice(0, MAX_CHART_LINES);
  const series: PlotSeries[] = drawn.map((k) => ({
    label: k,
    points: lines.get(k)!.sort((a, b) => a[0] - b[0]),
    style: styles.get(k)!,
  }));
  const unit = metricUnit(metric.metric) ?? '';
  const by = group ? `, lines by ${group.name}` : '';
  const notes = [`${metric.name}${unit ? ` [${unit}]` : ''}${by}: ${drawn.length} of ${keys.length} lines drawn.`];
  if (keys.length > drawn.length)
    notes.push(`Not drawn (over ${MAX_CHART_LINES} lines): ${keys.slice(MAX_CHART_LINES).join(', ')}.`);
  const svg = svgTimeChart({
    title: metric.name,
    yLabel: unit || metric.name,
    series,
    notes: notesInside && keys.length > drawn.length ? notes : undefined,
  });
  return { svg, notes };
}
