// Values of command-line flags, read strictly: a bad value is a UsageError (exit code 2) naming the flag.
import { UsageError } from '../core/api/errors';
import { parseDuration } from '../core/time/duration';

/** An integer from min to max. */
export function integerFlag(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not '${text}'`);
  }
  return n;
}

/**
 * Milliseconds of a duration in the one grammar (`500ms`, `5s`, `1h30m`), not negative. A bare `0` is
 * zero (no unit needed); any other bare number is refused, since its unit would be a guess.
 */
export function durationFlag(name: string, text: string): number {
  const trimmed = text.trim();
  if (/^[+]?0+(\.0+)?$/.test(trimmed)) return 0;
  const d = parseDuration(trimmed);
  if ('error' in d) throw new UsageError(`--${name}: ${d.error}`);
  if (d.ms < 0) throw new UsageError(`--${name} cannot be negative: '${text}'`);
  return d.ms;
}
