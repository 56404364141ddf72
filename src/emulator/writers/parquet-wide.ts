// parquet-wide: the csv-wide columns in a Parquet file (hyparquet-writer builds it in memory at the end,
// so report files in Parquet are bounded by the report's size, unlike the streamed csv.gz). The file is
// encoded one row group at a time with a turn of the event loop between groups: no single slice of a
// large report holds the emulator's other requests.
import { ByteWriter, parquetWrite } from 'hyparquet-writer';
import { PERIOD_MS } from '../../core/api/types';
import type { RowValues } from '../aggregates';
import { measuredAt, OOB_FLAG } from '../generator';
import { nextTurn, type RowWriter } from '../rows';
import type { Datasource } from '../world';
import * as world from '../world';
import { identifyingColumns, metricColumns, type WideLayout } from './columns';

// Bound once: under a CommonJS transform (tsx in tests) named imports are getters read on every use,
// which costs more than the work in these per-value loops.
const { locationAt, statusesAt } = world;

type Cell = string | number | null;

/** Rows per row group: one group is encoded in well under the emulator's slice bound (~100 ms). */
const ROW_GROUP_ROWS = 2_000;

/** A value as the file holds it: empty as null, AQI as is, concentrations to 2 decimals (as csv-wide). */
function cellNumber(x: number, aqi: unknown): number | null {
  if (Number.isNaN(x)) return null;
  return aqi ? x : Math.round(x * 100) / 100;
}

export class ParquetWideWriter implements RowWriter {
  private readonly groups;
  private readonly names: string[];
  private readonly columns: Cell[][];
  private readonly numeric: boolean[];
  private readonly periodMs: number;

  constructor(
    private readonly layout: WideLayout,
    metrics: Parameters<typeof metricColumns>[1],
  ) {
    this.groups = metricColumns(layout, metrics);
    this.periodMs = PERIOD_MS[layout.frequency];
    const ids = identifyingColumns(layout);
    this.names = [...ids];
    this.numeric = ids.map((_, i) => i >= ids.length - 2);
    for (const g of this.groups) {
      for (const f of g.fields ?? [{ field: 'value' as const, name: g.name }]) {
        this.names.push(f.name);
        this.numeric.push(f.field === 'raw' || f.field === 'value');
      }
    }
    this.columns = this.names.map(() => []);
  }

  header(): string {
    return '';
  }

  row(ds: Datasource, start: number, v: RowValues): string {
    const cols = this.columns;
    let c = 0;
    const loc = locationAt(ds, start + this.periodMs - 1);
    const d = this.layout.locationDecimals;
    cols[c++].push(this.layout.idColumn === 'datasourceId' ? ds.id : ds.sourceId);
    cols[c++].push(ds.sourceId);
    cols[c++].push(ds.sourceType);
    cols[c++].push(this.layout.frequency);
    cols[c++].push(
      new Date(this.layout.frequency === 'minute' ? measuredAt(ds, start / this.periodMs) : start).toISOString(),
    );
    if (this.layout.frequency !== 'minute') cols[c++].push(new Date(start + this.periodMs).toISOString());
    cols[c++].push(Number(loc.lat.toFixed(d)));
    cols[c++].push(Number(loc.lon.toFixed(d)));
    const statuses = statusesAt(ds, start);
    for (const g of this.groups) {
      const j = g.index;
      const raw = v.raw[j];
      const empty = Number.isNaN(raw);
      const aqi = g.metric.aqi;
      for (const f of g.fields ?? [{ field: 'value' as const }]) {
        switch (f.field) {
          case 'qcAssessment':
            cols[c++].push(empty ? null : v.invalid[j] ? 'invalid' : 'valid');
            break;
          case 'qcFlags':
            cols[c++].push(empty ? null : JSON.stringify(v.invalid[j] ? [OOB_FLAG] : []));
            break;
          case 'raw':
            cols[c++].push(cellNumber(raw, aqi));
            break;
          case 'status':
            cols[c++].push(empty ? null : statuses[g.metric.q]);
            break;
          case 'value':
            cols[c++].push(cellNumber(v.value[j], aqi));
            break;
        }
      }
    }
    return '';
  }

  async footer(): Promise<Uint8Array> {
    // hyparquet-writer awaits a writer's flush() between row groups.
    const writer = Object.assign(new ByteWriter(), { flush: nextTurn });
    await parquetWrite({
      writer,
      rowGroupSize: ROW_GROUP_ROWS,
      columnData: this.names.map((name, i) => ({
        name,
        data: this.columns[i],
        type: this.numeric[i] ? ('DOUBLE' as const) : ('STRING' as const),
      })),
    });
    return new Uint8Array(writer.getBuffer());
  }
}
