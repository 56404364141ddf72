// The Profiles view, as openair's timeVariation: the hour-of-week panel and the hour, month and weekday panels of a
// metric, a line per datasource with its band (the seeded bootstrap 95 % interval of the mean, or the interquartile
// range), `normalise` (each line divided by its mean, to compare shapes) and `difference` (two datasources or two
// metrics: A, B and B − A with the interval of the difference).
import uPlot from 'uplot';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from '../../core/aq/bootstrap';
import { BOOTSTRAP_MAX_VALUES, type ProfileBy, type ProfilePoint } from '../../core/aq/stats';
import { type ProfilePanelSpec, svgProfiles } from '../../core/notebook/export/svg-profiles';
import { rowsTimeRange } from '../../core/table/chart-columns';
import type { Zone } from '../../core/time/zone';
import { themedAxis } from '../dom/chart-view';
import { fillSelect } from '../dom/datasource-select';
import { h } from '../dom/h';
import { metricSelectFor } from '../dom/metric-select';
import {
  type DifferenceProfiles,
  differenceProfiles,
  type GroupProfiles,
  groupRows,
  PROFILE_PANELS,
  profiles,
  unitOf,
} from '../model/aq-views';
import { groupColours, groupStyles, withAlpha } from '../model/colour';
import { isTimeSeries } from '../model/table-shape';
import { zoneText } from '../model/view-zone';
import type { Panel, PanelContext, ViewDefinition, ViewImage } from './view';

/** Lines per profile chart (the first datasources by name): more would not be readable. */
const MAX_PROFILE_LINES = 12;

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Each panel: its title, host class, width share and x labels. */
const PANELS: Record<ProfileBy, { title: string; className: string; label: (x: number) => string }> = {
  hourWeekday: {
    title: 'Hour of the week (Monday 00:00 first)',
    className: 'mt-hour-weekday',
    label: (x) => (x % 24 === 0 ? (WEEKDAYS[x / 24] ?? '') : x % 6 === 0 ? String(x % 24) : ''),
  },
  hour: { title: 'Hour of day', className: 'mt-diurnal', label: (x) => String(x) },
  month: { title: 'Month', className: 'mt-month', label: (x) => MONTHS[x] ?? '' },
  weekday: { title: 'Weekday', className: 'mt-weekday', label: (x) => WEEKDAYS[x] ?? '' },
};

type Band = 'ci' | 'iqr';
type Compare = 'each' | 'datasources' | 'metrics';

/** A line's values: the mean and its band, divided by `scale` (the series' mean when normalising, else 1). */
function lineData(points: ProfilePoint[], band: Band, scale: number): Array<Array<number | null>> {
  const nn = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? null : v / scale);
  return [
    points.map((p) => nn(p.mean)),
    points.map((p) => nn(band === 'ci' ? p.ciHigh : p.q75)),
    points.map((p) => nn(band === 'ci' ? p.ciLow : p.q25)),
  ];
}

function choice(select: HTMLSelectElement, options: Array<[string, string]>): void {
  for (const [value, text] of options) {
    const opt = h('option', { text });
    opt.value = value;
    select.appendChild(opt);
  }
}

class ProfilesPanel implements Panel {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly band = h('select', { className: 'mt-profile-band', attrs: { 'aria-label': 'Band' } });
  private readonly normalise = h('input', {
    className: 'mt-profile-normalise',
    attrs: { type: 'checkbox', 'aria-label': 'Normalise' },
  });
  private readonly compare = h('select', { className: 'mt-profile-compare', attrs: { 'aria-label': 'Compare' } });
  private readonly sideA = h('select', { className: 'mt-profile-a', attrs: { 'aria-label': 'A' } });
  private readonly sideB = h('select', { className: 'mt-profile-b', attrs: { 'aria-label': 'B' } });
  private readonly metricB: HTMLSelectElement;
  private readonly sides = h('span', { className: 'mt-profile-sides' });
  private readonly hosts = new Map<ProfileBy, HTMLElement>();
  private readonly note = h('div', { className: 'mt-status mt-profiles-note' });
  private plots: uPlot[] = [];
  /** What was drawn last, for the image. */
  private drawn?: {
    metric: string;
    lines: GroupProfiles[];
    unit: string;
    band: Band;
    raw?: GroupProfiles;
    zone: string;
  };

