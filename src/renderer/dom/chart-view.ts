// The chart view: a chosen metric over time, one line per datasource (uPlot), in the theme's chart colours.
// Its unit on the axis; behind a metric with EPA breakpoints, the AQI category bands with a legend
// (colour plus name); QC-invalid values marked as hollow points in the theme's error colour, or hidden by
// a toggle, with their count; a legend of QC flag codes and statuses; an optional threshold line.
import uPlot from 'uplot';
import { type OutputFrequency, PERIOD_MS } from '../../core/api/types';
import type { StyleSlots } from '../../core/aq/line-styles';
import { aqiBandsOf } from '../../core/aq/metric-info';
import { periodStarter, resamplePeriodOf } from '../../core/aq/resample';
import type { ChartChoice } from '../../core/notebook/renderer-protocol';
import { columnIndexOf, type Table } from '../../core/table/table';
import { resultFrequency, unitOf } from '../model/aq-views';
import { chartMemory } from '../model/chart-choice';

import {
  buildChartLines,
  type ChartData,
  type ChartLayout,
  chartGroupChoices,
  chartGroupColumn,
  chartLayout,
  chartMetricColumns,
  chartTimeColumn,
  isNone,
  type LineValues,
  linesRange,
} from '../model/chart-series';

import { lineColours, tableLineStyles } from '../model/colour';

import {
  formatNumber,
  formatTime,
  type TimeZoneMode,
  timeAxisTitle,
  timeTickIncrements,
  timeTickLabels,
} from '../model/format';

import { qcInvalidTest, qcSiblings, statusTone } from '../model/qc';
import { type DecimatedDrawing, decimatedDrawing } from './chart-decimation';
import {
  extraMetricSelect,
  hideInvalidText,
  MAX_PANELS,
  pairedInvalidLabel,
  panelTitle,
  QC_INVALID_LABEL,
  realign,
  sharedRange,
  sharedXScale,
  unionTimes,
} from './chart-panels';
import { h } from './h';
import { resampleNote, resampleSelect } from './resample-select';

/** Colours for `n` lines by position: the line palette (never the QC-invalid red nor an AQI band's hue). */
export function palette(_el: HTMLElement, n: number): string[] {
  return lineColours(n);
}

/** A colour square (set through CSSOM: the webview's CSP may refuse style attributes). */
export function swatch(colour: string, className = 'mt-swatch'): HTMLElement {
  const el = h('span', { className, attrs: { 'aria-hidden': 'true' } });
  el.style.background = colour;
  return el;
}

export function themeVar(el: HTMLElement, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

/** The axes' text colour in the theme. */
function axisText(el: HTMLElement): string {
  return themeVar(el, '--vscode-descriptionForeground', '#888');
}

/** Axis options in the theme's colours, with a label (the unit) when given. */
export function themedAxis(el: HTMLElement, label?: string): uPlot.Axis {
  const stroke = axisText(el);
  const grid = 'rgba(128,128,128,0.2)';
  return { stroke, grid: { stroke: grid }, ticks: { stroke: grid }, label, labelSize: label ? 20 : 0 };
}

/** AQI category bands to draw behind a metric column's values (empty for metrics without EPA breakpoints). */
function aqiBandsFor(table: Table, metricCol: number) {
  return aqiBandsOf(table.columns[metricCol]?.metric);
}

interface ChartViewOptions {
  /** A horizontal line (e.g. the exceedance threshold), in the metric's unit. */
  threshold?: () => number | undefined;
  /** Starts on this metric column instead of the first. */
  metricCol?: number;
  /** Called when the user picks another metric. */
  onMetricChange?: (col: number) => void;
  /** Called when the user hides or shows the QC-invalid values. */
  onQcToggle?: () => void;
  /** The connection's line style slots (PanelContext.styleSlots): a datasource's colour in every result. */
  styleSlots?: StyleSlots;
}

/**
 * The "Lines by" choice: every text-like column, the datasource (or first label) column selected, or the
 * remembered one by name ("" for one line); or one line.
 */
function linesBySelect(table: Table, remembered?: string): HTMLSelectElement {
  const select = h('select', { className: 'mt-lines-by', attrs: { 'aria-label': 'Lines by' } });
  for (const i of chartGroupChoices(table)) {
    const opt = h('option', { text: table.columns[i].name });
    opt.value = String(i);
    select.appendChild(opt);
  }
  const one = h('option', { text: '(one line)' });
  one.value = '-1';
  select.appendChild(one);
  const named = remembered ? columnIndexOf(table, remembered) : -1;
  const start = remembered === '' ? -1 : chartGroupChoices(table).includes(named) ? named : chartGroupColumn(table);
  select.value = String(start);
  return select;
}

/** A number rounded to 3 decimals as text. */
function roundText(v: number): string {
  return formatNumber(Math.round(v * 1000) / 1000);
}

/** A legend time (seconds) as ISO-like text in the zone. */
function timeText(seconds: number | null, zone: TimeZoneMode): string {
  if (seconds == null) return '';
  return formatTime(seconds * 1000, zone);
}

/**
 * The x axis in the zone: uPlot places its ticks by `tzDate` (local midnights and hours of the IANA zone) and
 * labels them with our one format (timeTickLabels), titled with what the times mean and the zone.
 */
function timeAxis(
  el: HTMLElement,
  zone: TimeZoneMode,
  title: string,
  periodMs: number,
): Partial<uPlot.Options> & { axis: uPlot.Axis } {
  return {
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), zone.isUtc ? 'Etc/UTC' : zone.name),
    axis: {
      ...themedAxis(el, title),
      incrs: timeTickIncrements(periodMs / 1000),
      values: (_u, splits, _axis, _space, increment) => timeTickLabels(splits, increment, zone),
    },
  };
}

