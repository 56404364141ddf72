// Static SVG plots for exports (no script, nothing fetched, every text escaped): a time chart of lines
// (one style per line, a legend of every line, ISO 24-hour UTC time ticks, nice value ticks, the unit on the
// axis) and a scatter with equal axes, the 1:1 line and a fitted line. The notebook export's chart and the
// sensor evaluation report both draw with these.
import type { LineStyle } from '../../aq/line-styles';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../time/duration';
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

/** Time ticks on whole UTC steps (minutes, hours, days), at most `max` of them. */
export function timeTicks(x0: number, x1: number, max = 8): number[] {
  const step = TIME_STEPS.find((s) => (x1 - x0) / s <= max) ?? (x1 - x0) / max;
  const out: number[] = [];
  for (let t = Math.ceil(x0 / step) * step; t <= x1; t += step) out.push(t);
  return out.length ? out : [x0];
}

/** The data's time range as the chart's subtitle: "2026-11-25 00:00 – 2026-11-26 23:00 UTC". */
export function timeRangeText(x0: number, x1: number): string {
  const [a, b] = [isoParts(x0), isoParts(x1)];
  return `${a[0]} ${a[1]} – ${b[0]} ${b[1]} UTC`;
}

/** ISO 8601 UTC parts of a time: ["2026-11-25", "14:00"]. */
function isoParts(ms: number): [string, string] {
  const iso = new Date(ms).toISOString();
  return [iso.slice(0, 10), iso.slice(11, 16)];
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
    const label = s.label.length > 26 ? `${s.label.slice(0, 25)}…` : s.label;
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
  const width = spec.width ?? 760;
  const plotH = 260;
  const perRow = Math.max(1, Math.floor((width - PAD.left) / LEGEND_COLUMN));
  const legendRows = Math.ceil(spec.series.length / perRow);
  // About 6 px a character at 11 px sans-serif: notes wrap at the plot's width.
  const notes = (spec.notes ?? []).flatMap((n) => wrapText(n, Math.floor((width - PAD.left - PAD.right) / 6)));
  const height = PAD.top + plotH + PAD.bottom + (legendRows + notes.length) * LEGEND_ROW + 6;
  const [x0, x1, lo, hi] = extent(spec.series);
  const [first, last] = timeSpan(spec.series);
  const { ticks, step } = niceTicks(lo, hi);
  const [y0, y1] = [ticks[0], ticks[ticks.length - 1]];
  const [left, right, top, bottom] = [PAD.left, width - PAD.right, PAD.top, PAD.top + plotH];
  const px = (x: number) => left + ((x - x0) / (x1 - x0)) * (right - left);
  const py = (y: number) => bottom - ((y - y0) / (y1 - y0 || 1)) * (bottom - top);
  const out = [
    svgOpen(width, height, spec.title),
    `<text x="${left}" y="16" font-weight="bold">${escapeXml(spec.title)}</text>`,
    ...valueAxis(ticks, step, py, left, right, spec.yLabel),
  ];
  let lastDay = '';
  for (const t of timeTicks(x0, x1)) {
    const [day, time] = isoParts(t);
    const x = px(t).toFixed(1);
    out.push(`<line x1="${x}" y1="${bottom}" x2="${x}" y2="${bottom + 4}" stroke="#888"/>`);
    out.push(`<text x="${x}" y="${bottom + 15}" text-anchor="middle">${time}</text>`);
    if (day !== lastDay) out.push(`<text x="${x}" y="${bottom + 27}" text-anchor="middle">${day}</text>`);
    lastDay = day;
  }
  // The data's time range on the time axis' line (a long title keeps the top line to itself).
  out.push(
    `<text x="${right}" y="${bottom + 40}" text-anchor="end">time (UTC), data <tspan class="time-range">${timeRangeText(first, last)}</tspan></text>`,
  );
  out.push(`<rect x="${left}" y="${top}" width="${right - left}" height="${plotH}" fill="none" stroke="#888"/>`);
  for (const s of spec.series) out.push(...seriesMarks(s, px, py, right - left));
  out.push(...legend(spec.series, bottom + PAD.bottom + 4, width));
  const notesTop = bottom + PAD.bottom + 4 + legendRows * LEGEND_ROW;
  out.push(...notes.map((n, k) => `<text x="${left}" y="${notesTop + k * LEGEND_ROW}">${escapeXml(n)}</text>`));
  out.push('</svg>');
  return out.join('\n');
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
  const row = (k: number) => top + k * LEGEND_ROW;
  const fitText = spec.fit
    ? `fit y = ${Number(spec.fit.slope.toPrecision(4))}·x ${spec.fit.intercept < 0 ? '−' : '+'} ${Number(Math.abs(spec.fit.intercept).toPrecision(4))}`
    : '';
  const out = [
    `<circle cx="${x + 11}" cy="${row(0) - 4}" r="2.2" fill="#1f77b4"/><text x="${x + 28}" y="${row(0)}">${n} pairs</text>`,
    `<line x1="${x}" y1="${row(1) - 4}" x2="${x + 22}" y2="${row(1) - 4}" stroke="#999" stroke-dasharray="4 3"/><text x="${x + 28}" y="${row(1)}">1:1</text>`,
  ];
  if (fitText)
    out.push(
      `<line x1="${x}" y1="${row(2) - 4}" x2="${x + 22}" y2="${row(2) - 4}" stroke="#3f51b5" stroke-width="1.5"/><text x="${x + 28}" y="${row(2)}">${escapeXml(fitText)}</text>`,
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
      `<circle cx="${px(spec.x[i]).toFixed(1)}" cy="${py(spec.y[i]).toFixed(1)}" r="2.2" fill="#1f77b4" fill-opacity="0.55"/>`,
    );
  const seg = spec.fit && fitSegment(spec.fit, v0, v1);
  if (seg)
    out.push(
      `<line x1="${px(seg[0]).toFixed(1)}" y1="${py(seg[1]).toFixed(1)}" x2="${px(seg[2]).toFixed(1)}" y2="${py(seg[3]).toFixed(1)}" stroke="#3f51b5" stroke-width="1.5"><title>fit</title></line>`,
    );
  out.push(...key);
  out.push('</svg>');
  return out.join('\n');
}
