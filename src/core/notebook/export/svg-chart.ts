// The chart of a result as the output showed it, for exports that must be readable without a script and for the
// Chart view's "Save image…": the chosen metric and up to two more (the cell's chart choice `also`: stacked panels,
// each with its own unit and value axis, or with `twoAxes` the second on a right axis), else the chart's first
// metric, as the renderer starts; one line per value of the "Lines by" column in the same style as in the notebook
// (core/aq/line-styles, or the styles the caller passes), every line in the legend (beyond MAX_CHART_LINES, as the
// renderer, the rest is named in a note); raw values or hourly / daily means (`resample`, core/aq/resample) in the
// zone the output shows its times in, the time axis drawn in that zone; the AQI category bands behind a metric that
// has EPA breakpoints, each named in words.
import { type LineStyle, lineStyles, type StyleSlots } from '../../aq/line-styles';
import { aqiBandsOf, metricUnit } from '../../aq/metric-info';
import { type ResamplePeriod, resampleMeans } from '../../aq/resample';
import {
  chartGroupColumn,
  chartMetricColumns,
  chartTimeColumn,
  lineLabels,
  MAX_CHART_LINES,
} from '../../table/chart-columns';
import { resultFrequency } from '../../table/collocation';
import {
  type Column,
  cellText,
  columnIndexOf,
  isNumeric,
  type NumericColumn,
  numberAt,
  type Table,
} from '../../table/table';
import { UTC, type Zone } from '../../time/zone';
import type { ChartChoice } from '../renderer-protocol';
import { type PlotSeries, svgTimePanels, type TimePanel } from './svg-plot';

interface ExportChart {
  svg: string;
  /** What the chart leaves out, said under it. */
  notes: string[];
}

interface ChartImageOptions {
  /** The zone the output shows its times in (ResultInfo.timeZone, or the table's zone button): UTC by default. */
  zone?: Zone;
  /** The notes are drawn under the legend too (an image saved alone; an export prints them under the chart). */
  notesInside?: boolean;
  /** Each line's style by its label (the renderer's); by default core/aq/line-styles over the "Lines by" values. */
  styles?: ReadonlyMap<string, LineStyle>;
  /** Else: the connection's line style slots (ResultInfo.datasourceStyles, checked), as the output's chart uses them. */
  known?: StyleSlots;
}

/** Metrics drawn at once: the first and two more (the renderer's chart-panels MAX_PANELS). */
const MAX_METRICS = 3;

/** The metric columns (the chosen one first, then `also`) and the "Lines by" column of a choice, else the defaults. */
function chartColumns(table: Table, choice?: ChartChoice): { metrics: number[]; group: number } {
  const candidates = chartMetricColumns(table);
  const named = choice?.metric !== undefined ? columnIndexOf(table, choice.metric) : -1;
  const metric = candidates.includes(named) ? named : (candidates[0] ?? -1);
  const also = (choice?.also ?? []).map((name) => columnIndexOf(table, name)).filter((c) => candidates.includes(c));
  const metrics = metric < 0 ? [] : [...new Set([metric, ...also])].slice(0, MAX_METRICS);
  let group = chartGroupColumn(table);
  if (choice?.linesBy === '') group = -1;
  else if (choice?.linesBy !== undefined) {
    const g = table.columns.findIndex((c) => c.name === choice.linesBy && !isNumeric(c));
    if (g >= 0) group = g;
  }
  return { metrics, group };
}

/** Each line's points of a metric, by the line's label: raw values in time order, or the means per period. */
function linesOf(table: Table, time: NumericColumn, metric: NumericColumn, group: Column | undefined, at: Resampling) {
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
  for (const [key, pts] of lines) {
    if (at.period === 'raw') pts.sort((a, b) => a[0] - b[0]);
    else {
      const m = resampleMeans(
        pts.map((p) => p[0]),
        pts.map((p) => p[1]),
        at.period,
        at.zone,
      );
      lines.set(
        key,
        Array.from(m.starts, (s, i) => [s, m.means[i]]),
      );
    }
  }
  return lines;
}

interface Resampling {
  period: ResamplePeriod;
  zone: Zone;
}