/**
 * Room (CSS px) right of the plot for half the last time label (a date, centred on its tick), so it is not clipped;
 * every panel has it, so their time axes stay aligned.
 */
const RIGHT_PAD = 36;

/** A legend value with its unit, "—" when there is none (null, or NaN in a typed line). */
function valueText(v: number | null, unit: string): string {
  return isNone(v) ? '—' : `${roundText(v)}${unit ? ` ${unit}` : ''}`;
}

/**
 * A line's legend value with its unit: at the hovered time (the cursor's index; "—" when the line has none there,
 * its index then null: hoverIdx), else its latest value ("—" when none).
 */
function legendValue(values: LineValues, unit: string): uPlot.Series.Value {
  let latest: number | null = null;
  for (let i = values.length - 1; i >= 0 && isNone(latest); i--) latest = values[i];
  return (u, v, _s, idx) => valueText(u.cursor.idx == null ? latest : idx == null ? null : v, unit);
}

/** The hovered index of a series: none (null) where a typed line holds NaN, so uPlot hides its point there. */
const hoverIdx: uPlot.Cursor.DataIdxRefiner = (u, seriesIdx, idx) => {
  const v = u.data[seriesIdx][idx];
  return typeof v === 'number' && Number.isNaN(v) ? null : idx;
};

/**
 * A y scale's range: its shown series' values at the times in view (linesRange: typed lines hold NaN, which uPlot's
 * own scan would take for a value), padded as uPlot pads an automatic range (rangeNum, 10 %).
 */
function yRange(scale: string): uPlot.Range.Function {
  return (u) => {
    const lines = u.series.flatMap((s, i) => (i > 0 && s.scale === scale && s.show !== false ? [u.data[i]] : []));
    const [i0, i1] = u.series[0].idxs ?? [0, u.data[0].length - 1];
    const r = linesRange(lines as Array<ArrayLike<number | null>>, i0 ?? 0, i1 ?? u.data[0].length - 1);
    return r ? uPlot.rangeNum(r[0], r[1], 0.1, true) : [null, null];
  };
}

/**
 * The QC-invalid marks' legend value: before a hover, how many values are marked; at a hovered time, the
 * invalid value there, or "—" when the value there is valid.
 */
function invalidLegendValue(count: number, unit: string): uPlot.Series.Value {
  return (_u, v, _s, idx) => (idx == null ? `${count.toLocaleString('en-US')} marked` : valueText(v, unit));
}

/** The least height (CSS px) of a band's visible part that gets its category's name written in it. */
const BAND_LABEL_MIN = 14;

