// The Profiles view's image (openair's timeVariation): the hour-of-the-week panel across the top, then hour of day,
// month and weekday side by side; per line its mean and its band (the 95 % CI or the interquartile range) in the
// line's style, a legend of the lines, the unit, the band and zone in words and the data's time range.
import type { LineStyle } from '../../aq/line-styles';
import { escapeXml } from './escape';
import { niceTicks, timeRangeText } from './svg-plot';

interface ProfileLine {
  label: string;
  style: LineStyle;
  /** Per x (0 … n − 1): the mean and the band's high and low; null where there is no value. */
  mean: Array<number | null>;
  high: Array<number | null>;
  low: Array<number | null>;
}

export interface ProfilePanelSpec {
  title: string;
  /** The x axis' label of x, "" for none. */
  label: (x: number) => string;
  lines: ProfileLine[];
}

interface ProfilesSpec {
  title: string;
  unit: string;
  /** What the band is, the zone the hours are in (one line under the title). */
  subtitle: string;
  /** The first and last time (ms) of the rows profiled. */
  timeRange?: [number, number];
  /** The hour-of-the-week panel first (drawn across), then the three small ones. */
  panels: ProfilePanelSpec[];
}

const WIDTH = 900;
const GAP = 24;
const AXIS = 48;

function finite(values: Array<number | null>): number[] {
  return values.filter((v): v is number => v !== null && Number.isFinite(v));
}

/** A line through the values (a gap where there is none). */
function pathOf(values: Array<number | null>, px: (i: number) => number, py: (v: number) => number): string {
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) pen = false;
    else {
      d += `${pen ? 'L' : 'M'}${px(i).toFixed(1)},${py(v).toFixed(1)}`;
      pen = true;
    }
  });
  return d;
}

/** The band between low and high where both are known, as one polygon per run. */
function bandOf(line: ProfileLine, px: (i: number) => number, py: (v: number) => number): string[] {
  const out: string[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length > 1) {
      const upper = run.map((i) => `${px(i).toFixed(1)},${py(line.high[i]!).toFixed(1)}`);
      const lower = run.map((i) => `${px(i).toFixed(1)},${py(line.low[i]!).toFixed(1)}`).reverse();
      out.push(`<polygon points="${[...upper, ...lower].join(' ')}" fill="${line.style.colour}" fill-opacity="0.2"/>`);
    }
    run = [];
  };
  line.mean.forEach((_, i) => {
    if (line.high[i] !== null && line.low[i] !== null && Number.isFinite(line.high[i]! + line.low[i]!)) run.push(i);
    else flush();
  });
  flush();
  return out;
}

/** The x labels that fit: a label is left out when it would touch the last one drawn (~7 px a character). */
function xLabels(p: ProfilePanelSpec, n: number, px: (i: number) => number, y: number): string[] {
  const out: string[] = [];
  let lastRight = -Infinity;
  for (let i = 0; i < n; i++) {
    const label = p.label(i);
    const half = (label.length * 7) / 2 + 3;
    if (!label || px(i) - half < lastRight) continue;
    lastRight = px(i) + half;
    out.push(`<text x="${px(i).toFixed(1)}" y="${y}" text-anchor="middle">${escapeXml(label)}</text>`);
  }
  return out;
}

