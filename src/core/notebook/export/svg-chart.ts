// A static SVG line chart of a result (the first metric over time, one line per datasource), for
// exports that must be readable without a script. Every text is escaped; nothing is fetched.
import { chartGroupColumn, chartMetricColumns, chartTimeColumn } from '../../table/chart-columns';
import { cellText, isNumeric, type NumericColumn, numberAt, type Table } from '../../table/table';
import { escapeXml } from './escape';

const W = 720;
const H = 260;
const PAD = { left: 56, right: 16, top: 28, bottom: 36 };
/** Colour-blind-safe qualitative palette (Okabe-Ito). */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];
const MAX_LINES = COLOURS.length;

function fmt(v: number): string {
  return Math.abs(v) >= 1000 || Number.isInteger(v) ? String(Math.round(v)) : v.toPrecision(3);
}

/** The chart as an `<svg>` element, or undefined when the table has no time axis or no metric. */
export function svgChart(table: Table): string | undefined {
  const t = chartTimeColumn(table);
  const [m] = chartMetricColumns(table);
  if (t < 0 || m === undefined || table.rowCount === 0) return undefined;
  const time = table.columns[t] as NumericColumn;
  const metric = table.columns[m] as NumericColumn;
  const g = chartGroupColumn(table);
  const group = g >= 0 && !isNumeric(table.columns[g]) ? table.columns[g] : undefined;
  const lines = new Map<string, Array<[number, number]>>();
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let r = 0; r < table.rowCount; r++) {
    const x = numberAt(time, r);
    const y = numberAt(metric, r);
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    const key = group ? cellText(group, r) || '(none)' : metric.name;
    let pts = lines.get(key);
    if (!pts) {
      if (lines.size >= MAX_LINES) continue;
      pts = [];
      lines.set(key, pts);
    }
    pts.push([x, y]);
    [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)];
  }
  if (lines.size === 0) return undefined;
  if (x1 === x0) x1 = x0 + 1;
  if (y1 === y0) y1 = y0 + 1;
  const px = (x: number) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - ((y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeXml(`${metric.name} over time`)}" font-family="sans-serif" font-size="11">`,
    `<text x="${PAD.left}" y="16" font-weight="bold">${escapeXml(metric.name)}</text>`,
    `<line x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}" stroke="#888"/>`,
    `<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}" stroke="#888"/>`,
    `<text x="${PAD.left - 4}" y="${PAD.top + 4}" text-anchor="end">${fmt(y1)}</text>`,
    `<text x="${PAD.left - 4}" y="${H - PAD.bottom}" text-anchor="end">${fmt(y0)}</text>`,
    `<text x="${PAD.left}" y="${H - PAD.bottom + 14}">${escapeXml(new Date(x0).toISOString().slice(0, 16))}Z</text>`,
    `<text x="${W - PAD.right}" y="${H - PAD.bottom + 14}" text-anchor="end">${escapeXml(new Date(x1).toISOString().slice(0, 16))}Z</text>`,
  ];
  let i = 0;
  for (const [key, pts] of lines) {
    pts.sort((a, b) => a[0] - b[0]);
    const colour = COLOURS[i % COLOURS.length];
    const d = pts.map(([x, y], k) => `${k ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join('');
    out.push(
      `<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.5"><title>${escapeXml(key)}</title></path>`,
    );
    // One legend row under the axis: at most 8 lines, 82 px each.
    const lx = PAD.left + i * 82;
    out.push(
      `<rect x="${lx}" y="${H - 10}" width="10" height="3" fill="${colour}"/><text x="${lx + 14}" y="${H - 6}">${escapeXml(key.slice(0, 11))}</text>`,
    );
    i++;
  }
  out.push('</svg>');
  return out.join('\n');
}