/**
 * Draws the AQI category bands behind the plot (clipped to it), each with its category's name at its right
 * edge where it is tall enough (the colour is never the only sign), in the axis text's colour.
 */
function bandsHook(bands: ReturnType<typeof aqiBandsFor>, textColour: string) {
  return (u: uPlot) => {
    const { left, top, width: w, height: hgt } = u.bbox;
    const ctx = u.ctx;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, w, hgt);
    ctx.clip();
    for (const b of bands) {
      const y0 = Math.min(top + hgt, u.valToPos(b.from, 'y', true));
      const y1 = Math.max(top, u.valToPos(b.to, 'y', true));
      ctx.globalAlpha = 0.2;
      ctx.fillStyle = b.category.colour;
      ctx.fillRect(left, y1, w, y0 - y1);
      if (y0 - y1 < BAND_LABEL_MIN * devicePixelRatio) continue;
      ctx.globalAlpha = 0.85;
      ctx.fillStyle = textColour;
      ctx.font = `${10 * devicePixelRatio}px sans-serif`;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'top';
      ctx.fillText(b.category.name, left + w - 4 * devicePixelRatio, y1 + 2 * devicePixelRatio);
    }
    ctx.restore();
  };
}

/** The AQI legend of a metric's bands: each category's swatch and name, its range in the unit as tooltip. */
function aqiLegend(bands: ReturnType<typeof aqiBandsFor>, unit: string): HTMLElement {
  const items = bands.map((b) =>
    h('span', { className: 'mt-legend-item', title: `${b.category.name}: ${b.from}–${b.to} ${unit}` }, [
      swatch(b.category.colour),
      h('span', { text: b.category.name }),
    ]),
  );
  return h('div', { className: 'mt-aqi-legend' }, [h('span', { text: 'US EPA AQI: ' }), ...items]);
}

/** Draws the threshold as a dashed line in the error colour (nothing without one). */
function thresholdHook(threshold: number | undefined, colour: string) {
  return (u: uPlot) => {
    if (threshold === undefined || Number.isNaN(threshold)) return;
    const y = u.valToPos(threshold, 'y', true);
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5 * devicePixelRatio;
    ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y);
    ctx.lineTo(u.bbox.left + u.bbox.width, y);
    ctx.stroke();
    ctx.restore();
  };
}

const LINE_WIDTH = 1.5;
const FOCUSED_WIDTH = 3;

/**
 * Hovering near a line or over its legend entry focuses it: uPlot dims the other lines (focus.alpha); this
 * widens the focused line and names it on the plot's root (data-focused, empty when none), for a test to read.
 */
function focusHook(u: uPlot, index: number | null, opts: uPlot.Series): void {
  // uPlot passes the setSeries options ({ focus } or { show }) where its types say Series.
  if ((opts as { focus?: boolean }).focus == null) return;
  u.series.forEach((s, k) => {
    if (k > 0 && s.width) s.width = k === index ? FOCUSED_WIDTH : LINE_WIDTH;
  });
  u.root.dataset.focused = index == null ? '' : String(u.series[index]?.label ?? '');
  u.redraw(false);
}

/** A plot's scales: time on the panels' shared range; 'y' (and a right axis's `right`) ranged by yRange. */
function scalesOf(range: [number, number] | undefined, right?: string): uPlot.Scales {
  return { x: sharedXScale(range), y: { range: yRange('y') }, ...(right ? { [right]: { range: yRange(right) } } : {}) };
}

/** The marks' values for hover: at each time, the first line's invalid value there (null: none). */
function hoveredMarks(invalid: ReadonlyArray<LineValues>, length: number): Array<number | null> {
  const out = new Array<number | null>(length).fill(null);
  for (let i = 0; i < length; i++)
    for (const line of invalid)
      if (!isNone(line[i])) {
        out[i] = line[i];
        break;
      }
  return out;
}

/** The means a resampled chart draws: its lines' values (null where a line has none in a period). */
function meanCount(data: ChartData<LineValues>): number {
  let n = 0;
  for (const s of data.series) for (const v of s.values) if (!isNone(v)) n++;
  return n;
}

