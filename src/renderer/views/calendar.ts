// The Calendar view (openair's calendarPlot): a year of month grids for a datasource, each local day coloured by
// its daily mean's AQI category with the value and the category's letters in the cell (never colour alone), days
// without a valid mean (fewer than 18 of 24 hours) marked, and a tooltip with the mean, hours and category.
import { AQI_CATEGORIES } from '../../core/aq/aqi';
import {
  type CalendarCell,
  type CalendarMonth,
  calendarYear,
  calendarYears,
  type DayMean,
  localDailyMeans,
} from '../../core/aq/calendar';
import { dailyMeanPollutant } from '../../core/aq/metric-info';
import { MIN_HOURS_PER_DAY } from '../../core/aq/stats';
import { svgCalendar } from '../../core/notebook/export/svg-calendar';
import { fillSelect } from '../dom/datasource-select';
import { h } from '../dom/h';
import { metricSelectFor, preferDailyPm } from '../dom/metric-select';
import { groupRows, seriesByGroup, unitOf } from '../model/aq-views';
import { isTimeSeries } from '../model/table-shape';
import { zoneText } from '../model/view-zone';
import type { Panel, PanelContext, ViewDefinition, ViewImage } from './view';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAY_LETTERS = ['M', 'T', 'W', 'T', 'F', 'S', 'S'];
/** Datasources drawn with "all datasources" (a year each): more would not be read. */
const MAX_CALENDAR_DATASOURCES = 12;
const ALL = '\u0000all';

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The value as the cell shows it: one decimal (the precision EPA truncates PM2.5 to). */
function cellValue(v: number): string {
  return (Math.round(v * 10) / 10).toFixed(1);
}

/** One day's cell: its number, value and category letters; colour from the category; the tooltip in words. */
function dayCell(date: string, dayOfMonth: number, cell: CalendarCell | undefined, unit: string): HTMLElement {
  const td = h('td', { className: 'mt-cal-day' });
  td.appendChild(h('span', { className: 'mt-cal-date', text: String(dayOfMonth) }));
  if (!cell) {
    td.classList.add('mt-cal-empty');
    td.title = `${date}: no value`;
    return td;
  }
  const u = unit ? ` ${unit}` : '';
  td.dataset.mean = String(cell.mean);
  if (!cell.valid) {
    td.classList.add('mt-cal-invalid');
    td.append(h('span', { className: 'mt-cal-value', text: `(${cellValue(cell.mean)})` }));
    td.append(h('span', { className: 'mt-cal-cat', text: `${cell.hours} h` }));
    td.title = `${date}: no valid daily mean: ${cell.hours} of 24 hours have a value (needs ${MIN_HOURS_PER_DAY}); mean of those ${cellValue(cell.mean)}${u}`;
    return td;
  }
  td.append(h('span', { className: 'mt-cal-value', text: cellValue(cell.mean) }));
  if (cell.category) {
    td.classList.add('mt-cal-aqi');
    td.style.setProperty('--mt-aqi', cell.category.colour);
    td.style.setProperty('--mt-aqi-text', cell.category.textColour);
    td.append(h('span', { className: 'mt-cal-cat', text: cell.category.abbr }));
  }
  const category = cell.category ? `, ${cell.category.name}` : '';
  td.title = `${date}: daily mean ${cellValue(cell.mean)}${u} over ${cell.hours} hours${category}`;
  return td;
}

/** A month's grid: a header of weekday letters (Monday first), then weeks. */
function monthGrid(m: CalendarMonth, unit: string): HTMLElement {
  const table = h('table', { className: 'mt-cal-month' });
  table.createCaption().textContent = `${MONTHS[m.month - 1]} ${m.year}`;
  const head = table.createTHead().insertRow();
  for (const d of WEEKDAY_LETTERS) head.appendChild(h('th', { text: d }));
  const body = table.createTBody();
  let row = body.insertRow();
  for (let i = 0; i < m.lead; i++) row.appendChild(h('td', { className: 'mt-cal-blank' }));
  m.days.forEach((cell, i) => {
    if ((m.lead + i) % 7 === 0 && i > 0) row = body.insertRow();
    row.appendChild(dayCell(`${m.year}-${pad2(m.month)}-${pad2(i + 1)}`, i + 1, cell, unit));
  });
  return table;
}

