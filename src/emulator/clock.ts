// The emulator's clock. Tests move it (advance/set) instead of waiting, e.g. across UTC midnight.

export interface EmulatorClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Moves the clock forward (or back, with a negative value). */
  advance(ms: number): void;
  /** Jumps to an absolute time. */
  set(ms: number): void;
}

/** Real time plus an offset: flows like a wall clock, starting wherever it was set. */
export class OffsetClock implements EmulatorClock {
  private offset: number;
  constructor(start: number = Date.now()) {
    this.offset = start - Date.now();
  }
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
  set(ms: number): void {
    this.offset = ms - Date.now();
  }
}

/** A frozen clock that only moves when told to: fully deterministic tests. */
export class ManualClock implements EmulatorClock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

/** What startEmulator accepts as `clock`: a clock, or a start time for a flowing clock. */
export type ClockOption = EmulatorClock | string | number | Date;

export function toClock(option: ClockOption | undefined): EmulatorClock {
  if (option === undefined) return new OffsetClock();
  if (typeof option === 'object' && !(option instanceof Date)) return option;
  const ms = option instanceof Date ? option.getTime() : typeof option === 'number' ? option : Date.parse(option);
  if (!Number.isFinite(ms)) throw new Error(`clock: not a time: ${String(option)}`);
  return new OffsetClock(ms);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses durations such as "500ms", "5s", "90m", "25h", "2d" or "1h30m"; a bare number is milliseconds. */
export function parseDuration(text: string | number): number {
  if (typeof text === 'number') {
    if (!Number.isFinite(text)) throw new Error(`not a duration: ${text}`);
    return text;
  }
  const s = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  const sign = s.startsWith('-') ? -1 : 1;
  const body = s.replace(/^[-+]/, '');
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    consumed = re.lastIndex;
  }
  if (consumed === 0 || consumed !== body.length) throw new Error(`not a duration: ${text}`);
  return sign * total;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export function floorTo(ms: number, unitMs: number): number {
  return Math.floor(ms / unitMs) * unitMs;
}