/** The chart's note: points and lines ("144 values → 9 means" when resampled, `means` naming them). */
function noteText(data: ChartData<LineValues>, means: string): string {
  const omitted = data.omittedSeries ? `; ${data.omittedSeries} more datasources not drawn` : '';
  const drawn = means ? ` → ${meanCount(data).toLocaleString('en-US')} means` : '';
  return `${data.points.toLocaleString('en-US')} ${means ? 'values' : 'points'}${drawn}, ${data.series.length} lines${omitted}${means ? `; ${means}` : ''}`;
}

let syncCount = 0;

export class ChartView {
  readonly element: HTMLElement;
  readonly select: HTMLSelectElement;
  /** The column whose values split the lines (a datasource by default; -1: one line). */
  readonly linesBy: HTMLSelectElement;
  /** Raw values, or hourly / daily means in the view's zone. */
  readonly resample: HTMLSelectElement;
  /** Up to two more metrics, each in a panel under the first (value -1: none). */
  readonly extras: HTMLSelectElement[];
  private readonly panelsHost: HTMLElement;
  /** With one more metric: both in one panel, its axis on the right. */
  readonly twoAxes: HTMLInputElement;
  private extraPlots: uPlot[] = [];
  private readonly syncKey = `mt-chart-${++syncCount}`;
  private readonly note: HTMLElement;
  private readonly plotHost: HTMLElement;
  private readonly legend: HTMLElement;
  private readonly hideInvalid: HTMLInputElement;
  private readonly hideInvalidLabel: HTMLElement;
  private plot?: uPlot;
  /** The lines' styles in the current draw. */
  private styles?: ReturnType<typeof tableLineStyles>;
  private resize?: ResizeObserver;
  private frame = 0;
  private readonly metricCols: number[];
  private readonly siblings;

  constructor(
    private readonly table: Table,
    private readonly rows: () => Uint32Array,
    private readonly timeZone: () => TimeZoneMode,
    private readonly options: ChartViewOptions = {},
  ) {
    this.metricCols = chartMetricColumns(table);
    this.siblings = qcSiblings(table);
    this.select = h('select', { className: 'mt-metric', attrs: { 'aria-label': 'Metric' } });
    for (const i of this.metricCols) {
      const unit = unitOf(table.columns[i]);
      const opt = h('option', { text: unit ? `${table.columns[i].name} [${unit}]` : table.columns[i].name });
      opt.value = String(i);
      this.select.appendChild(opt);
    }
    const memory = chartMemory(table);
    const remembered = memory?.choice?.metric !== undefined ? columnIndexOf(table, memory.choice.metric) : -1;
    const start = options.metricCol ?? remembered;
    if (this.metricCols.includes(start)) this.select.value = String(start);
    this.select.addEventListener('change', () => {
      options.onMetricChange?.(Number(this.select.value));
      this.remember();
      this.draw();
    });
    this.hideInvalid = h('input', { className: 'mt-hide-invalid', attrs: { type: 'checkbox' } });
    this.hideInvalid.addEventListener('change', () => {
      this.draw();
      options.onQcToggle?.();
    });
    this.hideInvalidLabel = h('span', { className: 'mt-invalid-count' });
    const toggle = h('label', { className: 'mt-qc-toggle', title: 'Leave QC-invalid values out of the lines' }, [
      this.hideInvalid,
      this.hideInvalidLabel,
    ]);
    this.linesBy = linesBySelect(table, memory?.choice?.linesBy);
    this.linesBy.addEventListener('change', () => {
      this.remember();
      this.draw();
    });
    this.resample = resampleSelect(memory?.choice?.resample);
    this.resample.addEventListener('change', () => {
      this.remember();
      this.draw();
    });
    this.extras = Array.from({ length: MAX_PANELS - 1 }, (_, k) =>
      extraMetricSelect(table, this.metricCols, k, memory?.choice?.also?.[k]),
    );
    for (const extra of this.extras)
      extra.addEventListener('change', () => {
        this.remember();
        this.draw();
      });
    this.panelsHost = h('div', { className: 'mt-panels' });
    this.twoAxes = h('input', { className: 'mt-two-axes', attrs: { type: 'checkbox' } });
    this.twoAxes.checked = memory?.choice?.twoAxes === true;
    this.twoAxes.addEventListener('change', () => {
      this.remember();
      this.draw();
    });
    this.note = h('span', { className: 'mt-status mt-chart-note' });
    this.plotHost = h('div', { className: 'mt-plot' });
    this.legend = h('div', { className: 'mt-chart-legend' });
    this.element = h('div', { className: 'mt-chart' }, [
      h('div', { className: 'mt-toolbar' }, [
        h('label', { text: 'Metric ' }),
        this.select,
        h('label', { text: 'and ' }),
        ...this.extras,
        h('label', { className: 'mt-two-axes-toggle', title: 'Two metrics in one panel, the second on a right axis' }, [
          this.twoAxes,
          h('span', { text: ' Left/right axes' }),
        ]),
        h('label', { text: 'Lines by ' }),
        this.linesBy,
        h('label', { text: 'Resample ' }),
        this.resample,
        toggle,
        this.note,
      ]),
      this.plotHost,
      this.legend, // the first metric's legends (AQI bands, threshold, QC) under its own plot, above the panels
      this.panelsHost,
    ]);
    // Redraw at the new size when the container changes (sidebar or panel resized, window resized).
    if (typeof ResizeObserver !== 'undefined') {
      this.resize = new ResizeObserver(() => {
        if (this.frame) return;
        this.frame = requestAnimationFrame(() => {
          this.frame = 0;
          this.fit();
        });
      });
      this.resize.observe(this.element);
    }
  }