/** The key: each category's colour with its letters and name, then the marks for invalid and empty days. */
function calendarLegend(categorised: boolean): HTMLElement {
  const items = categorised
    ? AQI_CATEGORIES.map((c) => {
        const chip = h('span', { className: 'mt-cal-key mt-cal-aqi', text: c.abbr });
        chip.style.setProperty('--mt-aqi', c.colour);
        chip.style.setProperty('--mt-aqi-text', c.textColour);
        return h('span', { className: 'mt-legend-item' }, [chip, h('span', { text: c.name })]);
      })
    : [];
  items.push(
    h('span', { className: 'mt-legend-item' }, [
      h('span', { className: 'mt-cal-key mt-cal-invalid', text: 'n h' }),
      h('span', { text: `fewer than ${MIN_HOURS_PER_DAY} hours: no valid mean (value in brackets)` }),
    ]),
  );
  return h('div', { className: 'mt-aqi-legend mt-cal-legend' }, items);
}

class CalendarPanel implements Panel {
  readonly element: HTMLElement;
  private readonly metric: HTMLSelectElement;
  private readonly datasource = h('select', { className: 'mt-cal-datasource', attrs: { 'aria-label': 'Datasource' } });
  private readonly year = h('select', { className: 'mt-cal-year', attrs: { 'aria-label': 'Year' } });
  private readonly note = h('div', { className: 'mt-status mt-cal-note' });
  private readonly grids = h('div', { className: 'mt-cal-years' });
  /** What was drawn last, for the image. */
  private drawn?: {
    metric: string;
    days: Array<{ group: string; days: DayMean[] }>;
    year: number;
    pollutant: 'pm2_5' | 'pm10' | undefined;
    unit: string;
    zone: string;
  };

  constructor(private readonly ctx: PanelContext) {
    this.metric = metricSelectFor(ctx.table, 'mt-metric mt-cal-metric');
    preferDailyPm(this.metric, ctx.table);
    for (const s of [this.metric, this.datasource, this.year]) s.addEventListener('change', () => this.draw());
    this.element = h('div', { className: 'mt-panel mt-calendar' }, [
      h('div', { className: 'mt-toolbar' }, [
        h('label', { text: 'Metric ' }),
        this.metric,
        h('label', { text: 'Datasource ' }),
        this.datasource,
        h('label', { text: 'Year ' }),
        this.year,
      ]),
      this.note,
      this.grids,
    ]);
  }

  /** The datasources offered (and "all", the first MAX_CALENDAR_DATASOURCES); the ones to draw. */
  private chosenGroups(): { groups: string[]; total: number } {
    const groups = groupRows(this.ctx.table, this.ctx.rows()).map((g) => g.group);
    const wasAll = this.datasource.value === ALL;
    fillSelect(this.datasource, groups, this.ctx.datasourceNames, undefined, groups[0]);
    if (groups.length > 1) {
      const all = h('option', { text: `all datasources (first ${MAX_CALENDAR_DATASOURCES} by name)` });
      all.value = ALL;
      this.datasource.appendChild(all);
      if (wasAll) this.datasource.value = ALL;
    }
    const chosen = this.datasource.value === ALL ? groups.slice(0, MAX_CALENDAR_DATASOURCES) : [this.datasource.value];
    return { groups: chosen.filter(Boolean), total: groups.length };
  }

