// The Trend view (openair's TheilSen): a datasource's monthly means with the Theil–Sen line over them, the slope
// per year with its 95 % interval (Sen's rank-based), the Mann–Kendall p-value, optional deseasonalising, and the
// caveats (a short series, autocorrelated residuals). Fewer than 12 monthly means: it says so and draws no line.
import uPlot from 'uplot';
import { MIN_TREND_MONTHS, type MonthMean, monthlyMeans, type TrendResult, trend } from '../../core/aq/trend';
import { monthStartMs, svgTrend } from '../../core/notebook/export/svg-trend';
import { palette, themedAxis } from '../dom/chart-view';
import { fillSelect } from '../dom/datasource-select';
import { h } from '../dom/h';
import { metricSelectFor, preferDailyPm } from '../dom/metric-select';
import { groupRows, seriesByGroup, unitOf } from '../model/aq-views';
import { formatNumber } from '../model/format';
import { isTimeSeries } from '../model/table-shape';
import { zoneText } from '../model/view-zone';
import type { Panel, PanelContext, ViewDefinition, ViewImage } from './view';

/** A month index (months since 1970-01) as the instant (s, uPlot's unit) of the 1st at 00:00 UTC. */
function monthSeconds(month: number): number {
  return monthStartMs(month) / 1000;
}

function monthText(month: number): string {
  const m = (((month % 12) + 12) % 12) + 1;
  return `${1970 + Math.floor(month / 12)}-${m < 10 ? `0${m}` : m}`;
}

/** A number for reading: `digits` significant digits at most, "—" for NaN. */
function num(v: number, digits = 3): string {
  return Number.isNaN(v) ? '—' : formatNumber(Number(v.toPrecision(digits)));
}

/** The p-value in words (below 0.001 as "p < 0.001", as openair marks ***). */
function pText(p: number): string {
  if (Number.isNaN(p)) return 'p = —';
  return p < 0.001 ? 'p < 0.001' : `p = ${num(p, 2)}`;
}

/** The statistics under the chart (and in its image), one line each. */
function trendLines(result: Extract<TrendResult, { ok: true }>, unit: string): string[] {
  const { fit, test, months } = result;
  const u = unit ? ` ${unit}` : '';
  return [
    `Slope ${num(fit.slope)}${u} per year, 95 % confidence interval ${num(fit.low)} to ${num(fit.high)}${u} per year (Theil–Sen; Sen's rank-based interval, as scipy.stats.theilslopes; openair bootstraps it).`,
    `${pText(test.p)} (Mann–Kendall, two-sided, ties corrected; Kendall's S = ${test.s}).`,
    `${months.length} monthly means, ${monthText(months[0].month)} to ${monthText(months[months.length - 1].month)}${result.deseasonalised ? ', deseasonalised (each calendar month’s mean removed, the level kept)' : ''}.`,
    ...result.notes,
  ];
}

function trendStats(result: Extract<TrendResult, { ok: true }>, unit: string): HTMLElement {
  return h(
    'ul',
    { className: 'mt-trend-stats' },
    trendLines(result, unit).map((text) => h('li', { text })),
  );
}

class TrendPanel implements Panel {
  readonly element: HTMLElement;
  private readonly metric: HTMLSelectElement;
  private readonly datasource = h('select', {
    className: 'mt-trend-datasource',
    attrs: { 'aria-label': 'Datasource' },
  });
  private readonly deseason = h('input', {
    className: 'mt-trend-deseason',
    attrs: { type: 'checkbox', 'aria-label': 'Deseasonalise' },
  });
  private readonly note = h('div', { className: 'mt-status mt-trend-note' });
  private readonly plotHost = h('div', { className: 'mt-plot mt-trend-plot' });
  private readonly stats = h('div', { className: 'mt-trend-result' });
  private plot?: uPlot;
  /** The last result (the e2e reads the numbers shown against it). */
  last?: TrendResult;
  private lastMonths: readonly MonthMean[] = [];

  constructor(private readonly ctx: PanelContext) {
    this.metric = metricSelectFor(ctx.table, 'mt-metric mt-trend-metric');
    preferDailyPm(this.metric, ctx.table);
    for (const s of [this.metric, this.datasource, this.deseason]) s.addEventListener('change', () => this.draw());
    this.element = h('div', { className: 'mt-panel mt-trend' }, [
      h('div', { className: 'mt-toolbar' }, [
        h('label', { text: 'Metric ' }),
        this.metric,
        h('label', { text: 'Datasource ' }),
        this.datasource,
        h(
          'label',
          {
            className: 'mt-qc-toggle',
            title: 'Remove the mean seasonal cycle (needs 24 months, every calendar month)',
          },
          [this.deseason, h('span', { text: ' Deseasonalise' })],
        ),
      ]),
      this.note,
      this.plotHost,
      this.stats,
    ]);
  }

