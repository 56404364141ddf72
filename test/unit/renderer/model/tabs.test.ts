// The widget's tabs (model/tabs.ts) and what a table holds as the views ask it (model/table-shape.ts), on the
// service's minute csv-wide fixture and tables derived from it.
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { parseCsvWide } from '../../../../src/core/table/csv-read.node';
import type { Column, Table } from '../../../../src/core/table/table';
import { datasourceCount, hasCoordinates, hasMetrics, isTimeSeries } from '../../../../src/renderer/model/table-shape';
import { keptTab, offeredTabs, TABLE_TAB, type TabView } from '../../../../src/renderer/model/tabs';

const FIXTURE = join(__dirname, '../../../fixtures/real-minute-csv-wide-qc.csv');

const view = (name: string, applies: (t: Table) => boolean): TabView => ({ name, applies });

/** The table with its datasource column's codes replaced (a second datasource, or empty cells). */
function withDatasources(table: Table, dict: string[], codes: number[]): Table {
  const id: Column = { name: 'datasourceId', kind: 'identifier', dict, codes: Int32Array.from(codes) };
  const columns = table.columns.map((c) => (c.name === 'datasourceId' ? id : c));
  return { ...table, columns };
}

describe('renderer tabs', () => {
  it('the rows first, then the views that apply in the registry order; none beside the rows for a derived table', () => {
    const t: Table = { columns: [], rowCount: 0 };
    const views = [view('b', () => true), view('a', () => false), view('c', () => true)];
    assert.deepEqual(offeredTabs(t, views), [TABLE_TAB, 'b', 'c']);
    assert.deepEqual(offeredTabs(t, views, true), [TABLE_TAB]);
  });

  it('keeps the tab shown while it is offered, else goes back to the rows', () => {
    assert.equal(keptTab('map', ['table', 'chart', 'map']), 'map');
    assert.equal(keptTab('map', ['table', 'chart']), TABLE_TAB);
    assert.equal(keptTab(TABLE_TAB, [TABLE_TAB]), TABLE_TAB);
  });
});

describe('renderer table shape (what the views ask of a table)', () => {
  let fixture: Table;
  before(async () => {
    fixture = await parseCsvWide(createReadStream(FIXTURE));
  });

  it('the fixture: 3 minutes of one datasource with its location: a time series with coordinates', () => {
    assert.equal(fixture.rowCount, 3);
    assert.ok(hasMetrics(fixture) && isTimeSeries(fixture) && hasCoordinates(fixture));
    assert.equal(datasourceCount(fixture), 1);
  });

  it('one row is no series and nothing to summarise', () => {
    const one = { ...fixture, rowCount: 1 };
    assert.ok(!hasMetrics(one) && !isTimeSeries(one));
  });

  it('counts distinct datasources in the rows (not dictionary entries), stopping at `atMost`', () => {
    assert.equal(datasourceCount(withDatasources(fixture, ['A', 'B', 'UNUSED'], [0, 1, 0])), 2);
    assert.equal(datasourceCount(withDatasources(fixture, ['A', 'B'], [0, 0, 0])), 1);
    assert.equal(datasourceCount(withDatasources(fixture, ['A', 'B', 'C'], [0, 1, 2]), 2), 2);
    // An empty cell counts as one more value ("(none)", as the chart's lines do).
    assert.equal(datasourceCount(withDatasources(fixture, ['A'], [0, -1, 0])), 2);
  });

  it('coordinates only when some row has both, and there is a datasource to mark', () => {
    const blank = (name: string): Column => ({ name, kind: 'number', values: new Float64Array(3).fill(Number.NaN) });
    const noCoords = {
      ...fixture,
      columns: fixture.columns.map((c) =>
        c.name === 'locationLatitude' || c.name === 'locationLongitude' ? blank(c.name) : c,
      ),
    };
    assert.ok(!hasCoordinates(noCoords));
    const noIds = { ...fixture, columns: fixture.columns.filter((c) => c.kind !== 'identifier' && c.kind !== 'text') };
    assert.ok(!hasCoordinates(noIds));
  });
});
