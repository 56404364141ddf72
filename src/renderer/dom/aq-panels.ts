// The air-quality views beside Table and Chart: Summary, Exceedances, Profiles, Collocation (the Map is in
// map-view.ts). Each computes from the rows shown (filters apply) when it is opened or the rows change.
// Tabular results are derived Tables shown by the same table widget (sort, filter, copy, save).
import uPlot from 'uplot';
import { defaultThreshold } from '../../core/aq/metric-info';
import { type Column, floatValues, type Table } from '../../core/table/table';
import {
  type Collocation,
  type CollocationAveraging,
  cachedOffset,
  collocation,
  exceedanceRows,
  type GroupProfiles,
  groupRows,
  profiles,
  referenceDatasources,
  resultFrequency,
  summaryTable,
  unitOf,
} from '../model/aq-views';
import { withAlpha } from '../model/colour';
import { formatNumber, type TimeZoneMode } from '../model/format';
import { ChartView, palette, themedAxis, themeVar } from './chart-view';
import { h } from './h';
import { metricSelectFor } from './metric-select';

export interface NestedTable {
  readonly element: HTMLElement;
  dispose(): void;
}

export interface PanelContext {
  table: Table;
  rows: () => Uint32Array;
  timeZone: () => TimeZoneMode;
  /** Reference-site datasource ids the host knows (ResultInfo.referenceSites; results without sourceType). */
  referenceSites?: readonly unknown[];
  /** Datasource names by id (ResultInfo.datasourceNames or a name column), for choices and hovers. */
  datasourceNames?: ReadonlyMap<string, string>;
  /** Shows a derived table with the table widget (sortable, filterable, copyable, savable). */
  nestedTable: (table: Table, title: string) => NestedTable;
}

export interface Panel {
  readonly element: HTMLElement;
  draw(): void;
  destroy(): void;
}

function numberCol(name: string, values: number[]): Column {
  return { name, kind: 'number', values: Float64Array.from(values) };
}
function timeCol(name: string, values: number[]): Column {
  return { name, kind: 'time', values: Float64Array.from(values) };
}
function idCol(name: string, values: string[]): Column {
  return { name, kind: 'identifier', dict: values, codes: Int32Array.from(values, (_, i) => i) };
}

export class SummaryPanel implements Panel {
  readonly element: HTMLElement;
  private readonly note = h('div', { className: 'mt-status mt-summary-note' });
  private readonly host = h('div', { className: 'mt-summary-table' });
  private nested?: NestedTable;

  constructor(private readonly ctx: PanelContext) {
    this.element = h('div', { className: 'mt-panel mt-summary' }, [this.note, this.host]);
  }

  draw(): void {
    const t0 = performance.now();
    const summary = summaryTable(this.ctx.table, this.ctx.rows());
    this.nested?.dispose();
    this.nested = this.ctx.nestedTable(summary, 'summary');
    this.host.appendChild(this.nested.element);
    const count = summary.columns.find((c) => c.name === 'count');
    let empty = 0;
    if (count?.kind === 'number') for (const v of floatValues(count)) if (v === 0) empty++;
    const noData = empty
      ? ` ${empty.toLocaleString('en-US')} ${empty === 1 ? 'row has' : 'rows have'} no data (count 0: no value of that metric in the rows shown, so no statistics; "no data" in the note column).`
      : '';
    this.note.textContent = `Per datasource × metric over the ${this.ctx.rows().length.toLocaleString('en-US')} rows shown; expected = ${resultFrequency(this.ctx.table)} periods from the first to the last time of the result (computed in ${Math.round(performance.now() - t0)} ms).${noData}`;
  }

  destroy(): void {
    this.nested?.dispose();
  }
}

export class ExceedancesPanel implements Panel {
  readonly element: HTMLElement;
  private readonly thresholdInput: HTMLInputElement;
  private readonly chart: ChartView;
  private readonly host = h('div', { className: 'mt-exceed-table' });
  private nested?: NestedTable;

