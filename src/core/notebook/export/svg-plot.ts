// Static SVG plots for exports and images (no script, nothing fetched, every text escaped): time charts of lines
// (one style per line, a legend of every line, ISO 24-hour time ticks in a zone named once on the axis, nice value
// ticks, the unit on each axis; stacked panels or a right axis, value bands such as the AQI categories named in
// words) and a scatter with equal axes, the 1:1 line and a fitted line in the line palette's colours. The notebook
// export's chart, the views' images and the sensor evaluation report all draw with these.
import { LINE_COLOURS, type LineStyle } from '../../aq/line-styles';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../time/duration';
import { formatInZone, timeAxisTitle, UTC, type Zone } from '../../time/zone';
import { escapeXml } from './escape';

export interface PlotSeries {
  label: string;
  /** [x, y] pairs, x ascending (epoch ms for a time chart). */
  points: Array<[number, number]>;
  style: LineStyle;
  /** A mark at each point too (few points, e.g. monthly means). */
  markers?: boolean;
}

interface TimeChartSpec {
  title: string;
  /** The value axis' label, e.g. the unit. */
  yLabel: string;
  series: PlotSeries[];
  /** Lines of text under the legend (e.g. a trend's statistics). */
  notes?: string[];
  width?: number;
}

/** A range of values behind a panel (an AQI category): drawn in its colour and named in words, never colour alone. */
interface ValueBand {
  from: number;
  to: number;
  colour: string;
  label: string;
}

/** One panel of a time chart: its lines on a value axis, optional bands behind them and a second metric's axis. */
export interface TimePanel {
  /** Said above the panel when the chart has several (the metric and its unit). */
  title?: string;
  yLabel: string;
  series: PlotSeries[];
  bands?: ValueBand[];
  /** A second metric in the same panel, on an axis on the right. */
  right?: { yLabel: string; series: PlotSeries[] };
}

/** Panels stacked on one time axis, drawn in a zone. */
interface PanelChartSpec {
  title: string;
  panels: TimePanel[];
  notes?: string[];
  width?: number;
  /** The zone the time axis is drawn in (default UTC), named once in the axis' title. */
  zone?: Zone;
  /** What a time means (core/time/zone timeAxisTitle): an instant, or the start of an hour or a day. */
  frequency?: 'minute' | 'hour' | 'day';
  /** What the bands are, said before their key (e.g. "US EPA AQI"). */
  bandsName?: string;
}

interface ScatterSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  /** The fitted line y = slope·x + intercept, drawn with the 1:1 line. */
  fit?: { slope: number; intercept: number };
  /** The time of each point (ms): the data's time range is said under the legend. */
  times?: ArrayLike<number>;
  size?: number;
}

/** The scatter's colours as the Collocation view draws them (core/aq/line-styles' palette by position). */
const SCATTER_COLOURS = { points: LINE_COLOURS[0], fit: LINE_COLOURS[1] };

const PAD = { left: 64, right: 16, top: 28, bottom: 56 }; // bottom: ticks, dates and the time-range line above the legend
const LEGEND_COLUMN = 176;
const LEGEND_ROW = 16;

/** A number for a tick or a legend: no more digits than the step needs. */
function tickText(v: number, step: number): string {
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
  return (Math.abs(v) < step / 1e6 ? 0 : v).toFixed(decimals);
}

/** Ticks at multiples of a 1-2-2.5-5 step covering [lo, hi], about `target` of them. */
export function niceTicks(lo: number, hi: number, target = 5): { ticks: number[]; step: number } {
  const span = hi > lo ? hi - lo : Math.abs(lo) || 1;
  const raw = span / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  const [first, last] = [Math.floor(lo / step + 1e-9), Math.ceil(hi / step - 1e-9)];
  for (let k = first; k <= Math.max(last, first + 1); k++) ticks.push(Number((k * step).toPrecision(12)));
  return { ticks, step };
}

const TIME_STEPS = [1, 5, 10, 15, 30]
  .map((m) => m * MINUTE_MS)
  .concat(
    [1, 2, 3, 6, 12].map((h) => h * HOUR_MS),
    [1, 2, 7, 14, 28, 91, 182, 364].map((d) => d * DAY_MS),
  );

