// Colours with an alpha, from any CSS colour form the views produce or the theme gives: #rgb, #rgba,
// #rrggbb, #rrggbbaa, rgb()/rgba() and hsl()/hsla() (comma or space syntax). Appending "33" to a colour only
// works for #rrggbb: an hsl() colour then becomes invalid and the canvas draws nothing (or white).

import { LINE_COLOURS, type LineStyle, lineStyles, type StyleSlots } from '../../core/aq/line-styles';
import { chartGroupColumn, lineLabels } from '../../core/table/chart-columns';
import type { Table } from '../../core/table/table';

/** [r, g, b] 0-255 of an hsl colour (h in degrees, s and l 0-1). */
function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255)) as [number, number, number];
}

function parseHex(hex: string): [number, number, number] | undefined {
  const x = hex.length === 3 || hex.length === 4 ? [...hex.slice(0, 3)].map((c) => c + c).join('') : hex.slice(0, 6);
  if (!/^[0-9a-f]{6}$/i.test(x) || ![3, 4, 6, 8].includes(hex.length)) return undefined;
  return [0, 2, 4].map((i) => Number.parseInt(x.slice(i, i + 2), 16)) as [number, number, number];
}

/** The numbers of a functional colour: "rgb(1, 2, 3)", "hsl(120 50% 40% / 0.5)" -> [1, 2, 3] / [120, 50, 40]. */
function functionArgs(text: string): number[] | undefined {
  const m = /^(?:rgba?|hsla?)\(([^)]*)\)$/i.exec(text);
  if (!m) return undefined;
  const parts = m[1]
    .split(/[\s,/]+/)
    .filter(Boolean)
    .slice(0, 3);
  const nums = parts.map((p) => Number.parseFloat(p.replace(/deg$/i, '')));
  return nums.length === 3 && nums.every((n) => Number.isFinite(n)) ? nums : undefined;
}

/** The colour as rgb components, or undefined when it is not one of the forms above. */
export function parseColour(colour: string): [number, number, number] | undefined {
  const c = colour.trim().toLowerCase();
  if (c.startsWith('#')) return parseHex(c.slice(1));
  const args = functionArgs(c);
  if (!args) return undefined;
  if (c.startsWith('rgb'))
    return args.map((v) => Math.max(0, Math.min(255, Math.round(v)))) as [number, number, number];
  const [h, s, l] = args;
  return hslToRgb(((h % 360) + 360) % 360, Math.max(0, Math.min(100, s)) / 100, Math.max(0, Math.min(100, l)) / 100);
}

/** The colour with the given alpha (0-1) as rgba(); a colour it cannot read becomes a neutral grey. */
export function withAlpha(colour: string, alpha: number): string {
  const [r, g, b] = parseColour(colour) ?? [128, 128, 128];
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** Line colours for `n` lines by position (views without datasource lines): core/aq/line-styles' palette. */
export function lineColours(n: number): string[] {
  return Array.from({ length: n }, (_, i) => LINE_COLOURS[i % LINE_COLOURS.length]);
}

/**
 * Each datasource's line style, the same in every chart and view of a result and in its exports: over every
 * value of the "Lines by" column in the rows (not only the lines drawn), so hiding lines keeps the others'; with
 * the connection's slots (ResultInfo.datasourceStyles, checked), the same in every result of the notebook.
 */
export function tableLineStyles(table: Table, groupCol: number, known?: StyleSlots): Map<string, LineStyle> {
  return lineStyles(lineLabels(table, groupCol), known);
}

/**
 * The style of each group a view draws (Profiles: its datasources by the chart's default "Lines by" column):
 * a datasource's chart style (tableLineStyles), so it is the same line in every view and its image; a group that
 * is no value of that column (a difference line, "(all)") takes the palette's colour of its place, solid.
 */
export function groupStyles(table: Table, groups: readonly string[], known?: StyleSlots): LineStyle[] {
  const styles = tableLineStyles(table, chartGroupColumn(table), known);
  const byPlace = lineColours(groups.length);
  return groups.map((g, i) => styles.get(g) ?? { colour: byPlace[i], dash: [] });
}

/** The colour of each group a view draws (groupStyles). */
export function groupColours(table: Table, groups: readonly string[], known?: StyleSlots): string[] {
  return groupStyles(table, groups, known).map((s) => s.colour);
}