  constructor(private readonly ctx: PanelContext) {
    this.thresholdInput = h('input', {
      className: 'mt-threshold',
      attrs: { type: 'number', step: 'any', 'aria-label': 'Threshold' },
    });
    const initial = metricSelectFor(ctx.table, 'mt-unused');
    this.chart = new ChartView(ctx.table, ctx.rows, ctx.timeZone, {
      threshold: () => this.threshold(),
      metricCol: Number(initial.value),
      onMetricChange: (col) => {
        this.setDefaultThreshold(col);
        this.drawTable();
      },
      onQcToggle: () => this.drawTable(),
    });
    this.setDefaultThreshold(this.chart.metricColumn);
    this.thresholdInput.addEventListener('change', () => this.draw());
    this.element = h('div', { className: 'mt-panel mt-exceedances' }, [
      h('div', { className: 'mt-toolbar' }, [
        h('label', { text: 'Above ' }),
        this.thresholdInput,
        h('span', { className: 'mt-status', text: 'strictly greater; default from the metric (EPA)' }),
      ]),
      this.chart.element,
      this.host,
    ]);
  }

  private threshold(): number | undefined {
    const v = this.thresholdInput.valueAsNumber;
    return Number.isNaN(v) ? undefined : v;
  }

  private setDefaultThreshold(col: number): void {
    const d = defaultThreshold(this.ctx.table.columns[col]?.metric);
    this.thresholdInput.value = d === undefined ? '' : String(d);
  }

  draw(): void {
    this.chart.draw();
    this.drawTable();
  }

  private drawTable(): void {
    this.nested?.dispose();
    this.nested = undefined;
    const threshold = this.threshold();
    if (threshold === undefined) {
      this.host.textContent = 'Enter a threshold.';
      return;
    }
    this.host.textContent = '';
    const col = this.chart.metricColumn;
    const rows = exceedanceRows(this.ctx.table, this.chart.countedRows(col), col, threshold);
    const table: Table = {
      columns: [
        idCol(
          'datasourceId',
          rows.map((r) => r.group),
        ),
        numberCol(
          'periods with value',
          rows.map((r) => r.periodsWithValue),
        ),
        numberCol(
          'periods above',
          rows.map((r) => r.periods),
        ),
        numberCol(
          '% above',
          rows.map((r) => (r.periodsWithValue ? Math.round((1000 * r.periods) / r.periodsWithValue) / 10 : 0)),
        ),
        numberCol(
          'longest run (periods)',
          rows.map((r) => r.longestRun),
        ),
        timeCol(
          'longest run from',
          rows.map((r) => r.longestRunStart),
        ),
        timeCol(
          'first above',
          rows.map((r) => r.first),
        ),
        timeCol(
          'last above',
          rows.map((r) => r.last),
        ),
      ],
      rowCount: rows.length,
    };
    this.nested = this.ctx.nestedTable(table, 'exceedances');
    this.host.appendChild(this.nested.element);
  }

  destroy(): void {
    this.chart.destroy();
    this.nested?.dispose();
  }
}