  /** The plot's size: the container's width; in a panel (.mt-fill) also its height, else 300 px. */
  private size(): { width: number; height: number } {
    const width = Math.max(320, (this.element.clientWidth || 800) - 14);
    const fill = !!this.element.closest('.mt-fill');
    return { width, height: fill ? Math.max(160, this.plotHost.clientHeight) : 300 };
  }

  /** Fits the plot to its container; in a panel, the legend below it too (measured once uPlot has laid it out). */
  private fit(): void {
    const plot = this.plot;
    if (!plot || this.element.hidden) return;
    const size = this.size();
    // The same size again (the observer's first call, after the draw that sized the plots) redraws nothing.
    if (plot.width !== size.width || plot.height !== size.height) plot.setSize(size);
    for (const p of this.extraPlots) if (p.width !== size.width) p.setSize({ width: size.width, height: p.height });
    if (!this.element.closest('.mt-fill')) return;
    requestAnimationFrame(() => {
      const over = this.plotHost.scrollHeight - this.plotHost.clientHeight;
      if (this.plot === plot && over > 0) plot.setSize({ ...size, height: Math.max(120, size.height - over) });
    });
  }

  /** What the chart shows, by column names: the cell keeps it and its exports and image draw it (svg-chart). */
  choice(): ChartChoice {
    const by = Number(this.linesBy.value);
    const metric = this.table.columns[this.metricColumn]?.name;
    const resample = resamplePeriodOf(this.resample.value);
    const also = this.extraColumns(this.metricColumn).map((c) => this.table.columns[c].name);
    return {
      metric,
      linesBy: by >= 0 ? this.table.columns[by].name : '',
      ...(resample === 'raw' ? {} : { resample }),
      ...(also.length ? { also } : {}),
      ...(also.length === 1 && this.twoAxes.checked ? { twoAxes: true } : {}),
    };
  }

  /** Tells the notebook the chart's choice (kept in the cell, drawn by its exports). */
  private remember(): void {
    chartMemory(this.table)?.remember?.(this.choice());
  }

  /** The data's period: the result's frequency, or the resampled period. */
  private period(): OutputFrequency {
    const period = resamplePeriodOf(this.resample.value);
    return period === 'raw' ? resultFrequency(this.table) : period;
  }

  /** The time axis's title: the result's frequency, or the resampled period's ("day starting (zone)"). */
  private timeTitle(zone: TimeZoneMode): string {
    return timeAxisTitle(this.period(), zone);
  }

  /** The time axis in the view's zone, its ticks no finer than the data's period. */
  private timeAxisOf(zone: TimeZoneMode) {
    return timeAxis(this.element, zone, this.timeTitle(zone), PERIOD_MS[this.period()]);
  }

  get metricColumn(): number {
    return Number(this.select.value);
  }

