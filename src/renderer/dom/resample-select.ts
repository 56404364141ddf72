// The chart's "Resample" choice: raw values, or hourly / daily means in the view's zone (core/aq/resample),
// computed from the rows the renderer holds (no new query).
import { RESAMPLE_PERIODS, type ResamplePeriod, resamplePeriodOf } from '../../core/aq/resample';
import type { Zone } from '../../core/time/zone';
import { zoneText } from '../model/view-zone';
import { h } from './h';

const LABELS: Record<ResamplePeriod, string> = { raw: 'Raw', hour: 'Hourly means', day: 'Daily means' };

/** A select of the periods, on the remembered one (raw when none). */
export function resampleSelect(remembered?: string): HTMLSelectElement {
  const select = h('select', { className: 'mt-resample', attrs: { 'aria-label': 'Resample' } });
  for (const p of RESAMPLE_PERIODS) {
    const opt = h('option', { text: LABELS[p] });
    opt.value = p;
    select.appendChild(opt);
  }
  select.value = resamplePeriodOf(remembered);
  return select;
}

/** The chart note's words for a period: e.g. "daily means in local time (America/Denver)"; "" for raw. */
export function resampleNote(period: ResamplePeriod, zone: Zone): string {
  return period === 'raw' ? '' : `${period === 'day' ? 'daily' : 'hourly'} means in ${zoneText(zone)}`;
}
