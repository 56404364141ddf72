// A small result for chart tests: hourly rows of named metrics (canonical labels, so units and AQI bands are the
// catalogue's) for each datasource, row r at `t0 + floor(r / ids) hours`, datasource `ids[r % ids]`.
import { parseCanonicalLabel } from '../../../src/core/metrics/labels';
import type { Column, Table } from '../../../src/core/table/table';

const HOUR = 3_600_000;

export function hourlyMetrics(
  t0: number,
  ids: string[],
  hours: number,
  metrics: Record<string, (row: number) => number>,
): Table {
  const k = ids.length;
  const n = k * hours;
  const columns: Column[] = [
    { name: 'datasourceId', kind: 'identifier', dict: ids, codes: Int32Array.from({ length: n }, (_, r) => r % k) },
    { name: 'time', kind: 'time', values: Float64Array.from({ length: n }, (_, r) => t0 + Math.floor(r / k) * HOUR) },
  ];
  for (const [name, f] of Object.entries(metrics))
    columns.push({
      name,
      kind: 'number',
      values: Float64Array.from({ length: n }, (_, r) => f(r)),
      metric: parseCanonicalLabel(name),
    });
  return { columns, rowCount: n };
}