/** One panel at (x, y) of the given size: title, value axis with the unit, x labels, each line's band and mean. */
function panel(p: ProfilePanelSpec, unit: string, x: number, y: number, w: number, h: number): string[] {
  const n = Math.max(1, ...p.lines.map((l) => l.mean.length));
  const values = p.lines.flatMap((l) => [...finite(l.mean), ...finite(l.high), ...finite(l.low)]);
  const { ticks } = niceTicks(values.length ? Math.min(...values) : 0, values.length ? Math.max(...values) : 1, 4);
  const [v0, v1] = [ticks[0], ticks[ticks.length - 1]];
  // A right margin: the last x label is centred on the plot's edge.
  const [left, top, right, bottom] = [x + AXIS, y + 18, x + w - 14, y + h - 18];
  const px = (i: number) => left + (n > 1 ? (i / (n - 1)) * (right - left) : (right - left) / 2);
  const py = (v: number) => bottom - ((v - v0) / (v1 - v0 || 1)) * (bottom - top);
  const out = [`<text x="${x}" y="${y + 10}" font-weight="bold">${escapeXml(p.title)}</text>`];
  for (const t of ticks)
    out.push(
      `<line x1="${left}" y1="${py(t).toFixed(1)}" x2="${right}" y2="${py(t).toFixed(1)}" stroke="#e4e4e4"/><text x="${left - 4}" y="${(py(t) + 4).toFixed(1)}" text-anchor="end">${Number(t.toPrecision(6))}</text>`,
    );
  out.push(
    `<text transform="translate(${x + 10} ${((top + bottom) / 2).toFixed(1)}) rotate(-90)" text-anchor="middle">${escapeXml(unit)}</text>`,
    `<rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}" fill="none" stroke="#888"/>`,
  );
  out.push(...xLabels(p, n, px, bottom + 13));
  for (const l of p.lines) out.push(...bandOf(l, px, py));
  for (const l of p.lines) {
    const dash = l.style.dash.length ? ` stroke-dasharray="${l.style.dash.join(' ')}"` : '';
    out.push(
      `<path d="${pathOf(l.mean, px, py)}" fill="none" stroke="${l.style.colour}" stroke-width="1.5"${dash}><title>${escapeXml(l.label)}</title></path>`,
    );
    // Few buckets (months, weekdays): a mark at each mean, so a lone value (one month of data) shows too.
    if (n <= 12)
      l.mean.forEach((v, i) => {
        if (v !== null && Number.isFinite(v))
          out.push(`<circle cx="${px(i).toFixed(1)}" cy="${py(v).toFixed(1)}" r="2.5" fill="${l.style.colour}"/>`);
      });
  }
  return out;
}

/** The legend: each line's style and label, in columns. */
function profileLegend(lines: ProfileLine[], top: number): string[] {
  return lines.map((l, i) => {
    const [x, y] = [12 + (i % 4) * 220, top + Math.floor(i / 4) * 16];
    const dash = l.style.dash.length ? ` stroke-dasharray="${l.style.dash.join(' ')}"` : '';
    const label = l.label.length > 30 ? `${l.label.slice(0, 29)}…` : l.label;
    return `<g><title>${escapeXml(l.label)}</title><line x1="${x}" y1="${y - 4}" x2="${x + 22}" y2="${y - 4}" stroke="${l.style.colour}" stroke-width="2"${dash}/><text x="${x + 28}" y="${y}">${escapeXml(label)}</text></g>`;
  });
}

export function svgProfiles(spec: ProfilesSpec): string {
  const [wide, ...small] = spec.panels;
  const smallW = Math.floor((WIDTH - 24 - GAP * (small.length - 1)) / Math.max(1, small.length));
  const legendTop = 44 + 220 + 12 + 200 + 16;
  const lines = wide?.lines ?? [];
  const height = legendTop + Math.ceil(lines.length / 4) * 16 + 8;
  const range = spec.timeRange ? timeRangeText(...spec.timeRange) : '';
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeXml(spec.title)}" font-family="sans-serif" font-size="11" style="background:#fff">`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="12" y="16" font-weight="bold">${escapeXml(spec.title)}</text>`,
    `<text x="12" y="32">${escapeXml(spec.subtitle)}${range ? `; data <tspan class="time-range">${range}</tspan>` : ''}</text>`,
  ];
  if (wide) out.push(...panel(wide, spec.unit, 12, 44, WIDTH - 24, 220));
  small.forEach((p, i) => {
    out.push(...panel(p, spec.unit, 12 + i * (smallW + GAP), 44 + 220 + 12, smallW, 200));
  });
  out.push(...profileLegend(lines, legendTop), '</svg>');
  return out.join('\n');
}