/** Lines per profile chart (the first datasources by name): more would not be readable. */
const MAX_PROFILE_LINES = 12;

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export class ProfilesPanel implements Panel {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly diurnalHost = h('div', { className: 'mt-plot mt-diurnal' });
  private readonly weekdayHost = h('div', { className: 'mt-plot mt-weekday' });
  private readonly note = h('span', { className: 'mt-status' });
  private plots: uPlot[] = [];

  constructor(private readonly ctx: PanelContext) {
    this.select = metricSelectFor(ctx.table, 'mt-metric mt-profile-metric');
    this.select.addEventListener('change', () => this.draw());
    this.element = h('div', { className: 'mt-panel mt-profiles' }, [
      h('div', { className: 'mt-toolbar' }, [h('label', { text: 'Metric ' }), this.select, this.note]),
      h('div', {
        className: 'mt-panel-title',
        text: 'Diurnal profile: mean by hour of day, band = interquartile range',
      }),
      this.diurnalHost,
      h('div', {
        className: 'mt-panel-title',
        text: 'Weekday profile: mean by day of week, band = interquartile range',
      }),
      this.weekdayHost,
    ]);
  }

  draw(): void {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    const col = Number(this.select.value);
    if (!(col >= 0)) {
      this.note.textContent = 'No metric to profile.';
      return;
    }
    const local = this.ctx.timeZone() === 'local';
    // The renderer's local mode is the browser's zone, as the table's times (format.ts).
    const offset = local ? cachedOffset((ms: number) => -new Date(ms).getTimezoneOffset()) : undefined;
    const unit = unitOf(this.ctx.table.columns[col]);
    const { shown: all, datasources } = profiles(this.ctx.table, this.ctx.rows(), col, offset, MAX_PROFILE_LINES);
    const zone = `hours in ${local ? 'local time' : 'UTC'} (the table's UTC/Local button)`;
    this.note.textContent =
      datasources > all.length
        ? `${zone}. Only the first ${all.length} of ${datasources.toLocaleString('en-US')} datasources (by name) are drawn: filter the table to pick others.`
        : zone;
    this.note.classList.toggle('mt-profiles-capped', datasources > all.length);
    for (const [by, host] of [
      ['hour', this.diurnalHost],
      ['weekday', this.weekdayHost],
    ] as const)
      this.plots.push(this.profilePlot(by, host, all, unit));
  }

  /** One profile chart: per datasource its mean line and the interquartile band (in the line's colour, 20 %). */
  private profilePlot(by: 'hour' | 'weekday', host: HTMLElement, all: GroupProfiles[], unit: string): uPlot {
    const colours = palette(this.element, all.length);
    const series: uPlot.Series[] = [{ label: by === 'hour' ? 'hour' : 'weekday' }];
    const data: Array<Array<number | null>> = [];
    const bands: uPlot.Band[] = [];
    const nn = (v: number) => (Number.isNaN(v) ? null : v);
    all.forEach((g, i) => {
      const base = data.length + 1;
      const points = g[by];
      series.push({ label: g.group, stroke: colours[i], width: 2 });
      series.push({ label: `${g.group} q75`, stroke: 'transparent', width: 0, points: { show: false } });
      series.push({ label: `${g.group} q25`, stroke: 'transparent', width: 0, points: { show: false } });
      data.push(
        points.map((p) => nn(p.mean)),
        points.map((p) => nn(p.q75)),
        points.map((p) => nn(p.q25)),
      );
      bands.push({ series: [base + 1, base + 2], fill: withAlpha(colours[i], 0.2) });
    });
    host.textContent = '';
    const xAxis = themedAxis(this.element);
    if (by === 'weekday') xAxis.values = (_u, ticks) => ticks.map((t) => WEEKDAYS[t] ?? '');
    const xs = Array.from({ length: by === 'hour' ? 24 : 7 }, (_, i) => i);
    const plot = new uPlot(
      {
        width: Math.max(320, (this.element.clientWidth || 800) - 14),
        height: 220,
        scales: { x: { time: false } },
        axes: [xAxis, themedAxis(this.element, unit || undefined)],
        series,
        bands,
        legend: { show: true, live: false },
      },
      [xs, ...data] as uPlot.AlignedData,
      host,
    );
    // The quartile series only bound the bands: out of the legend (a key without live values has no
    // row for the x series: the rows are the groups' mean, q75, q25 in turn).
    const rows = host.querySelectorAll<HTMLElement>('.u-legend .u-series');
    const first = rows.length === series.length ? 1 : 0;
    rows.forEach((row, i) => {
      if (i >= first && (i - first) % 3 !== 0) row.style.display = 'none';
    });
    return plot;
  }

  destroy(): void {
    for (const p of this.plots) p.destroy();
  }
}

function fmt(v: number, digits = 3): string {
  return Number.isNaN(v) ? '—' : formatNumber(Math.round(v * 10 ** digits) / 10 ** digits);
}

/** The Collocation stats rows: [name, value shown]. */
function collocationRows(result: Collocation, unit: string): Array<[string, string]> {
  const { pairs, fit } = result;
  const daily = result.averaging === '24h';
  const over = daily
    ? `${pairs.expected} days (both with a valid 24-hour mean)`
    : `${pairs.expected} ${result.frequency} periods`;
  const rows: Array<[string, string]> = [
    [daily ? 'n (paired days)' : 'n (paired periods)', String(fit.n)],
    ['Slope', fmt(fit.slope)],
    ['Intercept', `${fmt(fit.intercept)} ${unit}`],
    ['R²', fmt(fit.r2)],
    ['RMSE (sensor − reference)', `${fmt(fit.rmse)} ${unit}`],
    ['Mean bias (sensor − reference)', `${fmt(fit.meanBias)} ${unit}`],
    ['Pairing completeness', `${fmt(pairs.completenessPercent, 1)} % of ${over}`],
  ];
  if ('incompleteDays' in pairs)
    rows.push([
      'Days left out (< 18 of 24 hours)',
      `sensor ${pairs.incompleteDays.sensor}, reference ${pairs.incompleteDays.reference}`,
    ]);
  return rows;
}