/** A metric's lines (the first MAX_CHART_LINES by label), its unit and what it leaves out. */
function metricLines(table: Table, col: number, group: number, at: Resampling, styles: ReadonlyMap<string, LineStyle>) {
  const metric = table.columns[col] as NumericColumn;
  const groupCol = group >= 0 ? table.columns[group] : undefined;
  const lines = linesOf(table, table.columns[chartTimeColumn(table)] as NumericColumn, metric, groupCol, at);
  const keys = [...lines.keys()].sort();
  const fallback = lineStyles(keys);
  const series: PlotSeries[] = keys.slice(0, MAX_CHART_LINES).map((k) => ({
    label: k,
    points: lines.get(k)!,
    style: styles.get(k) ?? fallback.get(k)!,
  }));
  const unit = metricUnit(metric.metric) ?? '';
  const by = groupCol ? `, lines by ${groupCol.name}` : '';
  const notes = [`${metric.name}${unit ? ` [${unit}]` : ''}${by}: ${series.length} of ${keys.length} lines drawn.`];
  if (keys.length > series.length)
    notes.push(`Not drawn (over ${MAX_CHART_LINES} lines): ${keys.slice(MAX_CHART_LINES).join(', ')}.`);
  return { metric, unit, series, notes };
}

type MetricLines = ReturnType<typeof metricLines>;

/** A metric's panel: its title with the unit, the unit on its axis, the AQI bands behind it when it has them. */
function panelOf(m: MetricLines): TimePanel {
  const bands = aqiBandsOf(m.metric.metric).map((b) => ({
    from: b.from,
    to: b.to,
    colour: b.category.colour,
    label: b.category.name,
  }));
  return {
    title: m.unit ? `${m.metric.name} [${m.unit}]` : m.metric.name,
    yLabel: m.unit || m.metric.name,
    series: m.series,
    bands,
  };
}

/** The panels: one per metric, or (two metrics on left/right axes) the second's lines dotted on a right axis. */
function panelsOf(drawn: MetricLines[], twoAxes: boolean): TimePanel[] {
  if (!twoAxes || drawn.length !== 2) return drawn.map(panelOf);
  const [first, second] = drawn;
  const right = second.series.map((s) => ({
    ...s,
    label: `${s.label} · ${second.metric.name}`,
    style: { colour: s.style.colour, dash: [2, 3] },
  }));
  return [{ ...panelOf(first), right: { yLabel: second.unit || second.metric.name, series: right } }];
}

const MEANS: Record<ResamplePeriod, string> = { raw: '', hour: 'hourly means', day: 'daily means' };

/**
 * The chart as an `<svg>` with its notes, or undefined when the table has no time axis or no metric with values.
 */
export function svgChart(table: Table, choice?: ChartChoice, options: ChartImageOptions = {}): ExportChart | undefined {
  const t = chartTimeColumn(table);
  const { metrics, group } = chartColumns(table, choice);
  if (t < 0 || !metrics.length || table.rowCount === 0) return undefined;
  const at: Resampling = { period: choice?.resample ?? 'raw', zone: options.zone ?? UTC };
  const labels = group >= 0 ? lineLabels(table, group) : [table.columns[metrics[0]].name];
  const styles = options.styles ?? lineStyles(labels, options.known);
  const all = metrics.map((c) => metricLines(table, c, group, at, styles));
  const drawn = all.filter((m) => m.series.length);
  if (!all[0].series.length) return undefined;
  // Said under the chart; in an image saved alone, what it leaves out is drawn under its legend too.
  const omitted = drawn.flatMap((m) => m.notes.slice(1));
  for (const m of all) if (!m.series.length) omitted.push(`${m.metric.name}: no values to draw.`);
  const means = MEANS[at.period];
  const names = drawn.map((m) => m.metric.name).join(', ');
  const title = means ? `${names} (${means})` : names;
  const svg = svgTimePanels({
    title,
    panels: panelsOf(drawn, choice?.twoAxes === true),
    zone: at.zone,
    frequency: at.period === 'raw' ? resultFrequency(table) : at.period,
    bandsName: 'US EPA AQI',
    notes: options.notesInside && omitted.length ? omitted : undefined,
  });
  return { svg, notes: [...drawn.map((m) => m.notes[0]), ...omitted] };
}
