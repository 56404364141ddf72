// The Calendar view's image (openair's calendarPlot): a datasource's year as twelve month grids, each day with its
// number, its daily mean and its AQI category's letters (never colour alone), coloured by the category; days without
// a valid mean with the mean in brackets and their hours; a key of the categories; the days' range and zone.
import { AQI_CATEGORIES } from '../../aq/aqi';
import type { CalendarCell, CalendarMonth } from '../../aq/calendar';
import { MIN_HOURS_PER_DAY } from '../../aq/stats';
import { escapeXml } from './escape';

const MONTH_NAMES = 'January February March April May June July August September October November December'.split(' ');
const WEEKDAYS = ['M', 'T', 'W', 'T', 'F', 'S', 'S'];
const CELL = { w: 32, h: 28 };
const MONTH_W = 7 * CELL.w + 18;
const MONTH_H = 34 + 6 * CELL.h + 12;
const TOP = 44;
const LEFT = 12;

interface CalendarImage {
  title: string;
  unit: string;
  /** The zone the days are counted in, as the view says it. */
  zone: string;
  /** Whether days are coloured by AQI category (the metric has EPA 24-hour breakpoints). */
  categorised: boolean;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const one = (v: number) => (Math.round(v * 10) / 10).toFixed(1);

function dayCell(cell: CalendarCell | undefined, day: number, x: number, y: number): string {
  const rect = (fill: string, extra = '') =>
    `<rect x="${x}" y="${y}" width="${CELL.w - 2}" height="${CELL.h - 2}" fill="${fill}" stroke="#bbb"${extra}/>`;
  const at = (dx: number, dy: number, text: string, attrs = '') =>
    `<text x="${x + dx}" y="${y + dy}"${attrs}>${escapeXml(text)}</text>`;
  const date = at(2, 8, String(day), ' font-size="7"');
  if (!cell) return `<g>${rect('#fff', ' stroke-dasharray="1 2"')}${date}</g>`;
  const mid = (CELL.w - 2) / 2;
  if (!cell.valid)
    return `<g>${rect('#f0f0f0', ' stroke-dasharray="3 2"')}${date}${at(mid, 17, `(${one(cell.mean)})`, ' font-size="8" text-anchor="middle"')}${at(mid, 25, `${cell.hours} h`, ' font-size="7" text-anchor="middle"')}</g>`;
  const c = cell.category;
  const fill = c?.colour ?? '#fff';
  const ink = c ? ` fill="${c.textColour}"` : '';
  const value = at(mid, 17, one(cell.mean), ` font-size="9" text-anchor="middle"${ink}`);
  const abbr = c ? at(mid, 25, c.abbr, ` font-size="7" text-anchor="middle"${ink}`) : '';
  return `<g>${rect(fill)}${at(2, 8, String(day), ` font-size="7"${ink}`)}${value}${abbr}</g>`;
}

function monthBlock(m: CalendarMonth, x: number, y: number): string[] {
  const out = [`<text x="${x}" y="${y + 12}" font-weight="bold">${MONTH_NAMES[m.month - 1]} ${m.year}</text>`];
  WEEKDAYS.forEach((d, i) => {
    out.push(
      `<text x="${x + i * CELL.w + CELL.w / 2 - 1}" y="${y + 28}" font-size="9" text-anchor="middle">${d}</text>`,
    );
  });
  m.days.forEach((cell, i) => {
    const k = m.lead + i;
    out.push(dayCell(cell, i + 1, x + (k % 7) * CELL.w, y + 34 + Math.floor(k / 7) * CELL.h));
  });
  return out;
}

/** The key: each category's colour with its letters and name; the mark of a day without a valid mean. */
function calendarKey(categorised: boolean, top: number): string[] {
  let y = top;
  const out: string[] = [];
  let x = LEFT;
  const item = (fill: string, ink: string, letters: string, name: string, dash = '') => {
    out.push(
      `<rect x="${x}" y="${y - 11}" width="28" height="15" fill="${fill}" stroke="#bbb"${dash}/><text x="${x + 14}" y="${y}" font-size="9" text-anchor="middle" fill="${ink}">${escapeXml(letters)}</text><text x="${x + 32}" y="${y}">${escapeXml(name)}</text>`,
    );
    x += 40 + name.length * 6;
  };
  if (categorised) for (const c of AQI_CATEGORIES) item(c.colour, c.textColour, c.abbr, c.name);
  // The invalid days' mark on a line of its own.
  [x, y] = [LEFT, categorised ? y + 20 : y];
  item('#f0f0f0', '#000', 'n h', `fewer than ${MIN_HOURS_PER_DAY} hours: no valid mean`, ' stroke-dasharray="3 2"');
  return out;
}

/** The first and last day drawn with a value, as ISO dates. */
function dayRange(months: readonly CalendarMonth[]): string {
  const dates: string[] = [];
  for (const m of months)
    m.days.forEach((c, i) => {
      if (c) dates.push(`${m.year}-${pad2(m.month)}-${pad2(i + 1)}`);
    });
  return dates.length ? `${dates[0]} – ${dates[dates.length - 1]}` : 'no days with values';
}

/** Twelve months in 4 columns and 3 rows, with the title, the unit, the days' range and zone, and the key. */
export function svgCalendar(months: readonly CalendarMonth[], o: CalendarImage): string {
  const width = LEFT * 2 + 4 * MONTH_W;
  const rows = Math.ceil(months.length / 4);
  const keyY = TOP + rows * MONTH_H + 14;
  const height = keyY + (o.categorised ? 36 : 16);
  const u = o.unit ? ` [${o.unit}]` : '';
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(o.title)}" font-family="sans-serif" font-size="11" style="background:#fff">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${LEFT}" y="16" font-weight="bold">${escapeXml(o.title)}</text>`,
    `<text x="${LEFT}" y="32">${escapeXml(`Daily means${u}, valid with ≥ ${MIN_HOURS_PER_DAY} of 24 hours`)}</text>`,
    `<text x="${width - LEFT}" y="16" text-anchor="end" class="time-range">${escapeXml(`${dayRange(months)} (days in ${o.zone})`)}</text>`,
  ];
  months.forEach((m, i) => {
    out.push(...monthBlock(m, LEFT + (i % 4) * MONTH_W, TOP + Math.floor(i / 4) * MONTH_H));
  });
  out.push(...calendarKey(o.categorised, keyY), '</svg>');
  return out.join('\n');
}
