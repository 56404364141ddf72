// json-long: {"request": ..., "data": [metric objects, newest first], "locations": [...]}, written as it goes.
import type { LocationEntry } from '../../core/api/types';
import type { CompiledMetric, RowValues } from '../aggregates';
import { MINUTE_MS } from '../clock';
import { hasMeasurement, measuredAt, OOB_FLAG } from '../generator';
import type { RowWriter } from '../rows';
import { type Datasource, statusesAt } from '../world';
import { decimal2 } from './columns';

interface JsonLongOptions {
  request: Record<string, unknown>;
  qcAssessment: boolean;
  qcFlags: boolean;
  locationDecimals: number;
  /** Continuation replies with nothing new leave `locations` out (SERVICE-FACTS). */
  omitEmptyLocations: boolean;
  seed: number;
  periodMs: number;
}

export class JsonLongWriter implements RowWriter {
  private first = true;
  private lastTime = Number.NaN;
  private lastTimeText = '';
  /** Per datasource seen: the oldest and newest period start written. */
  private readonly seen = new Map<Datasource, [number, number]>();
  private readonly suffixes: string[];

  constructor(
    private readonly metrics: readonly CompiledMetric[],
    private readonly options: JsonLongOptions,
  ) {
    this.suffixes = metrics.map((m) => `,"metric":${JSON.stringify(m.def.label)}`);
  }

  header(): string {
    return `{"request":${JSON.stringify(this.options.request)},"data":[`;
  }

  get shape(): string {
    const o = this.options;
    return `json|${o.qcAssessment}|${o.qcFlags}|${this.metrics.map((m) => m.def.label).join(',')}`;
  }

  /** The row's metric objects, comma-separated (no leading comma). */
  row(ds: Datasource, start: number, v: RowValues): string {
    if (this.options.periodMs === MINUTE_MS) {
      this.lastTimeText = new Date(measuredAt(ds, start / MINUTE_MS)).toISOString();
    } else if (start !== this.lastTime) {
      this.lastTime = start;
      this.lastTimeText = new Date(start).toISOString();
    }
    const head = `{"datasourceId":"${ds.id}","time":"${this.lastTimeText}","status":"`;
    const statuses = statusesAt(ds, start);
    let out = '';
    for (let j = 0; j < this.metrics.length; j++) {
      const raw = v.raw[j];
      if (Number.isNaN(raw)) continue;
      const m = this.metrics[j];
      const isIndex = m.aqi !== undefined;
      const value = v.value[j];
      const valueText = Number.isNaN(value) ? 'null' : isIndex ? String(value) : decimal2(value);
      out += `${out ? ',' : ''}${head}${statuses[m.q]}","value":${valueText},"raw":${isIndex ? raw : decimal2(raw)}${this.suffixes[j]}`;
      if (this.options.qcAssessment) out += v.invalid[j] ? ',"qcAssessment":"invalid"' : ',"qcAssessment":"valid"';
      if (this.options.qcFlags) out += v.invalid[j] ? `,"qcFlags":["${OOB_FLAG}"]` : ',"qcFlags":[]';
      out += '}';
    }
    return out;
  }

  emit(ds: Datasource, start: number, text: string): string {
    const range = this.seen.get(ds);
    if (range) {
      if (start < range[0]) range[0] = start;
      if (start > range[1]) range[1] = start;
    } else this.seen.set(ds, [start, start]);
    if (this.first) {
      this.first = false;
      return text;
    }
    return `,${text}`;
  }

  footer(): string {
    const locations = this.locations();
    if (locations.length === 0 && this.options.omitEmptyLocations) return ']}';
    return `],"locations":${JSON.stringify(locations)}}`;
  }

  /** Each datasource's locations over the rows written; a later location carries changedAt. */
  private locations(): LocationEntry[] {
    const out: LocationEntry[] = [];
    const d = this.options.locationDecimals;
    const round = (x: number) => Number(x.toFixed(d));
    for (const [ds, [oldest, newest]] of this.seen) {
      const lastMoment = newest + this.options.periodMs - 1;
      const used = ds.locations.filter((l, i) => {
        const next = ds.locations[i + 1];
        return l.from <= lastMoment && (!next || next.from > oldest);
      });
      used.forEach((l, i) => {
        const entry: LocationEntry = { datasourceId: ds.id, lon: round(l.lon), lat: round(l.lat) };
        if (i > 0) entry.changedAt = new Date(firstMeasurementFrom(ds, l.from)).toISOString();
        out.push(entry);
      });
    }
    return out;
  }
}

/** The time of the first measurement at or after `t` (the datasource's gaps are skipped). */
function firstMeasurementFrom(ds: Datasource, t: number): number {
  let minute = Math.ceil(t / MINUTE_MS);
  for (let i = 0; i < 24 * 60 && !hasMeasurement(ds, minute); i++) minute++;
  return measuredAt(ds, minute);
}
