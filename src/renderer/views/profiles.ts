// The Profiles view: diurnal and weekday profiles of a metric (mean and interquartile band), a line per datasource.
import uPlot from 'uplot';
import { palette, themedAxis } from '../dom/chart-view';
import { h } from '../dom/h';
import { metricSelectFor } from '../dom/metric-select';
import { cachedOffset, type GroupProfiles, profiles, unitOf } from '../model/aq-views';
import { withAlpha } from '../model/colour';
import { isTimeSeries } from '../model/table-shape';
import type { Panel, PanelContext, ViewDefinition } from './view';

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

export const profilesView: ViewDefinition = {
  name: 'profiles',
  title: 'Profiles',
  tooltip: 'Diurnal and weekday profiles (mean and interquartile band), one line per datasource',
  applies: isTimeSeries,
  create: (ctx) => new ProfilesPanel(ctx),
};
