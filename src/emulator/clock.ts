// The emulator's clock. Tests move it (advance/set) instead of waiting, e.g. across UTC midnight.
import { parseDuration as parseCoreDuration } from '../core/time/duration';
import { isoToMs } from '../core/time/iso';

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
  return new OffsetClock(timeOptionMs(option, 'clock'));
}

/** Epoch ms of a time option (a Date, epoch ms, or ISO text read by core/time: zone-less is UTC). */
export function timeOptionMs(option: string | number | Date, what: string): number {
  const ms = option instanceof Date ? option.getTime() : typeof option === 'number' ? option : isoToMs(option);
  if (!Number.isFinite(ms)) throw new Error(`${what}: not a time: ${String(option)}`);
  return ms;
}

/** A duration in the one grammar of core/time ("500ms", "5s", "90m", "1h30m", "-1h"), or a number of ms. */
export function parseDuration(text: string | number): number {
  if (typeof text === 'number') {
    if (!Number.isFinite(text)) throw new Error(`not a duration: ${text}`);
    return text;
  }
  const d = parseCoreDuration(text.trim());
  if ('error' in d) throw new Error(`not a duration: ${text}`);
  return d.ms;
}

export { DAY_MS, HOUR_MS, MINUTE_MS } from '../core/time/duration';

export function floorTo(ms: number, unitMs: number): number {
  return Math.floor(ms / unitMs) * unitMs;
}