  constructor(private readonly ctx: PanelContext) {
    this.select = metricSelectFor(ctx.table, 'mt-metric mt-profile-metric');
    this.metricB = metricSelectFor(ctx.table, 'mt-metric mt-profile-metric-b');
    choice(this.band, [
      ['ci', 'mean, 95 % CI (bootstrap)'],
      ['iqr', 'mean, interquartile range'],
    ]);
    choice(this.compare, [
      ['each', 'each datasource'],
      ['datasources', 'difference: two datasources'],
      ['metrics', 'difference: two metrics'],
    ]);
    for (const c of [this.select, this.band, this.normalise, this.compare, this.sideA, this.sideB, this.metricB])
      c.addEventListener('change', () => this.draw());
    const plots = PROFILE_PANELS.map((by) => {
      const host = h('div', { className: `mt-plot ${PANELS[by].className}` });
      this.hosts.set(by, host);
      return h('div', { className: `mt-profile-panel mt-profile-${by}` }, [
        h('div', { className: 'mt-panel-title', text: PANELS[by].title }),
        host,
      ]);
    });
    this.element = h('div', { className: 'mt-panel mt-profiles' }, [
      h('div', { className: 'mt-toolbar' }, [
        h('label', { text: 'Metric ' }),
        this.select,
        h('label', { text: 'Band ' }),
        this.band,
        h('label', { className: 'mt-qc-toggle', title: 'Divide each line by its mean, to compare shapes' }, [
          this.normalise,
          h('span', { text: ' Normalise' }),
        ]),
        h('label', { text: 'Lines ' }),
        this.compare,
        this.sides,
      ]),
      this.note,
      h('div', { className: 'mt-profile-panels' }, plots),
    ]);
  }

  /** The A/B choices of a difference: datasources (of the metric), or a datasource and a second metric. */
  private fillSides(mode: Compare, groups: string[]): void {
    this.sides.textContent = '';
    if (mode === 'each') return;
    fillSelect(this.sideA, groups, this.ctx.datasourceNames, undefined, groups[0]);
    if (mode === 'datasources') {
      fillSelect(this.sideB, groups, this.ctx.datasourceNames, undefined, groups[1] ?? groups[0]);
      this.sides.append(h('label', { text: ' A ' }), this.sideA, h('label', { text: ' B ' }), this.sideB);
    } else
      this.sides.append(h('label', { text: ' of ' }), this.sideA, h('label', { text: ' B: metric ' }), this.metricB);
  }

  /** The lines to draw: each datasource's profiles, or A, B and B − A. */
  private lines(
    col: number,
    mode: Compare,
    zone: Zone,
  ): { lines: GroupProfiles[]; text: string; diff?: DifferenceProfiles } {
    const rows = this.ctx.rows();
    const ci = this.band.value === 'ci' ? { seed: BOOTSTRAP_SEED } : undefined;
    if (mode === 'each') {
      const { shown, datasources } = profiles(this.ctx.table, rows, col, zone, MAX_PROFILE_LINES, ci);
      const capped =
        datasources > shown.length
          ? ` Only the first ${shown.length} of ${datasources.toLocaleString('en-US')} datasources (by name) are drawn: filter the table to pick others.`
          : '';
      return { lines: shown, text: capped };
    }
    const a = { group: this.sideA.value, metricCol: col };
    const b =
      mode === 'datasources'
        ? { group: this.sideB.value, metricCol: col }
        : { group: a.group, metricCol: Number(this.metricB.value) };
    const diff = differenceProfiles(this.ctx.table, rows, a, b, zone, ci);
    if (!diff) return { lines: [], text: ' No values for A or B.' };
    return {
      lines: [diff.a, diff.b, diff.difference],
      diff,
      text: ` ${diff.difference.group}: over the ${diff.pairs.toLocaleString('en-US')} periods both have a value in (each side's own lines use all its values).`,
    };
  }

  draw(): void {
    const t0 = performance.now();
    for (const p of this.plots) p.destroy();
    this.plots = [];
    const col = Number(this.select.value);
    if (!(col >= 0)) {
      this.note.textContent = 'No metric to profile.';
      return;
    }
    const mode = this.compare.value as Compare;
    this.fillSides(
      mode,
      groupRows(this.ctx.table, this.ctx.rows()).map((g) => g.group),
    );
    const zone = this.ctx.timeZone();
    const { lines, text, diff } = this.lines(col, mode, zone);
    const band = this.band.value as Band;
    const normalise = this.normalise.checked;
    const unit = normalise ? 'ratio to the mean' : unitOf(this.ctx.table.columns[col]);
    for (const by of PROFILE_PANELS)
      this.plots.push(
        this.profilePlot(by, this.hosts.get(by)!, lines, unit, band, normalise ? diff?.difference : undefined),
      );
    this.drawn = {
      metric: this.ctx.table.columns[col].name,
      lines,
      unit,
      band,
      raw: normalise ? diff?.difference : undefined,
      zone: zoneText(zone),
    };
    const bandText =
      band === 'ci'
        ? `band = 95 % confidence interval of the mean (percentile bootstrap, ${BOOTSTRAP_RESAMPLES} seeded resamples; above ${BOOTSTRAP_MAX_VALUES.toLocaleString('en-US')} values the normal interval it tends to)`
        : 'band = interquartile range';
    const norm = normalise
      ? ' Normalised: each line divided by its mean (a difference is not: its mean may be near zero).'
      : '';
    this.note.textContent = `Hours, weekdays and months in ${zoneText(zone)} (the table's zone button); ${bandText}.${text}${norm} Computed in ${Math.round(performance.now() - t0)} ms.`;
    this.note.classList.toggle('mt-profiles-capped', text.startsWith(' Only'));
  }