/**
 * Time ticks on whole steps (minutes, hours, days) of the zone's clock, at most `max` of them: a 3-hour step
 * falls on 00:00, 03:00, … local time, a day step on local midnights.
 */
export function timeTicks(x0: number, x1: number, max = 8, zone: Zone = UTC): number[] {
  const step = TIME_STEPS.find((s) => (x1 - x0) / s <= max) ?? (x1 - x0) / max;
  const wall = (t: number) => t + zone.offsetMs(t);
  const instant = (w: number) => w - zone.offsetMs(w - zone.offsetMs(w));
  const out: number[] = [];
  for (let w = Math.ceil(wall(x0) / step) * step, k = 0; k < 4 * max + 4; w += step, k++) {
    const t = instant(w);
    if (!(t <= x1)) break;
    if (t >= x0 && !(t <= out[out.length - 1])) out.push(t);
  }
  return out.length ? out : [x0];
}

/**
 * The data's time range as the chart's subtitle, in the one time format: "2026-11-25 00:00 – 2026-11-26 23:00 UTC"
 * (`named`: the zone after it; an axis whose title names the zone leaves it out).
 */
export function timeRangeText(x0: number, x1: number, zone: Zone = UTC, named = true): string {
  const text = `${formatInZone(x0, zone)} – ${formatInZone(x1, zone)}`;
  return named ? `${text} ${zone.name}` : text;
}

/** Fewer points for a long series: per pixel column its first, lowest, highest and last point (in order). */
function thin(points: Array<[number, number]>, px: (x: number) => number, width: number): Array<[number, number]> {
  if (points.length <= width * 4) return points;
  const out: Array<[number, number]> = [];
  let i = 0;
  while (i < points.length) {
    const col = Math.floor(px(points[i][0]));
    const start = i;
    let [lo, hi, last] = [i, i, i];
    for (; i < points.length && Math.floor(px(points[i][0])) === col; i++) {
      if (points[i][1] < points[lo][1]) lo = i;
      if (points[i][1] > points[hi][1]) hi = i;
      last = i;
    }
    for (const k of [...new Set([start, lo, hi, last])].sort((a, b) => a - b)) out.push(points[k]);
  }
  return out;
}

function dashAttr(style: LineStyle): string {
  return style.dash.length ? ` stroke-dasharray="${style.dash.join(' ')}"` : '';
}

function svgOpen(width: number, height: number, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(label)}" font-family="sans-serif" font-size="11" style="background:#fff">`;
}

/** The value axis: grid lines, tick labels and the rotated label. */
function valueAxis(ticks: number[], step: number, py: (y: number) => number, x0: number, x1: number, label: string) {
  const out = ticks.map(
    (v) =>
      `<line x1="${x0}" y1="${py(v).toFixed(1)}" x2="${x1}" y2="${py(v).toFixed(1)}" stroke="#e4e4e4"/><text x="${x0 - 4}" y="${(py(v) + 4).toFixed(1)}" text-anchor="end">${tickText(v, step)}</text>`,
  );
  const mid = (py(ticks[0]) + py(ticks[ticks.length - 1])) / 2;
  out.push(
    `<text transform="translate(14 ${mid.toFixed(1)}) rotate(-90)" text-anchor="middle">${escapeXml(label)}</text>`,
  );
  return out;
}

/** The legend: one entry per line (its style and label), in columns under the plot. */
function legend(series: PlotSeries[], top: number, width: number): string[] {
  const perRow = Math.max(1, Math.floor((width - PAD.left) / LEGEND_COLUMN));
  return series.map((s, i) => {
    const x = PAD.left + (i % perRow) * LEGEND_COLUMN;
    const y = top + Math.floor(i / perRow) * LEGEND_ROW;
    const label = s.label.length > 22 ? `${s.label.slice(0, 21)}…` : s.label;
    return `<g><title>${escapeXml(s.label)}</title><line x1="${x}" y1="${y - 4}" x2="${x + 22}" y2="${y - 4}" stroke="${s.style.colour}" stroke-width="2"${dashAttr(s.style)}/><text x="${x + 28}" y="${y}">${escapeXml(label)}</text></g>`;
  });
}

