// The zone the air-quality views place days, hours and months in: UTC, or the browser's IANA zone when the
// table shows local time (the table's UTC/Local button), as a core/time Zone (offsets cached per day).
import { UTC, type Zone, zoneOf } from '../../core/time/zone';
import type { TimeZoneMode } from './format';

export function viewZone(mode: TimeZoneMode): Zone {
  if (mode === 'utc') return UTC;
  try {
    return zoneOf(Intl.DateTimeFormat().resolvedOptions().timeZone);
  } catch {
    return UTC;
  }
}

/** How a view names its zone in its note. */
export function zoneText(zone: Zone): string {
  return zone.isUtc ? 'UTC' : `local time (${zone.name})`;
}