  draw(): void {
    const t0 = performance.now();
    this.plot?.destroy();
    this.plot = undefined;
    this.plotHost.textContent = '';
    this.stats.textContent = '';
    const groups = groupRows(this.ctx.table, this.ctx.rows()).map((g) => g.group);
    fillSelect(this.datasource, groups, this.ctx.datasourceNames, undefined, groups[0]);
    const col = Number(this.metric.value);
    if (!(col >= 0) || !this.datasource.value) {
      this.note.textContent = 'Needs a metric and a datasource.';
      return;
    }
    const zone = this.ctx.timeZone();
    const [s] = seriesByGroup(this.ctx.table, this.ctx.rows(), col, new Set([this.datasource.value]));
    const months = s ? monthlyMeans(s.times, s.values, (ms) => zone.dayKey(ms)) : [];
    const result = trend(months, this.deseason.checked);
    this.last = result;
    this.lastMonths = months;
    const unit = unitOf(this.ctx.table.columns[col]);
    this.note.textContent = `Monthly means (all values of the month) of ${this.datasource.value}, months in ${zoneText(zone)}; computed from the ${this.ctx.rows().length.toLocaleString('en-US')} rows shown in ${Math.round(performance.now() - t0)} ms.`;
    if (months.length) this.plot = this.chart(months, result, unit);
    if (!result.ok) {
      this.stats.appendChild(h('div', { className: 'mt-tone-warn mt-trend-refused', text: result.reason }));
      return;
    }
    this.stats.appendChild(trendStats(result, unit));
  }

  /** The monthly means (points and line) and, when there is a trend, its Theil–Sen line from first to last month. */
  private chart(months: readonly MonthMean[], result: TrendResult, unit: string): uPlot {
    const xs = months.map((m) => monthSeconds(m.month));
    const y = result.ok ? Array.from(result.y) : months.map((m) => m.mean);
    const line = result.ok
      ? Array.from(result.x, (x) => result.fit.intercept + result.fit.slope * x)
      : y.map(() => null);
    const [pointColour, lineColour] = palette(this.element, 2);
    const label = result.ok && result.deseasonalised ? 'monthly mean, deseasonalised' : 'monthly mean';
    const slope = result.ok ? `Theil–Sen ${num(result.fit.slope)}${unit ? ` ${unit}` : ''}/year` : 'no trend line';
    const zone = this.ctx.timeZone();
    return new uPlot(
      {
        width: Math.max(320, (this.element.clientWidth || 800) - 14),
        height: 280,
        // Month starts are UTC midnights: shown in UTC so a month never reads as the day before.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        axes: [themedAxis(this.element), themedAxis(this.element, unit || undefined)],
        series: [
          { label: zone.isUtc ? 'month' : `month (${zone.name})` },
          { label, stroke: pointColour, width: 1, points: { show: true, size: 6, fill: pointColour } },
          { label: slope, stroke: lineColour, width: 2, points: { show: false } },
        ],
        legend: { show: true, live: false },
      },
      [xs, y, line] as uPlot.AlignedData,
      this.plotHost,
    );
  }

  /** The monthly means and the trend line drawn, with the statistics (or the reason there is no trend). */
  image(): ViewImage | undefined {
    const result = this.last;
    if (!result || !this.lastMonths.length) return undefined;
    const metric = this.ctx.table.columns[Number(this.metric.value)];
    const unit = unitOf(metric);
    const ds = this.datasource.value;
    const notes = result.ok ? trendLines(result, unit) : [result.reason];
    const title = `${metric?.name ?? ''} at ${ds}: monthly means and Theil–Sen trend`;
    return { svg: svgTrend(this.lastMonths, result, { title, unit, notes }), name: `trend ${ds}` };
  }

  destroy(): void {
    this.plot?.destroy();
  }
}

export const trendView: ViewDefinition = {
  name: 'trend',
  title: 'Trend',
  tooltip: `Monthly means with a Theil–Sen trend per year, its 95 % interval and Mann–Kendall p-value (needs ${MIN_TREND_MONTHS} months)`,
  applies: isTimeSeries,
  create: (ctx) => new TrendPanel(ctx),
};
