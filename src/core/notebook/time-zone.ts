// A notebook's time zone: an IANA name and a day boundary in its metadata (`timeZone`, `dayBoundary`), else the
// defaults (the extension's settings `measurements.timeZone` / `measurements.dayBoundary`; UTC and clock days).
// `measnb run --time-zone` and `--day-boundary` override both. Outputs carry it (ResultInfo.timeZone) so the
// renderer shows and counts their times in it; sql cells run with it as DuckDB's TimeZone.
import {
  checkDayBoundary,
  checkTimeZone,
  type DayBoundary,
  DEFAULT_DAY_BOUNDARY,
  DEFAULT_TIME_ZONE,
  TimeZoneError,
} from '../time/zone';
import type { NotebookMetadata } from './model';

export interface NotebookZone {
  /** An IANA name, checked (core/time/zone checkTimeZone). */
  name: string;
  dayBoundary: DayBoundary;
}

type Source = { timeZone?: unknown; dayBoundary?: unknown };

/** The first of the sources that names a value, checked; a TimeZoneError says which source was wrong. */
function pick<T>(
  key: keyof Source,
  sources: Array<[string, Source | undefined]>,
  check: (v: unknown) => T,
): T | undefined {
  for (const [where, source] of sources) {
    const v = source?.[key];
    if (v === undefined || v === null || v === '') continue;
    try {
      return check(v);
    } catch (e) {
      throw new TimeZoneError(`${where}: ${(e as Error).message}`);
    }
  }
  return undefined;
}

/**
 * The zone a notebook runs in: `override` (the CLI's flags) over the notebook's metadata over `defaults` (the
 * settings), then UTC with clock days. A bad value is a TimeZoneError naming where it came from.
 */
export function notebookZone(
  metadata: NotebookMetadata | Record<string, unknown> | undefined,
  defaults?: Source,
  override?: Source,
): NotebookZone {
  const sources: Array<[string, Source | undefined]> = [
    ['--time-zone / --day-boundary', override],
    ["the notebook's metadata", metadata as Source | undefined],
    ['the settings', defaults],
  ];
  return {
    name: pick('timeZone', sources, checkTimeZone) ?? DEFAULT_TIME_ZONE,
    dayBoundary: pick('dayBoundary', sources, checkDayBoundary) ?? DEFAULT_DAY_BOUNDARY,
  };
}