/** The stats table: each row with its EPA target and met / not met when the metric is PM2.5. */
function collocationTable(result: Collocation, unit: string): HTMLTableElement {
  const table = h('table', { className: 'mt-colloc-table' });
  const head = table.createTHead().insertRow();
  const titles = result.pm25 ? ['Statistic', 'Value', 'EPA PM2.5 sensor target', 'Met'] : ['Statistic', 'Value'];
  for (const t of titles) head.appendChild(h('th', { text: t }));
  const body = table.createTBody();
  for (const [name, value] of collocationRows(result, unit)) {
    const tr = body.insertRow();
    tr.dataset.stat = name;
    tr.insertCell().textContent = name;
    tr.insertCell().textContent = value;
    if (!result.pm25) continue;
    const target = result.targets.find((t) => name.startsWith(t.name));
    tr.insertCell().textContent = target?.target ?? '';
    const met = tr.insertCell();
    if (target) {
      met.textContent = target.met ? '✓ met' : '✗ not met';
      met.className = target.met ? 'mt-tone-ok' : 'mt-tone-bad';
    }
  }
  return table;
}

/** The verdict under the table: targets met or not (PM2.5), or why there are none. */
function collocationVerdict(result: Collocation): HTMLElement {
  if (!result.pm25)
    return h('div', {
      className: 'mt-colloc-verdict mt-status',
      text: "EPA's sensor performance targets are defined for PM2.5 only: the statistics above are shown without targets for this metric.",
    });
  const caveat =
    result.averaging === '24h'
      ? ''
      : ` (EPA evaluates them on 24-hour means with ≥ 18 of 24 hours: these are ${result.frequency} pairs)`;
  const failed = result.targets.filter((t) => !t.met).map((t) => t.name);
  const allMet = failed.length === 0;
  return h('div', {
    className: `mt-colloc-verdict ${allMet ? 'mt-tone-ok' : 'mt-tone-bad'}`,
    text: `${allMet ? 'All EPA PM2.5 sensor targets met' : `Targets not met: ${failed.join(', ')}`}${caveat}.`,
  });
}

export class CollocationPanel implements Panel {
  readonly element: HTMLElement;
  private readonly metric: HTMLSelectElement;
  private readonly sensor = h('select', { className: 'mt-sensor', attrs: { 'aria-label': 'Sensor datasource' } });
  private readonly reference = h('select', {
    className: 'mt-reference',
    attrs: { 'aria-label': 'Reference datasource' },
  });
  private readonly averaging = h('select', {
    className: 'mt-colloc-averaging',
    attrs: { 'aria-label': 'Pair by' },
  });
  private readonly plotHost = h('div', { className: 'mt-plot mt-scatter' });
  private readonly stats = h('div', { className: 'mt-colloc-stats' });
  private plot?: uPlot;
  /** The last computed result (the e2e reads the numbers shown against it). */
  last?: Collocation;

  constructor(private readonly ctx: PanelContext) {
    this.metric = metricSelectFor(ctx.table, 'mt-metric mt-colloc-metric');
    const frequency = resultFrequency(ctx.table);
    for (const [value, text] of [
      ['auto', 'default (24-hour for PM2.5)'],
      ['24h', '24-hour means (≥ 18 of 24 h)'],
      ['period', `each ${frequency}`],
    ]) {
      const opt = h('option', { text });
      opt.value = value;
      this.averaging.appendChild(opt);
    }
    for (const s of [this.metric, this.sensor, this.reference, this.averaging])
      s.addEventListener('change', () => this.draw());
    this.element = h('div', { className: 'mt-panel mt-collocation' }, [
      h('div', { className: 'mt-toolbar' }, [
        h('label', { text: 'Metric ' }),
        this.metric,
        h('label', { text: 'Sensor ' }),
        this.sensor,
        h('label', { text: 'Reference ' }),
        this.reference,
        h('label', { text: 'Pair by ' }),
        this.averaging,
      ]),
      this.plotHost,
      this.stats,
    ]);
  }

