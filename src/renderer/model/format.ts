// How cells look in the table: numbers, times in UTC or local time, status and QC values.
// Copy and save never use these strings; they use the core's cellText (full precision, ISO UTC).
import { type Column, cellText, numberAt } from '../../core/table/table';

export type TimeZoneMode = 'utc' | 'local';

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

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

/** `2026-11-21 15:04:05` (UTC) or with the local offset `2026-11-21 16:04:05 +01:00`; ms only when not zero. */
export function formatTime(ms: number, mode: TimeZoneMode): string {
  if (Number.isNaN(ms)) return '';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const utc = mode === 'utc';
  const y = utc ? d.getUTCFullYear() : d.getFullYear();
  const mo = (utc ? d.getUTCMonth() : d.getMonth()) + 1;
  const day = utc ? d.getUTCDate() : d.getDate();
  const h = utc ? d.getUTCHours() : d.getHours();
  const mi = utc ? d.getUTCMinutes() : d.getMinutes();
  const s = utc ? d.getUTCSeconds() : d.getSeconds();
  const msPart = d.getUTCMilliseconds();
  let text = `${y}-${pad2(mo)}-${pad2(day)} ${pad2(h)}:${pad2(mi)}:${pad2(s)}`;
  if (msPart) text += `.${pad3(msPart)}`;
  if (!utc) {
    const off = -d.getTimezoneOffset();
    const sign = off < 0 ? '-' : '+';
    text += ` ${sign}${pad2(Math.floor(Math.abs(off) / 60))}:${pad2(Math.abs(off) % 60)}`;
  }
  return text;
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
