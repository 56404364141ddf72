// The air-quality views beside Table and Chart: Summary, Exceedances, Profiles, Collocation (the Map is in
// map-view.ts). Each computes from the rows shown (filters apply) when it is opened or the rows change.
// Tabular results are derived Tables shown by the same table widget (sort, filter, copy, save).
import uPlot from 'uplot';
import {
  DEFAULT_COLLOCATION_RADIUS_KM,
  type LatLon,
  MIN_PRECISION_SENSORS,
  type PairEvaluation,
  type Precision,
  precisionTargets,
} from '../../core/aq/evaluation';
import { defaultThreshold } from '../../core/aq/metric-info';
import { QUANTILE_DEFINITION, type TargetCheck } from '../../core/aq/stats';
import { type Column, floatValues, type Table } from '../../core/table/table';
import {
  type Collocation,
  collocatedSensors,
  collocation,
  collocationMetric,
  datasourceLocations,
  type ExceedanceRow,
  exceedanceRows,
  type GroupProfiles,
  groupRows,
  nearestReference,
  profiles,
  referenceDatasources,
  resultFrequency,
  summaryTable,
  unitOf,
} from '../model/aq-views';
import { withAlpha } from '../model/colour';
import { formatNumber, formatTime, type TimeZoneMode, zoneLabel } from '../model/format';
import type { NestedTable, Panel, PanelContext } from '../views/view';
import { ChartView, palette, themedAxis, themeVar } from './chart-view';
import { h } from './h';
import { metricSelectFor } from './metric-select';

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
    this.note.textContent = `Per datasource × metric over the ${this.ctx.rows().length.toLocaleString('en-US')} rows shown; expected = ${resultFrequency(this.ctx.table)} periods from the first to the last time of the result; median and p98 by Hyndman–Fan type 7 (numpy's default) (computed in ${Math.round(performance.now() - t0)} ms).${noData}`;
    this.note.title = `Median and p98: ${QUANTILE_DEFINITION}`;
  }

  destroy(): void {
    this.nested?.dispose();
  }
}