  private fillChoices(): void {
    const rows = this.ctx.rows();
    const groups = groupRows(this.ctx.table, rows).map((g) => g.group);
    const refs = referenceDatasources(this.ctx.table, rows, this.ctx.referenceSites);
    const names = this.ctx.datasourceNames;
    const keep = (select: HTMLSelectElement, options: string[], preferred?: string) => {
      const current = select.value;
      select.textContent = '';
      for (const o of options) {
        const name = names?.get(o);
        const opt = h('option', { text: `${o}${name ? ` ${name}` : ''}${refs.has(o) ? ' (reference site)' : ''}` });
        opt.value = o;
        select.appendChild(opt);
      }
      if (options.includes(current)) select.value = current;
      else if (preferred) select.value = preferred;
    };
    const refList = [...groups.filter((g) => refs.has(g)), ...groups.filter((g) => !refs.has(g))];
    keep(this.reference, refList, refList[0]);
    keep(this.sensor, groups.filter((g) => !refs.has(g)).concat(groups.filter((g) => refs.has(g))));
  }

  draw(): void {
    this.plot?.destroy();
    this.plot = undefined;
    this.plotHost.textContent = '';
    this.stats.textContent = '';
    this.fillChoices();
    const col = Number(this.metric.value);
    if (!(col >= 0) || !this.sensor.value || !this.reference.value) {
      this.stats.textContent = 'Needs a metric and two datasources.';
      return;
    }
    const how = this.averaging.value === 'auto' ? undefined : (this.averaging.value as CollocationAveraging);
    const result = collocation(this.ctx.table, this.ctx.rows(), col, this.sensor.value, this.reference.value, how);
    this.last = result;
    if (!result || result.fit.n < 2) {
      this.stats.textContent =
        result?.averaging === '24h'
          ? 'Fewer than two days where both have a valid 24-hour mean (≥ 18 of 24 hours): pick "each hour" under Pair by, or query a longer range.'
          : 'Fewer than two periods where both have a value.';
      return;
    }
    const unit = unitOf(this.ctx.table.columns[col]);
    this.plot = this.scatter(result, unit);
    this.stats.append(collocationTable(result, unit), collocationVerdict(result));
  }

  /** Sensor against reference, the OLS line and the 1:1 line. */
  private scatter(result: Collocation, unit: string): uPlot {
    const { pairs, fit } = result;
    const order = Array.from(pairs.reference.keys()).sort((a, b) => pairs.reference[a] - pairs.reference[b]);
    const xs = order.map((i) => pairs.reference[i]);
    const ys = order.map((i) => pairs.sensor[i]);
    const line = xs.map((x) => fit.slope * x + fit.intercept);
    const [pointColour, lineColour] = palette(this.element, 2);
    const muted = themeVar(this.element, '--vscode-descriptionForeground', '#888');
    const u = unit ? ` [${unit}]` : '';
    return new uPlot(
      {
        width: Math.min(560, Math.max(320, (this.element.clientWidth || 800) - 14)),
        height: 360,
        scales: { x: { time: false } },
        axes: [
          themedAxis(this.element, `reference ${this.reference.value}${u}`),
          themedAxis(this.element, `sensor ${this.sensor.value}${u}`),
        ],
        series: [
          { label: 'reference' },
          {
            label: result.averaging === '24h' ? 'sensor (24-hour means)' : 'sensor',
            stroke: pointColour,
            width: 0,
            paths: () => null,
            points: { show: true, size: 5, fill: pointColour, stroke: pointColour },
          },
          {
            label: `OLS y = ${fmt(fit.slope)}x + ${fmt(fit.intercept)}`,
            stroke: lineColour,
            width: 2,
            points: { show: false },
          },
          { label: '1:1', stroke: muted, width: 1, dash: [4, 4], points: { show: false } },
        ],
        // A key to the marks, not live values ("--" until hovered means nothing on a scatter); no x row.
        legend: { show: true, live: false },
      },
      [xs, ys, line, xs] as uPlot.AlignedData,
      this.plotHost,
    );
  }

  destroy(): void {
    this.plot?.destroy();
  }
}