  /** The chosen extra metrics: distinct, not the first one. */
  private extraColumns(metricCol: number): number[] {
    const cols = this.extras.map((e) => Number(e.value)).filter((c) => c >= 0 && c !== metricCol);
    return [...new Set(cols)];
  }

  /** The rows by time slot (resampled: by period) and "Lines by" group: one layout for every panel of a draw. */
  private layoutOf(timeCol: number): { rows: Uint32Array; layout: ChartLayout; periodStart?: (ms: number) => number } {
    const period = resamplePeriodOf(this.resample.value);
    const periodStart = period === 'raw' ? undefined : periodStarter(period, this.timeZone());
    const rows = this.rows();
    return {
      rows,
      periodStart,
      layout: chartLayout(this.table, rows, timeCol, Number(this.linesBy.value), periodStart),
    };
  }

  /** A metric's lines (typed) with the view's "Lines by", QC toggle and resampling, on the draw's layout. */
  private dataOf(metricCol: number, on: ReturnType<ChartView['layoutOf']>): ChartData<Float64Array> {
    const qc = {
      invalid: qcInvalidTest(this.table, this.siblings, metricCol),
      hideInvalid: this.hideInvalid.checked,
      periodStart: on.periodStart,
    };
    return buildChartLines(this.table, metricCol, on.layout, qc);
  }

  /** Two metrics in one panel on their union times: the second's lines dotted, named with it, on a right axis. */
  private pairedSeries(
    first: ChartData<LineValues>,
    second: ChartData<LineValues>,
    unit: string,
    cols: number[],
    drawing: DecimatedDrawing,
  ) {
    const xs = unionTimes(first, second);
    const a = this.seriesOf(realign(first, xs), unit, drawing);
    const [col0, col] = cols;
    const unit2 = unitOf(this.table.columns[col]);
    const b = this.seriesOf(realign(second, xs), unit2, drawing);
    const name = this.table.columns[col].name;
    const marks = (s: uPlot.Series, c: number) =>
      s.label === QC_INVALID_LABEL && pairedInvalidLabel(this.table.columns[c].name, c === col ? 'right' : 'left');
    const left = a.series.map((s) => ({ ...s, label: marks(s, col0) || s.label }));
    const right = b.series
      .slice(1)
      .map(
        (s) => ({ ...s, scale: 'y2', dash: [2, 3], label: marks(s, col) || `${s.label} · ${name}` }) as uPlot.Series,
      );
    const axis: uPlot.Axis = {
      ...themedAxis(this.element, unit2 || name),
      scale: 'y2',
      side: 1,
      grid: { show: false },
    };
    return { series: [...left, ...right], values: [...a.values, ...b.values], axes: [axis], scale: 'y2' };
  }

  /**
   * The extra metrics' panels under the first: own unit and y axis, the AQI bands of its own metric (none without
   * EPA breakpoints) with their legend, the shared time range, cursor synced.
   */
  private drawPanels(cols: number[], datas: ChartData<LineValues>[], range: [number, number] | undefined): void {
    const zone = this.timeZone();
    cols.forEach((col, k) => {
      const unit = unitOf(this.table.columns[col]);
      const drawing = decimatedDrawing();
      const { series, values } = this.seriesOf(datas[k], unit, drawing);
      const { tzDate, axis } = this.timeAxisOf(zone);
      const bands = aqiBandsFor(this.table, col);
      const host = h('div', { className: 'mt-plot mt-panel-plot' });
      const legend = bands.length ? [aqiLegend(bands, unit)] : [];
      this.panelsHost.append(h('div', { className: 'mt-panel' }, [panelTitle(this.table, col), host, ...legend]));
      const plot = new uPlot(
        {
          width: this.size().width,
          height: 200,
          padding: [null, RIGHT_PAD, null, null],
          tzDate,
          scales: scalesOf(range),
          cursor: { sync: { key: this.syncKey }, dataIdx: hoverIdx },
          legend: { show: false },
          axes: [axis, themedAxis(this.element, unit || undefined)],
          series,
          hooks: { drawClear: [bandsHook(bands, axisText(this.element))], drawSeries: [drawing.drawSeries] },
        },
        [datas[k].xs, ...values] as uPlot.AlignedData,
        host,
      );
      this.extraPlots.push(plot);
    });
  }

