// What the model computes from a cell's table as the workbench saved it in the .measnb file (the very rows
// the renderer showed): the Summary rows and a sensor-vs-reference collocation. Bundled by the e2e suite.
import fs from 'node:fs';
import { MIME, parseNotebook } from '../../../src/core/notebook';
import { cellText, isNumeric, numberAt, type Table } from '../../../src/core/table/table';
import { decodeTable } from '../../../src/core/table/wire';
import {
  collocation,
  groupRows,
  mapPoints,
  referenceDatasources,
  summaryTable,
} from '../../../src/renderer/model/aq-views';
import { identityRows } from '../../../src/renderer/model/sort';

function savedTable(file: string, cellIndex: number): Table {
  const cell = parseNotebook(fs.readFileSync(file, 'utf8')).cells[cellIndex];
  const item = cell?.outputs.flatMap((o) => o.items).find((i) => i.mime === MIME.table);
  if (!item) throw new Error(`cell ${cellIndex} of ${file} has no saved table output`);
  return decodeTable(item.data);
}

export function savedModel(file: string, cellIndex: number, metric: string) {
  const table = savedTable(file, cellIndex);
  const rows = identityRows(table.rowCount);
  const summary = summaryTable(table, rows);
  const metricCol = table.columns.findIndex((c) => c.name === metric);
  return {
    rowCount: table.rowCount,
    summaryRows: Array.from({ length: summary.rowCount }, (_, i) =>
      Object.fromEntries(summary.columns.map((c) => [c.name, isNumeric(c) ? numberAt(c, i) : cellText(c, i)])),
    ),
    references: [...referenceDatasources(table, rows)].sort(),
    /** Datasources in the rows (Profiles draws the first 12). */
    datasources: groupRows(table, rows).length,
    /** Datasources placed on the map (of the chosen metric: the NowCast). */
    mapPoints: mapPoints(table, rows, metricCol).length,
    /** EPA's 1-hour or 24-hour evaluation of the pair (the Collocation table's two columns). */
    collocation: (sensor: string, reference: string, averaging: 'hour' | 'day' = 'hour') => {
      const c = collocation(table, rows, metricCol, sensor, reference);
      return c && { ...c[averaging].fit, targets: c.targets[averaging] };
    },
  };
}