/** The Exceedances table: per datasource, named by metric and threshold (so a saved copy says what it counted). */
function exceedanceTable(rows: ExceedanceRow[], metric: Column, threshold: number, includeInvalid: boolean): Table {
  const text = (name: string, value: string): Column => ({
    name,
    kind: 'text',
    dict: [value],
    codes: new Int32Array(rows.length),
  });
  return {
    columns: [
      idCol(
        'datasourceId',
        rows.map((r) => r.group),
      ),
      text('metric', metric.name),
      text('unit', unitOf(metric)),
      numberCol(
        'threshold (above)',
        rows.map(() => threshold),
      ),
      text('QC-invalid values', includeInvalid ? 'counted' : 'left out'),
      numberCol(
        'QC-invalid',
        rows.map((r) => r.invalid),
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
}

export class ExceedancesPanel implements Panel {
  readonly element: HTMLElement;
  private readonly thresholdInput: HTMLInputElement;
  private readonly includeInvalid = h('input', {
    className: 'mt-exceed-include-invalid',
    attrs: { type: 'checkbox', 'aria-label': 'Count QC-invalid values' },
  });
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
    });
    this.setDefaultThreshold(this.chart.metricColumn);
    this.thresholdInput.addEventListener('change', () => this.draw());
    this.includeInvalid.addEventListener('change', () => this.drawTable());
    this.element = h('div', { className: 'mt-panel mt-exceedances' }, [
      h('div', { className: 'mt-toolbar' }, [
        h('label', { text: 'Above ' }),
        this.thresholdInput,
        h('span', { className: 'mt-status', text: 'strictly greater; default from the metric (EPA)' }),
        h(
          'label',
          {
            className: 'mt-qc-toggle',
            title: 'QC-invalid values are left out of the counts unless this is on',
          },
          [this.includeInvalid, h('span', { text: ' Count QC-invalid values' })],
        ),
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
    const include = this.includeInvalid.checked;
    const rows = exceedanceRows(this.ctx.table, this.ctx.rows(), col, threshold, include);
    const metric = this.ctx.table.columns[col];
    if (!metric) return;
    const table = exceedanceTable(rows, metric, threshold, include);
    this.nested = this.ctx.nestedTable(table, `exceedances of ${metric.name} above ${threshold}`);
    this.host.appendChild(this.nested.element);
  }

  destroy(): void {
    this.chart.destroy();
    this.nested?.dispose();
  }
}

/** Fills a datasource select (id, name, "(reference site)"), keeping its value when still offered. */
function fillSelect(
  select: HTMLSelectElement,
  options: string[],
  names: ReadonlyMap<string, string> | undefined,
  refs: ReadonlySet<string>,
  preferred: string | undefined,
  force = false,
): void {
  const current = select.value;
  select.textContent = '';
  for (const o of options) {
    const name = names?.get(o);
    const opt = h('option', { text: `${o}${name ? ` ${name}` : ''}${refs.has(o) ? ' (reference site)' : ''}` });
    opt.value = o;
    select.appendChild(opt);
  }
  if (preferred && (force || !options.includes(current))) select.value = preferred;
  else if (options.includes(current)) select.value = current;
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
    // The zone shown (the notebook's, or UTC by the table's zone button), with its day boundary.
    const shownZone = this.ctx.timeZone();
    const unit = unitOf(this.ctx.table.columns[col]);
    const { shown: all, datasources } = profiles(this.ctx.table, this.ctx.rows(), col, shownZone, MAX_PROFILE_LINES);
    const standard = shownZone.boundary === 'standard' && !shownZone.isUtc ? ', standard time all year' : '';
    const zone = `hours starting, in ${zoneLabel(shownZone)}${standard} (the table's zone button)`;
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

type Side = 'hour' | 'day';
const SIDES: readonly Side[] = ['hour', 'day'];

/** One row of the Collocation table: a statistic with its 1-hour and 24-hour value, and its EPA target. */
interface StatRow {
  name: string;
  values: [string, string];
  /** The EPA target's name in `targets` (met / not met per side), or a rule shown in the target column. */
  target?: string;
  rule?: string;
}

function pairRange(e: PairEvaluation, mode: TimeZoneMode): string {
  if (!e.times.length) return '—';
  return `${formatTime(e.times[0], mode)} → ${formatTime(e.times[e.times.length - 1], mode)}`;
}

/** The sensor-vs-reference rows: n, dates, fit, error, and the 75 % validity rule (a rule, not a target). */
function pairRows(result: Collocation, unit: string, mode: TimeZoneMode): StatRow[] {
  const both = (f: (e: PairEvaluation) => string): [string, string] => [f(result.hour), f(result.day)];
  const u = (v: number) => (unit && !Number.isNaN(v) ? ` ${unit}` : '');
  return [
    { name: 'n (pairs)', values: both((e) => String(e.fit.n)) },
    { name: `Periods starting from → to (${zoneLabel(mode)})`, values: both((e) => pairRange(e, mode)) },
    { name: 'Slope', values: both((e) => fmt(e.fit.slope)), target: 'Slope' },
    { name: 'Intercept', values: both((e) => `${fmt(e.fit.intercept)}${u(e.fit.intercept)}`), target: 'Intercept' },
    { name: 'R²', values: both((e) => fmt(e.fit.r2)), target: 'R²' },
    { name: 'RMSE (sensor − reference)', values: both((e) => `${fmt(e.fit.rmse)}${u(e.fit.rmse)}`), target: 'RMSE' },
    {
      name: 'NRMSE (RMSE / mean reference)',
      values: both((e) => (Number.isNaN(e.fit.nrmse) ? '—' : `${fmt(e.fit.nrmse, 1)} %`)),
      target: 'NRMSE',
    },
    { name: 'Mean bias (sensor − reference)', values: both((e) => `${fmt(e.fit.meanBias)}${u(e.fit.meanBias)}`) },
    {
      name: 'Averages left out (< 75 % complete)',
      values: both((e) => `sensor ${e.incomplete.sensor}, reference ${e.incomplete.reference}`),
      rule:
        result.frequency === 'minute'
          ? 'valid hour: ≥ 45 of 60 minutes; valid day: ≥ 18 of 24 hours'
          : 'valid day: ≥ 18 of 24 hours (75 %)',
    },
  ];
}

/** The precision rows: SD and CV across the collocated sensors, or that it needs 3 of them. */
function precisionRows(result: Collocation, unit: string): StatRow[] {
  const p = result.precision;
  const few = p.hour.sensors < MIN_PRECISION_SENSORS;
  const needs = `needs ${MIN_PRECISION_SENSORS} sensors (${p.hour.sensors} here)`;
  const both = (f: (x: Precision) => string): [string, string] => (few ? [needs, needs] : [f(p.hour), f(p.day)]);
  return [
    { name: 'Precision: N periods × M sensors', values: both((x) => `${x.n} × ${x.sensors}`) },
    {
      name: 'SD (across sensors)',
      values: both((x) => (Number.isNaN(x.sd) ? '—' : `${fmt(x.sd)} ${unit}`.trim())),
      target: 'SD',
    },
    {
      name: 'CV (across sensors)',
      values: both((x) => (Number.isNaN(x.cv) ? '—' : `${fmt(x.cv, 1)} %`)),
      target: 'CV',
    },
  ];
}

function metCell(tr: HTMLTableRowElement, check: TargetCheck | undefined, computable: boolean): void {
  const met = tr.insertCell();
  if (!check || !computable) return;
  met.textContent = check.met ? '✓ met' : '✗ not met';
  met.className = check.met ? 'mt-tone-ok' : 'mt-tone-bad';
}

/** The PM2.5 targets of each side, the precision ones included (computable with 3 sensors). */
function sideTargets(result: Collocation): Record<Side, TargetCheck[]> {
  return {
    hour: [...result.targets.hour, ...precisionTargets(result.precision.hour)],
    day: [...result.targets.day, ...precisionTargets(result.precision.day)],
  };
}

/** The stats table: 1-hour and 24-hour side by side, each with its EPA target met / not met when PM2.5. */
function collocationTable(result: Collocation, unit: string, mode: TimeZoneMode): HTMLTableElement {
  const table = h('table', { className: 'mt-colloc-table' });
  const head = table.createTHead().insertRow();
  const titles = ['Statistic', '1-hour', '24-hour'];
  if (result.pm25) titles.push('EPA PM2.5 target', 'Met (1-hour)', 'Met (24-hour)');
  for (const t of titles) head.appendChild(h('th', { text: t }));
  const body = table.createTBody();
  const targets = sideTargets(result);
  const precisionOk = result.precision.hour.sensors >= MIN_PRECISION_SENSORS;
  for (const row of [...pairRows(result, unit, mode), ...precisionRows(result, unit)]) {
    const tr = body.insertRow();
    tr.dataset.stat = row.name;
    tr.insertCell().textContent = row.name;
    for (const v of row.values) tr.insertCell().textContent = v;
    if (!result.pm25) continue;
    const checks = SIDES.map((side) => targets[side].find((t) => t.name === row.target));
    const target = tr.insertCell();
    target.textContent = checks[0]?.target ?? row.rule ?? '';
    if (row.rule) target.className = 'mt-status';
    const computable = row.target === 'SD' || row.target === 'CV' ? precisionOk : true;
    SIDES.forEach((side, i) => {
      metCell(tr, checks[i], computable && result[side].fit.n >= 2);
    });
  }
  return table;
}

/** Names of the targets missed (RMSE and NRMSE are one error target: missed only when both are). */
function missed(checks: TargetCheck[]): string[] {
  const out = checks.filter((t) => !t.met).map((t) => (t.name === 'RMSE' || t.name === 'NRMSE' ? 'Error' : t.name));
  return [...new Set(out)];
}

/** The verdict under the table: EPA's targets on 24-hour averages (1-hour too), or why there are none. */
function collocationVerdict(result: Collocation): HTMLElement {
  if (!result.pm25)
    return h('div', {
      className: 'mt-colloc-verdict mt-status',
      text: "EPA's sensor performance targets are defined for PM2.5 only: the statistics above are shown without targets for this metric.",
    });
  const precisionOk = result.precision.hour.sensors >= MIN_PRECISION_SENSORS;
  const part = (side: Side, label: string) => {
    if (result[side].fit.n < 2) return `${label}: fewer than two pairs`;
    const checks = [...result.targets[side], ...(precisionOk ? precisionTargets(result.precision[side]) : [])];
    const failed = missed(checks);
    return failed.length ? `${label}: not met: ${failed.join(', ')}` : `${label}: all targets met`;
  };
  const day = part('day', '24-hour');
  const ok = result.day.fit.n >= 2 && day.endsWith('all targets met');
  const precision = precisionOk ? '' : ` Precision (SD, CV) needs ${MIN_PRECISION_SENSORS} collocated sensors.`;
  return h('div', {
    className: `mt-colloc-verdict ${ok ? 'mt-tone-ok' : 'mt-tone-bad'}`,
    text: `EPA PM2.5 targets (EPA/600/R-20/280; its target values are for 24-hour averages): ${day}. ${part('hour', '1-hour')}.${precision}`,
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
  private readonly radius = h('input', {
    className: 'mt-colloc-radius',
    attrs: { type: 'number', min: '0', step: 'any', 'aria-label': 'Collocation radius (km)' },
  });
  private readonly scatterOf = h('select', {
    className: 'mt-colloc-averaging',
    attrs: { 'aria-label': 'Scatter of' },
  });
  private readonly pairing = h('div', { className: 'mt-status mt-colloc-pairing' });
  private readonly plotHost = h('div', { className: 'mt-plot mt-scatter' });
  private readonly stats = h('div', { className: 'mt-colloc-stats' });
  private plot?: uPlot;
  /** The reference the user picked for the current sensor (else the nearest is chosen). */
  private pickedReference?: { sensor: string; reference: string };
  /** The last computed result (the e2e reads the numbers shown against it). */
  last?: Collocation;

  constructor(private readonly ctx: PanelContext) {
    this.metric = metricSelectFor(ctx.table, 'mt-metric mt-colloc-metric');
    const preferred = collocationMetric(ctx.table);
    if (preferred >= 0) this.metric.value = String(preferred);
    this.radius.value = String(DEFAULT_COLLOCATION_RADIUS_KM);
    for (const [value, text] of [
      ['24h', '24-hour averages'],
      ['1h', '1-hour averages'],
    ]) {
      const opt = h('option', { text });
      opt.value = value;
      this.scatterOf.appendChild(opt);
    }
    this.reference.addEventListener('change', () => {
      this.pickedReference = { sensor: this.sensor.value, reference: this.reference.value };
    });
    for (const s of [this.metric, this.sensor, this.reference, this.radius, this.scatterOf])
      s.addEventListener('change', () => this.draw());
    this.element = h('div', { className: 'mt-panel mt-collocation' }, [
      h('div', { className: 'mt-toolbar' }, [
        h('label', { text: 'Metric ' }),
        this.metric,
        h('label', { text: 'Sensor ' }),
        this.sensor,
        h('label', { text: 'Reference ' }),
        this.reference,
        h('label', { text: 'Within (km) ' }),
        this.radius,
        h('label', { text: 'Scatter of ' }),
        this.scatterOf,
      ]),
      this.pairing,
      this.plotHost,
      this.stats,
    ]);
  }

  private radiusKm(): number {
    const v = this.radius.valueAsNumber;
    return v >= 0 ? v : DEFAULT_COLLOCATION_RADIUS_KM;
  }

  /** Fills the choices: sensors (not reference sites first), references (never the sensor itself). */
  private fillChoices(): { groups: string[]; refs: Set<string>; locations: Map<string, LatLon> } {
    const rows = this.ctx.rows();
    const groups = groupRows(this.ctx.table, rows).map((g) => g.group);
    const refs = referenceDatasources(this.ctx.table, rows, this.ctx.referenceSites);
    const locations = datasourceLocations(this.ctx.table, rows);
    const sensors = groups.filter((g) => !refs.has(g)).concat(groups.filter((g) => refs.has(g)));
    fillSelect(this.sensor, sensors, this.ctx.datasourceNames, refs, sensors[0]);
    const sensor = this.sensor.value;
    const refList = [...groups.filter((g) => refs.has(g)), ...groups.filter((g) => !refs.has(g))].filter(
      (g) => g !== sensor,
    );
    const near = nearestReference(locations, sensor, refs, this.radiusKm());
    const picked = this.pickedReference?.sensor === sensor ? this.pickedReference.reference : undefined;
    const auto = picked ?? near?.reference;
    fillSelect(this.reference, refList, this.ctx.datasourceNames, refs, auto ?? refList[0], auto !== undefined);
    const chosen = this.reference.value;
    this.pairing.textContent = near
      ? `Nearest reference site within ${formatNumber(this.radiusKm())} km of ${sensor}: ${near.reference} at ${fmt(near.km, 3)} km${chosen === near.reference ? ' (chosen)' : `; ${chosen} chosen instead`}.`
      : `No reference site with a known location within ${formatNumber(this.radiusKm())} km of ${sensor || 'the sensor'}${chosen ? `: ${chosen} chosen` : ''}.`;
    return { groups, refs, locations };
  }

  draw(): void {
    this.plot?.destroy();
    this.plot = undefined;
    this.plotHost.textContent = '';
    this.stats.textContent = '';
    const { groups, refs, locations } = this.fillChoices();
    const col = Number(this.metric.value);
    if (!(col >= 0) || !this.sensor.value || !this.reference.value || this.sensor.value === this.reference.value) {
      this.stats.textContent = 'Needs a metric and two datasources (a sensor and a reference).';
      return;
    }
    const reference = this.reference.value;
    const others = collocatedSensors(groups, locations, reference, refs, this.radiusKm());
    const collocated = [this.sensor.value, ...others.filter((g) => g !== this.sensor.value)];
    const result = collocation(
      this.ctx.table,
      this.ctx.rows(),
      col,
      this.sensor.value,
      reference,
      collocated,
      this.ctx.timeZone(),
    );
    this.last = result;
    if (!result || (result.hour.fit.n < 2 && result.day.fit.n < 2)) {
      this.stats.textContent =
        'Fewer than two periods where both have a valid average (1-hour: the hour has a value, from minutes ≥ 45 of 60; 24-hour: ≥ 18 of 24 hours): query a longer range.';
      return;
    }
    const unit = unitOf(this.ctx.table.columns[col]);
    const side: Side = this.scatterOf.value === '1h' || result.day.fit.n < 2 ? 'hour' : 'day';
    this.scatterOf.value = side === 'hour' ? '1h' : '24h'; // what is drawn (24-hour needs two pairs)
    if (result[side].fit.n >= 2) this.plot = this.scatter(result[side], unit);
    this.stats.append(collocationTable(result, unit, this.ctx.timeZone()), collocationVerdict(result));
  }

  /** Sensor against reference, the OLS line and the 1:1 line. */
  private scatter(e: PairEvaluation, unit: string): uPlot {
    const { fit } = e;
    const order = Array.from(e.reference.keys()).sort((a, b) => e.reference[a] - e.reference[b]);
    const xs = order.map((i) => e.reference[i]);
    const ys = order.map((i) => e.sensor[i]);
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
            label: e.averaging === '24h' ? 'sensor (24-hour averages)' : 'sensor (1-hour averages)',
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