  /** Whether any of the metrics drawn has QC columns (the Hide QC-invalid toggle applies to all of them). */
  private hasQc(cols: number[]): boolean {
    return cols.some((c) => this.siblings.assessment[c] >= 0 || this.siblings.flags[c] >= 0);
  }

  /** Removes the plots and legends of the last draw. */
  private clear(): void {
    this.plot?.destroy();
    this.plot = undefined;
    for (const p of this.extraPlots) p.destroy();
    this.extraPlots = [];
    this.panelsHost.textContent = '';
    this.plotHost.textContent = '';
    this.legend.textContent = '';
    this.styles = undefined;
  }

  draw(): void {
    this.clear();
    const timeCol = chartTimeColumn(this.table);
    const metricCol = this.metricColumn;
    if (timeCol < 0 || !this.metricCols.length) {
      this.note.textContent = timeCol < 0 ? 'No time column to chart.' : 'No numeric metric column to chart.';
      return;
    }
    const period = resamplePeriodOf(this.resample.value);
    const on = this.layoutOf(timeCol);
    const data = this.dataOf(metricCol, on);
    const extraCols = this.extraColumns(metricCol);
    const extraDatas = extraCols.map((c) => this.dataOf(c, on));
    const range = sharedRange([data, ...extraDatas]);
    this.hideInvalidLabel.textContent = hideInvalidText([data, ...extraDatas]);
    const hasQc = this.hasQc([metricCol, ...extraCols]);
    this.hideInvalidLabel.parentElement!.hidden = !hasQc;
    this.note.textContent = noteText(data, resampleNote(period, this.timeZone()));
    const unit = unitOf(this.table.columns[metricCol]);
    const bands = aqiBandsFor(this.table, metricCol);
    const threshold = this.options.threshold?.();
    this.twoAxes.parentElement!.hidden = extraCols.length !== 1;
    const paired = this.twoAxes.checked && extraCols.length === 1;
    const drawing = decimatedDrawing();
    const { series, values, axes, scale } = paired
      ? this.pairedSeries(data, extraDatas[0], unit, [metricCol, extraCols[0]], drawing)
      : { ...this.seriesOf(data, unit, drawing), axes: [], scale: undefined };
    const zone = this.timeZone();
    const { tzDate, axis } = this.timeAxisOf(zone);
    const errorColour = themeVar(this.element, '--vscode-errorForeground', '#f14c4c');
    this.plot = new uPlot(
      {
        ...this.size(),
        padding: [null, RIGHT_PAD, null, null],
        tzDate,
        scales: scalesOf(range, scale),
        // Hovering near a line (or its legend entry) dims the others; the cursor moves in every panel.
        focus: { alpha: 0.25 },
        cursor: { focus: { prox: 24 }, sync: { key: this.syncKey }, dataIdx: hoverIdx },
        // A dashed line's legend marker is dashed too (uPlot draws every marker solid): with more lines than
        // colours, the legend tells the lines of one colour apart.
        legend: { markers: { dash: (u: uPlot, i: number) => (u.series[i].dash?.length ? 'dashed' : 'solid') } },
        axes: [axis, themedAxis(this.element, unit || undefined), ...axes],
        series,
        hooks: {
          drawClear: [bandsHook(bands, axisText(this.element))],
          drawSeries: [drawing.drawSeries],
          draw: [thresholdHook(threshold, errorColour)],
          setSeries: [focusHook],
        },
      },
      [paired ? unionTimes(data, extraDatas[0]) : data.xs, ...values] as uPlot.AlignedData,
      this.plotHost,
    );
    if (!paired) this.drawPanels(extraCols, extraDatas, range);
    this.legend.append(...this.legendItems(bands, threshold, unit, hasQc));
    this.fit();
  }

