// csv-wide: a header row, then one row per measurement (minute) or period (hour, day).

import { PERIOD_MS } from '../../core/api/types';
import { csvField, csvRow } from '../../core/table/csv-write';
import type { RowValues } from '../aggregates';
import { measuredAt, OOB_FLAG } from '../generator';
import type { RowWriter } from '../rows';
import type { Datasource } from '../world';
import * as world from '../world';
import { formatNumber, identifyingColumns, layoutShape, metricColumns, type WideLayout } from './columns';

// Bound once: under a CommonJS transform (tsx in tests) named imports are getters read on every use,
// which costs more than the work in these per-value loops.
const { locationAt, statusesAt } = world;

const FLAGS_CELL = csvField(JSON.stringify([OOB_FLAG]));
const NO_FLAGS_CELL = csvField('[]');

export class CsvWideWriter implements RowWriter {
  private readonly groups;
  private readonly periodMs: number;
  private lastTime = Number.NaN;
  private lastTimeText = '';

  constructor(
    private readonly layout: WideLayout,
    private readonly metrics: Parameters<typeof metricColumns>[1],
  ) {
    this.groups = metricColumns(layout, metrics);
    this.periodMs = PERIOD_MS[layout.frequency];
  }

  get shape(): string {
    return layoutShape(this.layout, this.metrics);
  }

  header(): string {
    const names = identifyingColumns(this.layout);
    for (const g of this.groups) {
      if (g.fields) for (const f of g.fields) names.push(f.name);
      else names.push(g.name);
    }
    return csvRow(names);
  }

  row(ds: Datasource, start: number, v: RowValues): string {
    if (this.layout.frequency === 'minute') {
      this.lastTimeText = new Date(measuredAt(ds, start / this.periodMs)).toISOString();
    } else if (start !== this.lastTime) {
      this.lastTime = start;
      this.lastTimeText = `${new Date(start).toISOString()},${new Date(start + this.periodMs).toISOString()}`;
    }
    const id = this.layout.idColumn === 'datasourceId' ? ds.id : ds.sourceId;
    const loc = locationAt(ds, start + this.periodMs - 1);
    const d = this.layout.locationDecimals;
    const statuses = statusesAt(ds, start);
    let line = `${id},${ds.sourceId},${ds.sourceType},${this.layout.frequency},${this.lastTimeText},${loc.lat.toFixed(d)},${loc.lon.toFixed(d)}`;
    for (const g of this.groups) {
      const j = g.index;
      const isIndex = g.metric.aqi !== undefined;
      const raw = v.raw[j];
      if (!g.fields) {
        line += `,${formatNumber(v.value[j], isIndex)}`;
        continue;
      }
      const empty = Number.isNaN(raw);
      for (const f of g.fields) {
        switch (f.field) {
          case 'qcAssessment':
            line += empty ? ',' : v.invalid[j] ? ',invalid' : ',valid';
            break;
          case 'qcFlags':
            line += empty ? ',' : v.invalid[j] ? `,${FLAGS_CELL}` : `,${NO_FLAGS_CELL}`;
            break;
          case 'raw':
            line += `,${formatNumber(raw, isIndex)}`;
            break;
          case 'status':
            line += empty ? ',' : `,${statuses[g.metric.q]}`;
            break;
          case 'value':
            line += `,${formatNumber(v.value[j], isIndex)}`;
            break;
        }
      }
    }
    return `${line}\n`;
  }

  footer(): string {
    return '';
  }
}
