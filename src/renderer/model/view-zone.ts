// The zone the air-quality views place days, hours and months in: what the table's time button shows (UTC, or the
// browser's IANA zone in 'local' mode) as a core/time Zone (offsets cached per day). When the panel context already
// gives a Zone (the notebook's zone), that zone.
import { UTC, type Zone, zoneOf } from '../../core/time/zone';
import type { TimeZoneMode } from './format';

export function viewZone(mode: TimeZoneMode | Zone): Zone {
  if (typeof mode !== 'string') return mode;
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