  /**
   * The lines (one per group, their legend values with the unit; before a hover, each line's latest value) and
   * one series of hollow marks for the invalid values of every line (no line).
   */
  private seriesOf(
    data: ChartData<LineValues>,
    unit: string,
    drawing: DecimatedDrawing,
  ): { series: uPlot.Series[]; values: LineValues[] } {
    const colours = palette(this.element, data.series.length);
    // Over every row of the "Lines by" column: once per draw, for all its panels.
    this.styles ??= tableLineStyles(this.table, Number(this.linesBy.value), this.options.styleSlots);
    const styles = this.styles;
    const errorColour = themeVar(this.element, '--vscode-errorForeground', '#f14c4c');
    const background = themeVar(this.element, '--vscode-editor-background', '#1f1f1f');
    const zone = this.timeZone();
    const series: uPlot.Series[] = [
      {
        label: this.timeTitle(zone),
        value: (_u, v, _s, idx) => (idx == null ? 'latest (hover for a time)' : timeText(v, zone)),
      },
      ...data.series.map((s, i) => ({
        label: s.label,
        stroke: styles.get(s.label)?.colour ?? colours[i],
        dash: styles.get(s.label)?.dash.slice(),
        width: LINE_WIDTH,
        spanGaps: false,
        // The y range is yRange's (uPlot's own scan would take a typed line's NaN for a value).
        auto: false,
        paths: drawing.line,
        value: legendValue(s.values, unit),
      })),
    ];
    const values: LineValues[] = data.series.map((s) => s.values);
    if (data.invalid && data.invalidCount && !this.hideInvalid.checked) {
      const mark = { size: 8, width: 1.5, fill: background };
      series.push({
        label: QC_INVALID_LABEL,
        stroke: errorColour,
        width: 0,
        auto: false,
        // Every line's invalid values drawn by the drawing (one mark per pixel); uPlot's own points not drawn.
        paths: drawing.marks(data.invalid, mark),
        points: { show: false, ...mark, stroke: errorColour },
        value: invalidLegendValue(data.invalidCount, unit),
      });
      values.push(hoveredMarks(data.invalid, data.xs.length));
    }
    return { series, values };
  }

  private legendItems(
    bands: ReturnType<typeof aqiBandsFor>,
    threshold: number | undefined,
    unit: string,
    hasQc: boolean,
  ): HTMLElement[] {
    const out: HTMLElement[] = [];
    if (bands.length) out.push(aqiLegend(bands, unit));
    if (threshold !== undefined && !Number.isNaN(threshold))
      out.push(h('div', { className: 'mt-threshold-legend', text: `– – threshold ${threshold} ${unit}` }));
    if (hasQc) out.push(this.qcLegend());
    return out;
  }

  /** The flag codes and statuses present in the result, explained. */
  private qcLegend(): HTMLElement {
    const flags = new Set<string>();
    const statuses = new Set<string>();
    for (const c of this.table.columns) {
      if (c.kind === 'qcFlags') for (const list of c.dict) for (const f of list) flags.add(f);
      if (c.kind === 'status') for (const s of c.dict) statuses.add(s);
    }
    const lines: HTMLElement[] = [
      h('div', {
        text: 'Hollow points: QC-invalid values. Flag codes read QC.<severity>.<group>.<number>: severity I = invalid; group OOB = out of bounds.',
      }),
    ];
    for (const f of [...flags].sort()) {
      const [, sev, group] = f.split('.');
      const meaning = [sev === 'I' ? 'invalid' : `severity ${sev ?? '?'}`, group === 'OOB' ? 'out of bounds' : group];
      lines.push(h('div', { className: 'mt-flag', text: `${f}: ${meaning.filter(Boolean).join(', ')}` }));
    }
    const statusText: Record<string, string> = {
      'sensor-ready': 'value as measured (raw = value)',
      'calibrated-ready': 'calibrated value',
      'calibration-missing': 'no calibrated value (value empty)',
      'calibration-processing': 'calibration in progress',
      'calibrated-reprocessing': 'being recalibrated',
      'calibration-unknown': 'calibration state unknown',
    };
    for (const s of [...statuses].sort())
      lines.push(
        h('div', {
          className: `mt-status-legend mt-tone-${statusTone(s)}`,
          text: `${s}: ${statusText[s] ?? 'a status this version does not know (shown as is)'}`,
        }),
      );
    const details = h('details', { className: 'mt-qc-legend' }, [h('summary', { text: 'QC flags and statuses' })]);
    details.append(...lines);
    return details;
  }

  destroy(): void {
    this.resize?.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    this.plot?.destroy();
    for (const p of this.extraPlots) p.destroy();
  }
}
