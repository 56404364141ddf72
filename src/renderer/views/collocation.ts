// The Collocation view: a sensor against a reference site (scatter with the OLS and 1:1 lines, EPA's statistics
// on valid 1-hour and 24-hour averages, the PM2.5 sensor targets, precision across collocated sensors).
import uPlot from 'uplot';
import {
  DEFAULT_COLLOCATION_RADIUS_KM,
  type LatLon,
  MIN_PRECISION_SENSORS,
  type PairEvaluation,
  type Precision,
  precisionTargets,
} from '../../core/aq/evaluation';
import type { TargetCheck } from '../../core/aq/stats';
import { pairScatterSvg } from '../../core/notebook/export/evaluation-report';
import { palette, themedAxis, themeVar } from '../dom/chart-view';
import { fillSelect } from '../dom/datasource-select';
import { h } from '../dom/h';
import { metricSelectFor } from '../dom/metric-select';
import {
  type Collocation,
  collocatedSensors,
  collocation,
  collocationMetric,
  datasourceLocations,
  groupRows,
  nearestReference,
  referenceDatasources,
  scatterRange,
  unitOf,
} from '../model/aq-views';
import { formatNumber, formatTime, type TimeZoneMode, zoneLabel } from '../model/format';
import { datasourceCount, isTimeSeries } from '../model/table-shape';
import type { Panel, PanelContext, ViewDefinition, ViewImage } from './view';

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

class CollocationPanel implements Panel {
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

  /**
   * Sensor against reference, the OLS line and the 1:1 line: a square plot with one range on both axes, so the
   * 1:1 line is its diagonal (drawn corner to corner) and a slope reads as it is.
   */
  private scatter(e: PairEvaluation, unit: string): uPlot {
    const { fit } = e;
    const order = Array.from(e.reference.keys()).sort((a, b) => e.reference[a] - e.reference[b]);
    const [lo, hi] = scatterRange(e.reference, e.sensor);
    // The range's ends as x values too (no point there): the 1:1 and OLS lines span the plot.
    const xs = [lo, ...order.map((i) => e.reference[i]), hi];
    const ys = [null, ...order.map((i) => e.sensor[i]), null];
    const [pointColour, lineColour] = palette(this.element, 2);
    const muted = themeVar(this.element, '--vscode-descriptionForeground', '#888');
    const u = unit ? ` [${unit}]` : '';
    const side = Math.min(480, Math.max(320, (this.element.clientWidth || 800) - 14));
    const range = (): uPlot.Range.MinMax => [lo, hi];
    const axis = (label: string): uPlot.Axis => ({ ...themedAxis(this.element, label), size: 50 });
    return new uPlot(
      {
        width: side,
        height: side,
        // Equal room for the axes (left and bottom) and the same padding on the other two sides: a square plot.
        padding: [12, 12, 0, 0],
        scales: { x: { time: false, range }, y: { range } },
        axes: [axis(`reference ${this.reference.value}${u}`), axis(`sensor ${this.sensor.value}${u}`)],
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
      [xs, ys, xs.map((x) => fit.slope * x + fit.intercept), xs] as uPlot.AlignedData,
      this.plotHost,
    );
  }

  /** The scatter drawn (the averaging shown), as the evaluation report draws it. */
  image(): ViewImage | undefined {
    const e = this.last?.[this.scatterOf.value === '1h' ? 'hour' : 'day'];
    if (!e || e.fit.n < 2 || !this.plot) return undefined;
    const metric = this.ctx.table.columns[Number(this.metric.value)];
    const names = {
      sensor: this.sensor.value,
      reference: this.reference.value,
      unit: unitOf(metric),
      metric: metric?.name,
    };
    return { svg: pairScatterSvg(e, names, 480), name: `collocation ${names.sensor} ${names.reference}` };
  }

  destroy(): void {
    this.plot?.destroy();
  }
}

export const collocationView: ViewDefinition = {
  name: 'collocation',
  title: 'Collocation',
  tooltip: 'A sensor against a reference site: scatter, OLS, EPA PM2.5 sensor targets',
  applies: (table) => isTimeSeries(table) && datasourceCount(table, 2) >= 2,
  create: (ctx) => new CollocationPanel(ctx),
};