  /** One panel: per line its mean and band (in the line's colour, 20 %); `raw` is a line never normalised. */
  private profilePlot(
    by: ProfileBy,
    host: HTMLElement,
    all: GroupProfiles[],
    unit: string,
    band: Band,
    raw?: GroupProfiles,
  ): uPlot {
    const colours = groupColours(
      this.ctx.table,
      all.map((g) => g.group),
      this.ctx.styleSlots,
    );
    const series: uPlot.Series[] = [{ label: PANELS[by].title }];
    const data: Array<Array<number | null>> = [];
    const bands: uPlot.Band[] = [];
    const normalising = unit === 'ratio to the mean';
    all.forEach((g, i) => {
      const base = data.length + 1;
      const scale = normalising && g !== raw ? g.mean : 1;
      series.push({ label: g.group, stroke: colours[i], width: 2 });
      series.push({ label: `${g.group} high`, stroke: 'transparent', width: 0, points: { show: false } });
      series.push({ label: `${g.group} low`, stroke: 'transparent', width: 0, points: { show: false } });
      data.push(...lineData(g[by], band, scale));
      bands.push({ series: [base + 1, base + 2], fill: withAlpha(colours[i], 0.2) });
    });
    host.textContent = '';
    const xAxis = themedAxis(this.element);
    xAxis.values = (_u, ticks) => ticks.map((t) => PANELS[by].label(t));
    if (by === 'hourWeekday') xAxis.splits = () => Array.from({ length: 28 }, (_, k) => k * 6);
    const size = all[0]?.[by].length ?? 0;
    const xs = Array.from({ length: size }, (_, i) => i);
    const wide = by === 'hourWeekday';
    const width = (this.element.clientWidth || 800) - 14;
    const plot = new uPlot(
      {
        width: Math.max(wide ? 320 : 240, wide ? width : Math.floor(width / 3) - 8),
        height: wide ? 220 : 200,
        scales: { x: { time: false } },
        axes: [xAxis, themedAxis(this.element, unit || undefined)],
        series,
        bands,
        legend: { show: wide, live: false },
      },
      [xs, ...data] as uPlot.AlignedData,
      host,
    );
    // The band series only bound the bands: out of the legend (a key without live values has no row for the
    // x series: the rows are the lines' mean, high, low in turn).
    const rows = host.querySelectorAll<HTMLElement>('.u-legend .u-series');
    const first = rows.length === series.length ? 1 : 0;
    rows.forEach((row, i) => {
      if (i >= first && (i - first) % 3 !== 0) row.style.display = 'none';
    });
    return plot;
  }

  /** The four panels drawn (each line's mean and band), as one drawing. */
  image(): ViewImage | undefined {
    const d = this.drawn;
    if (!d?.lines.length) return undefined;
    const styles = groupStyles(
      this.ctx.table,
      d.lines.map((g) => g.group),
      this.ctx.styleSlots,
    );
    const normalising = d.unit === 'ratio to the mean';
    const panels: ProfilePanelSpec[] = PROFILE_PANELS.map((by) => ({
      title: PANELS[by].title,
      label: PANELS[by].label,
      lines: d.lines.map((g, i) => {
        const [mean, high, low] = lineData(g[by], d.band, normalising && g !== d.raw ? g.mean : 1);
        return { label: g.group, style: styles[i], mean, high, low };
      }),
    }));
    const band = d.band === 'ci' ? '95 % confidence interval of the mean (bootstrap)' : 'interquartile range';
    const svg = svgProfiles({
      title: `${d.metric}: profiles`,
      unit: d.unit,
      subtitle: `Hours, weekdays and months in ${d.zone}; band = ${band}${normalising ? '; each line divided by its mean' : ''}`,
      timeRange: rowsTimeRange(this.ctx.table, this.ctx.rows()),
      panels,
    });
    return { svg, name: `profiles ${d.metric}` };
  }

  destroy(): void {
    for (const p of this.plots) p.destroy();
  }
}

export const profilesView: ViewDefinition = {
  name: 'profiles',
  title: 'Profiles',
  tooltip:
    'Time variation (openair): hour of the week, hour, month and weekday means with a bootstrap 95 % interval or the interquartile band; normalise; the difference of two datasources or metrics',
  applies: isTimeSeries,
  create: (ctx) => new ProfilesPanel(ctx),
};