function extent(series: PlotSeries[]): [number, number, number, number] {
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const s of series)
    for (const [x, y] of s.points)
      [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)];
  return [x0, x1 > x0 ? x1 : x0 + HOUR_MS, y0, y1];
}

/** A series' line (thinned to the plot's pixel columns) and, for a series with markers or one point, its points. */
function seriesMarks(s: PlotSeries, px: (x: number) => number, py: (y: number) => number, width: number): string[] {
  const pts = thin(s.points, px, width);
  const d = pts.map(([x, y], k) => `${k ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join('');
  const out = [
    `<path d="${d}" fill="none" stroke="${s.style.colour}" stroke-width="1.5"${dashAttr(s.style)}><title>${escapeXml(s.label)}</title></path>`,
  ];
  if (s.markers || s.points.length === 1)
    for (const [x, y] of s.points)
      out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${s.style.colour}"/>`);
  return out;
}

/** Text in lines of at most `max` characters, broken at spaces (a longer word stays whole). */
export function wrapText(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** The first and last time of the data (the x extent pads a single time to an hour). */
function timeSpan(series: PlotSeries[]): [number, number] {
  let [x0, x1] = [Infinity, -Infinity];
  for (const s of series)
    if (s.points.length) [x0, x1] = [Math.min(x0, s.points[0][0]), Math.max(x1, s.points[s.points.length - 1][0])];
  return [x0, x1];
}

/** Lines over time: every series drawn and named in the legend; time in UTC, ISO dates and 24-hour times. */
export function svgTimeChart(spec: TimeChartSpec): string {
  const { title, yLabel, series, notes, width } = spec;
  return svgTimePanels({ title, notes, width, panels: [{ yLabel, series }] });
}

const PANEL_HEIGHT = 260;
const STACKED_HEIGHT = 170;
const PANEL_TITLE = 18;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The lowest and highest value of the series (0 and 1 when they have none). */
function valueExtent(series: PlotSeries[]): [number, number] {
  let [lo, hi] = [Infinity, -Infinity];
  for (const s of series) for (const [, y] of s.points) [lo, hi] = [Math.min(lo, y), Math.max(hi, y)];
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** A value scale over the series: nice ticks and the y pixel of a value in the box. */
function valueScale(series: PlotSeries[], box: Box) {
  const { ticks, step } = niceTicks(...valueExtent(series));
  const [y0, y1] = [ticks[0], ticks[ticks.length - 1]];
  const py = (y: number) => box.bottom - ((y - y0) / (y1 - y0 || 1)) * (box.bottom - box.top);
  return { ticks, step, py, y0, y1 };
}

/** The bands inside the value range: a pale rect in the band's colour, its name at the right where it fits. */
function bandMarks(bands: ValueBand[], box: Box, scale: ReturnType<typeof valueScale>): string[] {
  const out: string[] = [];
  for (const b of bands) {
    const [lo, hi] = [Math.max(b.from, scale.y0), Math.min(b.to, scale.y1)];
    if (!(hi > lo)) continue;
    const [yTop, yBottom] = [scale.py(hi), scale.py(lo)];
    out.push(
      `<rect class="band" x="${box.left}" y="${yTop.toFixed(1)}" width="${box.right - box.left}" height="${(yBottom - yTop).toFixed(1)}" fill="${b.colour}" fill-opacity="0.2"><title>${escapeXml(`${b.label}: ${b.from}–${b.to}`)}</title></rect>`,
    );
    if (yBottom - yTop >= 11)
      out.push(
        `<text class="band-label" x="${box.right - 4}" y="${(yTop + 10).toFixed(1)}" text-anchor="end" font-size="9" fill="#444">${escapeXml(b.label)}</text>`,
      );
  }
  return out;
}

/** A second value axis on the right of the box: tick labels and the rotated label at the drawing's edge. */
function rightAxis(series: PlotSeries[], box: Box, label: string, width: number) {
  const scale = valueScale(series, box);
  const out = scale.ticks.map(
    (v) =>
      `<text x="${box.right + 4}" y="${(scale.py(v) + 4).toFixed(1)}" text-anchor="start">${tickText(v, scale.step)}</text>`,
  );
  const mid = (box.top + box.bottom) / 2;
  out.push(
    `<text transform="translate(${width - 8} ${mid.toFixed(1)}) rotate(90)" text-anchor="middle">${escapeXml(label)}</text>`,
  );
  return { scale, marks: out };
}

/** One panel: its bands, value axes, time tick marks, frame and lines. */
function panelMarks(panel: TimePanel, box: Box, px: (x: number) => number, ticks: number[], width: number): string[] {
  const scale = valueScale(panel.series, box);
  const out = [
    ...bandMarks(panel.bands ?? [], box, scale),
    ...valueAxis(scale.ticks, scale.step, scale.py, box.left, box.right, panel.yLabel),
    ...ticks.map(
      (t) =>
        `<line x1="${px(t).toFixed(1)}" y1="${box.bottom}" x2="${px(t).toFixed(1)}" y2="${box.bottom + 4}" stroke="#888"/>`,
    ),
    `<rect x="${box.left}" y="${box.top}" width="${box.right - box.left}" height="${box.bottom - box.top}" fill="none" stroke="#888"/>`,
  ];
  for (const s of panel.series) out.push(...seriesMarks(s, px, scale.py, box.right - box.left));
  if (panel.right) {
    const right = rightAxis(panel.right.series, box, panel.right.yLabel, width);
    out.push(...right.marks);
    for (const s of panel.right.series) out.push(...seriesMarks(s, px, right.scale.py, box.right - box.left));
  }
  return out;
}

/** The time axis under the last panel: tick labels in the zone's clock (the date where it changes), its title. */
function timeAxisMarks(spec: PanelChartSpec, box: Box, px: (x: number) => number, ticks: number[], span: number[]) {
  const zone = spec.zone ?? UTC;
  const out: string[] = [];
  // Ticks on local midnights only (a step of days) are labelled by their dates alone, as the on-screen chart.
  const datesOnly = ticks.length > 1 && ticks.every((t) => formatInZone(t, zone, 'time') === '00:00');
  let lastDay = '';
  for (const t of ticks) {
    const [day, time] = [formatInZone(t, zone, 'date'), formatInZone(t, zone, 'time')];
    const x = px(t);
    // A label at the plot's right edge ends there, inside the drawing.
    const anchor = x > box.right - 32 ? 'end' : 'middle';
    const at = `x="${x.toFixed(1)}" text-anchor="${anchor}"`;
    if (!datesOnly) out.push(`<text ${at} y="${box.bottom + 15}">${time}</text>`);
    if (day !== lastDay) out.push(`<text ${at} y="${box.bottom + (datesOnly ? 15 : 27)}">${day}</text>`);
    lastDay = day;
  }
  // The zone named once, with the data's time range (a long title keeps the top line to itself).
  const title = timeAxisTitle(spec.frequency ?? 'minute', zone);
  out.push(
    `<text class="time-axis" x="${box.right}" y="${box.bottom + 40}" text-anchor="end">${escapeXml(title)}, data <tspan class="time-range">${timeRangeText(span[0], span[1], zone, false)}</tspan></text>`,
  );
  return out;
}

/** The key of the bands (each its colour and name) under the legend: a row of text, then the bands in columns. */
function bandKey(spec: PanelChartSpec, top: number, width: number): string[] {
  const bands = [...new Map(spec.panels.flatMap((p) => p.bands ?? []).map((b) => [b.label, b])).values()];
  if (!bands.length) return [];
  const perRow = Math.max(1, Math.floor((width - PAD.left) / LEGEND_COLUMN));
  const out = [`<text x="${PAD.left}" y="${top}">${escapeXml(spec.bandsName ?? 'Bands')}:</text>`];
  bands.forEach((b, i) => {
    const x = PAD.left + (i % perRow) * LEGEND_COLUMN;
    const y = top + (1 + Math.floor(i / perRow)) * LEGEND_ROW;
    out.push(
      `<g class="band-key"><rect x="${x}" y="${y - 9}" width="22" height="10" fill="${b.colour}" fill-opacity="0.35" stroke="#888"/><text x="${x + 28}" y="${y}">${escapeXml(b.label)}</text></g>`,
    );
  });
  return out;
}

/**
 * Panels stacked on one time axis (each its own value axis and unit, the first with an optional right axis), the
 * time in the zone (ISO dates, 24-hour times, the zone named once), every line named once in the legend.
 */
export function svgTimePanels(spec: PanelChartSpec): string {
  const width = spec.width ?? 760;
  const stacked = spec.panels.length > 1;
  const all = spec.panels.flatMap((p) => [...p.series, ...(p.right?.series ?? [])]);
  const [x0, x1] = extent(all);
  const [left, right] = [PAD.left, width - (spec.panels.some((p) => p.right) ? PAD.left : PAD.right)];
  const px = (x: number) => left + ((x - x0) / (x1 - x0)) * (right - left);
  const ticks = timeTicks(x0, x1, 8, spec.zone);
  const out: string[] = [`<text x="${left}" y="16" font-weight="bold">${escapeXml(spec.title)}</text>`];
  let top = PAD.top;
  for (const panel of spec.panels) {
    if (stacked && panel.title) {
      out.push(`<text class="panel-title" x="${left}" y="${top + 12}">${escapeXml(panel.title)}</text>`);
      top += PANEL_TITLE;
    }
    const box = { left, right, top, bottom: top + (stacked ? STACKED_HEIGHT : PANEL_HEIGHT) };
    out.push(...panelMarks(panel, box, px, ticks, width));
    top = box.bottom + (stacked ? 8 : 0);
  }
  const bottom = top - (stacked ? 8 : 0);
  out.push(...timeAxisMarks(spec, { left, right, top: PAD.top, bottom }, px, ticks, timeSpan(all)));
  const legendSeries = [...new Map(all.map((s) => [s.label, s])).values()];
  const legendTop = bottom + PAD.bottom + 4;
  const perRow = Math.max(1, Math.floor((width - PAD.left) / LEGEND_COLUMN));
  const legendRows = Math.ceil(legendSeries.length / perRow);
  const key = bandKey(spec, legendTop + legendRows * LEGEND_ROW, width);
  const keyRows = key.length ? 1 + Math.ceil((key.length - 1) / perRow) : 0;
  // About 6 px a character at 11 px sans-serif: notes wrap at the plot's width.
  const notes = (spec.notes ?? []).flatMap((n) => wrapText(n, Math.floor((width - PAD.left - PAD.right) / 6)));
  const notesTop = legendTop + (legendRows + keyRows) * LEGEND_ROW;
  out.push(...legend(legendSeries, legendTop, width), ...key);
  out.push(...notes.map((n, k) => `<text x="${left}" y="${notesTop + k * LEGEND_ROW}">${escapeXml(n)}</text>`));
  const height = notesTop + notes.length * LEGEND_ROW + 2;
  return [svgOpen(width, Math.ceil(height), spec.title), ...out, '</svg>'].join('\n');
}

/** The part of y = slope·x + intercept inside the square [v0, v1]², as [xa, ya, xb, yb]; undefined outside. */
function fitSegment(fit: { slope: number; intercept: number }, v0: number, v1: number): number[] | undefined {
  const { slope: m, intercept: b } = fit;
  if (!Number.isFinite(m) || !Number.isFinite(b)) return undefined;
  let [xa, xb] = [v0, v1];
  if (m !== 0) {
    const [xLo, xHi] = [(v0 - b) / m, (v1 - b) / m].sort((p, q) => p - q);
    [xa, xb] = [Math.max(v0, xLo), Math.min(v1, xHi)];
  } else if (b < v0 || b > v1) return undefined;
  return xa < xb ? [xa, m * xa + b, xb, m * xb + b] : undefined;
}

/** The scatter's key (points, the fitted line, 1:1) and the data's time range, one line each under the plot. */
function scatterKey(spec: ScatterSpec, n: number, top: number): string[] {
  const x = PAD.left;
  const colours = SCATTER_COLOURS;
  const row = (k: number) => top + k * LEGEND_ROW;
  const fitText = spec.fit
    ? `fit y = ${Number(spec.fit.slope.toPrecision(4))}·x ${spec.fit.intercept < 0 ? '−' : '+'} ${Number(Math.abs(spec.fit.intercept).toPrecision(4))}`
    : '';
  const out = [
    `<circle cx="${x + 11}" cy="${row(0) - 4}" r="2.2" fill="${colours.points}"/><text x="${x + 28}" y="${row(0)}">${n} pairs</text>`,
    `<line x1="${x}" y1="${row(1) - 4}" x2="${x + 22}" y2="${row(1) - 4}" stroke="#999" stroke-dasharray="4 3"/><text x="${x + 28}" y="${row(1)}">1:1</text>`,
  ];
  if (fitText)
    out.push(
      `<line x1="${x}" y1="${row(2) - 4}" x2="${x + 22}" y2="${row(2) - 4}" stroke="${colours.fit}" stroke-width="1.5"/><text x="${x + 28}" y="${row(2)}">${escapeXml(fitText)}</text>`,
    );
  const t = spec.times;
  if (t?.length) {
    let [t0, t1] = [Infinity, -Infinity];
    for (let i = 0; i < t.length; i++) [t0, t1] = [Math.min(t0, t[i]), Math.max(t1, t[i])];
    out.push(`<text x="${x}" y="${row(out.length)}" class="time-range">${timeRangeText(t0, t1)}</text>`);
  }
  return out;
}

/** A square scatter with equal scales on both axes, the 1:1 line (dashed grey), the fitted line and their key. */
export function svgScatter(spec: ScatterSpec): string {
  const size = spec.size ?? 360;
  const colours = SCATTER_COLOURS;
  const n = Math.min(spec.x.length, spec.y.length);
  let [lo, hi] = [Infinity, -Infinity];
  for (let i = 0; i < n; i++) [lo, hi] = [Math.min(lo, spec.x[i], spec.y[i]), Math.max(hi, spec.x[i], spec.y[i])];
  if (!(lo <= hi)) [lo, hi] = [0, 1];
  const { ticks, step } = niceTicks(Math.min(0, lo), hi);
  const [v0, v1] = [ticks[0], ticks[ticks.length - 1]];
  const [left, top] = [PAD.left, PAD.top];
  const side = size - PAD.left - PAD.right;
  const px = (v: number) => left + ((v - v0) / (v1 - v0)) * side;
  const py = (v: number) => top + side - ((v - v0) / (v1 - v0)) * side;
  const key = scatterKey(spec, n, top + side + PAD.bottom + 8);
  const out = [
    svgOpen(size, top + side + PAD.bottom + key.length * LEGEND_ROW + 6, spec.title),
    `<text x="${left}" y="16" font-weight="bold">${escapeXml(spec.title)}</text>`,
    ...valueAxis(ticks, step, py, left, left + side, spec.yLabel),
    ...ticks.map(
      (v) => `<text x="${px(v).toFixed(1)}" y="${top + side + 15}" text-anchor="middle">${tickText(v, step)}</text>`,
    ),
    `<text x="${left + side / 2}" y="${top + side + 34}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`,
    `<rect x="${left}" y="${top}" width="${side}" height="${side}" fill="none" stroke="#888"/>`,
    `<line x1="${px(v0)}" y1="${py(v0)}" x2="${px(v1)}" y2="${py(v1)}" stroke="#999" stroke-dasharray="4 3"><title>1:1</title></line>`,
  ];
  for (let i = 0; i < n; i++)
    out.push(
      `<circle cx="${px(spec.x[i]).toFixed(1)}" cy="${py(spec.y[i]).toFixed(1)}" r="2.2" fill="${colours.points}" fill-opacity="0.55"/>`,
    );
  const seg = spec.fit && fitSegment(spec.fit, v0, v1);
  if (seg)
    out.push(
      `<line x1="${px(seg[0]).toFixed(1)}" y1="${py(seg[1]).toFixed(1)}" x2="${px(seg[2]).toFixed(1)}" y2="${py(seg[3]).toFixed(1)}" stroke="${colours.fit}" stroke-width="1.5"><title>fit</title></line>`,
    );
  out.push(...key);
  out.push('</svg>');
  return out.join('\n');
}
