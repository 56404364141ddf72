// How cells look in the table: numbers, times in the one ISO-like 24-hour format in a zone (UTC or the
// notebook's IANA zone, never the machine's), status and QC values.
// Copy and save never use these strings; they use the core's cellText (full precision, ISO UTC).

import type { ResultInfo } from '../../core/notebook/renderer-protocol';
import { type Column, cellText, numberAt } from '../../core/table/table';
import { formatInZone, type Zone, zoneOrUtc } from '../../core/time/zone';

/** The time axis' title (core/time/zone: the renderer's chart and the exported images say it alike). */
export { timeAxisTitle } from '../../core/time/zone';

/** The zone times are shown in: UTC or the notebook's zone (core/time/zone). */
export type TimeZoneMode = Zone;

/** Numbers as their shortest exact text, except that long fractions are cut to 6 decimals for reading. */
export function formatNumber(v: number): string {
  if (Number.isNaN(v)) return '';
  if (Number.isInteger(v) || !Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  if (abs >= 1e15 || abs < 1e-6) return v.toExponential(6).replace(/\.?0+e/, 'e');
  const text = String(v);
  const dot = text.indexOf('.');
  return dot >= 0 && text.length - dot - 1 > 6 ? String(Number(v.toFixed(6))) : text;
}

/** `2026-11-21 15:04` in the zone (seconds and ms only when not zero; core/time/zone formatInZone). */
export function formatTime(ms: number, zone: TimeZoneMode): string {
  return Number.isNaN(ms) ? '' : formatInZone(ms, zone);
}

/** The zone an output's times are shown and its days counted in: ResultInfo.timeZone when good, else UTC. */
export function resultZone(info: ResultInfo | undefined): TimeZoneMode {
  const tz = info?.timeZone;
  return tz && typeof tz === 'object' ? zoneOrUtc(tz.name, tz.dayBoundary) : zoneOrUtc('UTC');
}

/** A time's zone as named once beside the times (a column header, an axis): "America/Denver", "UTC". */
export function zoneLabel(zone: TimeZoneMode): string {
  return zone.name;
}

export function formatFlags(flags: readonly string[]): string {
  return flags.join(', ');
}

/** The text shown in a cell. */
export function displayText(column: Column, row: number, mode: TimeZoneMode): string {
  switch (column.kind) {
    case 'number':
      return formatNumber(numberAt(column, row));
    case 'time':
      return formatTime(column.values[row], mode);
    case 'qcFlags': {
      const c = column.codes[row];
      return c < 0 ? '' : formatFlags(column.dict[c]);
    }
    default:
      return cellText(column, row);
  }
}

export function isRightAligned(column: Column): boolean {
  return column.kind === 'number';
}

/**
 * The time axis' tick labels (uPlot `values`; splits in seconds, `incrementSeconds` the tick spacing), in the one
 * format: days as `2026-11-25`; finer ticks as `14:00` (`14:00:30` under a minute), with the date on a second
 * line at the first tick and wherever the date changes. In the zone's clock time.
 */
export function timeTickLabels(splits: readonly number[], incrementSeconds: number, zone: TimeZoneMode): string[] {
  let lastDate = '';
  return splits.map((s) => {
    if (s == null || Number.isNaN(s)) return '';
    const ms = s * 1000;
    const date = formatInZone(ms, zone, 'date');
    if (incrementSeconds >= 86_400) return date;
    const parts = formatInZone(ms, zone, 'time');
    const time = incrementSeconds < 60 && parts.length === 5 ? `${parts}:00` : parts;
    const label = date !== lastDate ? `${time}\n${date}` : time;
    lastDate = date;
    return label;
  });
}

/** uPlot's ladder of time tick increments in seconds (its genTimeStuffs), from a second to a century. */
const TICK_INCREMENTS: readonly number[] = [
  ...[1, 5, 10, 15, 30],
  ...[1, 5, 10, 15, 30].map((m) => m * 60),
  ...[1, 2, 3, 4, 6, 8, 12].map((h) => h * 3600),
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15].map((d) => d * 86_400),
  ...[1, 2, 3, 4, 6].map((mo) => mo * 30 * 86_400),
  ...[1, 2, 5, 10, 25, 50, 100].map((y) => y * 365 * 86_400),
];

/**
 * The time axis's tick increments (seconds) for data of one value per `periodSeconds` (a minute, an hour, a day):
 * none finer than the period, so daily means get day ticks labelled with dates alone, hourly ones no minutes.
 */
export function timeTickIncrements(periodSeconds: number): number[] {
  return TICK_INCREMENTS.filter((i) => i >= periodSeconds);
}
