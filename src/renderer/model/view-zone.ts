// How a view names the zone it counts days, hours and months in (the panel context's zone: the notebook's IANA
// zone, or UTC by the table's zone button; never the machine's).
import type { Zone } from '../../core/time/zone';

/** How a view names its zone in its note. */
export function zoneText(zone: Zone): string {
  return zone.isUtc ? 'UTC' : `local time (${zone.name})`;
}