  draw(): void {
    const t0 = performance.now();
    this.grids.textContent = '';
    const col = Number(this.metric.value);
    if (!(col >= 0)) {
      this.note.textContent = 'No metric to draw.';
      return;
    }
    const column = this.ctx.table.columns[col];
    const zone = this.ctx.timeZone();
    const { groups, total } = this.chosenGroups();
    const dayOf = (ms: number) => zone.dayKey(ms);
    const series = seriesByGroup(this.ctx.table, this.ctx.rows(), col, new Set(groups));
    const days = series.map((s) => ({ group: s.group, days: localDailyMeans(s.times, s.values, dayOf) }));
    const years = calendarYears(days.flatMap((d) => d.days));
    const year = this.fillYears(years);
    const pollutant = dailyMeanPollutant(column.metric);
    const unit = unitOf(column);
    for (const d of days) this.grids.appendChild(this.yearGrid(d.group, d.days, year, pollutant, unit));
    this.drawn = { metric: column.name, days, year, pollutant, unit, zone: zoneText(zone) };
    this.grids.appendChild(calendarLegend(pollutant !== undefined));
    const categories = pollutant
      ? `coloured by the AQI category of the daily mean (EPA 24-hour ${pollutant === 'pm2_5' ? 'PM2.5' : 'PM10'} breakpoints)`
      : 'values only: EPA has no 24-hour breakpoints for a daily mean of this metric';
    const capped =
      this.datasource.value === ALL && total > groups.length
        ? ` Only the first ${groups.length} of ${total} datasources are drawn.`
        : '';
    this.note.textContent = `Daily means of hourly means in ${unit || 'the metric’s unit'}, days in ${zoneText(zone)} (the table's zone button), valid with ≥ ${MIN_HOURS_PER_DAY} of 24 hours; ${categories}. Computed from the ${this.ctx.rows().length.toLocaleString('en-US')} rows shown in ${Math.round(performance.now() - t0)} ms.${capped}`;
  }

  /** Fills the year choice (the latest by default, the user's pick kept); the year to draw. */
  private fillYears(years: number[]): number {
    const current = Number(this.year.value);
    this.year.textContent = '';
    for (const y of years) {
      const opt = h('option', { text: String(y) });
      opt.value = String(y);
      this.year.appendChild(opt);
    }
    const year = years.includes(current) ? current : (years[years.length - 1] ?? Number.NaN);
    this.year.value = String(year);
    return year;
  }

  private yearGrid(
    group: string,
    days: DayMean[],
    year: number,
    pollutant: 'pm2_5' | 'pm10' | undefined,
    unit: string,
  ): HTMLElement {
    const name = this.ctx.datasourceNames?.get(group);
    const title = h('div', { className: 'mt-panel-title', text: `${group}${name ? ` ${name}` : ''}` });
    if (Number.isNaN(year) || !days.length)
      return h('div', { className: 'mt-cal-year' }, [title, h('div', { className: 'mt-status', text: 'No values.' })]);
    const months = calendarYear(days, year, pollutant);
    const valid = days.filter((d) => d.valid).length;
    const summary = h('div', {
      className: 'mt-status',
      text: `${valid} valid days, ${days.length - valid} with fewer than ${MIN_HOURS_PER_DAY} hours (all years)`,
    });
    return h('div', { className: 'mt-cal-year' }, [
      title,
      summary,
      h(
        'div',
        { className: 'mt-cal-grid' },
        months.map((m) => monthGrid(m, unit)),
      ),
    ]);
  }

  /** The year of the first datasource drawn (the one chosen), as twelve month grids. */
  image(): ViewImage | undefined {
    const d = this.drawn;
    const first = d?.days.find((g) => g.days.length);
    if (!d || !first || Number.isNaN(d.year)) return undefined;
    const name = this.ctx.datasourceNames?.get(first.group);
    const others = d.days.length > 1 ? ` (the first of ${d.days.length} datasources; choose one to draw another)` : '';
    const title = `${d.metric} at ${first.group}${name ? ` ${name}` : ''}, ${d.year}${others}`;
    const months = calendarYear(first.days, d.year, d.pollutant);
    const svg = svgCalendar(months, { title, unit: d.unit, zone: d.zone, categorised: d.pollutant !== undefined });
    return { svg, name: `calendar ${first.group} ${d.year}` };
  }

  destroy(): void {}
}

export const calendarView: ViewDefinition = {
  name: 'calendar',
  title: 'Calendar',
  tooltip:
    'A year of daily means per datasource, each day coloured by its AQI category (value and category in the cell)',
  applies: isTimeSeries,
  create: (ctx) => new CalendarPanel(ctx),
};
