import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cellText } from '../../../../src/core/table/table';
import {
  buildChartData,
  chartGroupColumn,
  chartMetricColumns,
  chartTimeColumn,
} from '../../../../src/renderer/model/chart-series';
import { hasInvalidFlag, qcInvalidLookup, statusTone } from '../../../../src/renderer/model/qc';
import {
  clickSelect,
  emptySelection,
  selectAll,
  selectionSize,
  selectionToCsv,
} from '../../../../src/renderer/model/selection';
import { identityRows } from '../../../../src/renderer/model/sort';
import { HOSTILE_ID, syntheticTable } from '../../../support/synthetic-table';

describe('renderer selection and copy', () => {
  it('selects with click, ctrl-click and shift-click', () => {
    let s = clickSelect(emptySelection(), 5, 'replace');
    s = clickSelect(s, 9, 'extend');
    assert.deepEqual(s.ranges, [[5, 9]]);
    s = clickSelect(s, 7, 'toggle');
    assert.deepEqual(s.ranges, [
      [5, 6],
      [8, 9],
    ]);
    s = clickSelect(s, 7, 'toggle');
    assert.deepEqual(s.ranges, [[5, 9]]);
    assert.equal(selectionSize(selectAll(1_000_000)), 1_000_000);
  });

  it('copies the selected rows in view order as CSV with the header, hostile text quoted verbatim', () => {
    const t = syntheticTable(10, 5);
    const view = Uint32Array.from([3, 1, 2]);
    const csv = selectionToCsv(t, view, { ranges: [[0, 1]] });
    const lines = csv.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[0], t.columns.map((c) => c.name).join(','));
    assert.ok(lines[1].startsWith(`${HOSTILE_ID},`));
    assert.ok(lines[2].startsWith('D000001,'));
    assert.ok(lines[1].includes('2026-11-20T00:00:00.000Z'), 'times at full ISO precision');
  });
});

describe('renderer QC and status', () => {
  it('marks a value invalid through its metric qcAssessment column, and flags of severity I', () => {
    const t = syntheticTable(200, 5);
    const invalid = qcInvalidLookup(t);
    const value = t.columns.findIndex((c) => c.name === 'pm2_5ConcMassIndividual.value');
    const other = t.columns.findIndex((c) => c.name === 'no2ConcIndividual.value');
    const flags = t.columns.findIndex((c) => c.name === 'pm2_5ConcMassIndividual.qcFlags');
    assert.ok(invalid(value, 97));
    assert.ok(!invalid(value, 98));
    assert.ok(!invalid(other, 97), 'a metric without QC columns is never marked');
    assert.ok(invalid(flags, 97));
    assert.equal(cellText(t.columns[flags], 97), '["QC.I.OOB.001"]');
    assert.ok(hasInvalidFlag(['QC.I.OOB.001']) && !hasInvalidFlag(['QC.W.X.1']));
  });

  it('tones statuses, unknown ones neutral', () => {
    assert.equal(statusTone('sensor-ready'), 'ok');
    assert.equal(statusTone('calibration-missing'), 'warn');
    assert.equal(statusTone('something-new'), 'neutral');
  });
});

describe('renderer chart data and row selection', () => {
  it('builds one aligned series per datasource for a metric over time', () => {
    const t = syntheticTable(30, 3);
    const metric = chartMetricColumns(t);
    assert.ok(metric.every((i) => !/raw|latitude|longitude/i.test(t.columns[i].name)));
    const data = buildChartData(t, identityRows(30), metric[0], chartTimeColumn(t), chartGroupColumn(t));
    assert.equal(data.xs.length, 10);
    assert.deepEqual(
      data.series.map((s) => s.label),
      ['D000000', 'D000001', 'D000002'],
    );
    assert.ok(data.xs.every((x, i) => i === 0 || x > data.xs[i - 1]));
    assert.equal(data.series[1].values.length, 10);
  });

  it('draws at most the series cap and says how many were left out', () => {
    const t = syntheticTable(100, 50);
    const m = chartMetricColumns(t)[0];
    const data = buildChartData(t, identityRows(100), m, chartTimeColumn(t), chartGroupColumn(t), 10);
    assert.equal(data.series.length, 10);
    assert.equal(data.omittedSeries, 40);
  });
});

describe('renderer never parses data as HTML', () => {
  it('has no innerHTML, outerHTML, insertAdjacentHTML or document.write in the renderer sources', () => {
    const dir = path.resolve(__dirname, '../../../../src/renderer');
    const files = fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'));
    assert.ok(files.length > 5);
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      assert.doesNotMatch(text, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/, f);
    }
  });
});

describe('renderer chart data from typed passes', () => {
  it('rows in any order: times ascending, the later row at a time wins, QC-invalid marks and their count', () => {
    const t = syntheticTable(40, 4);
    const m = t.columns.findIndex((c) => c.name === 'pm2_5ConcMassIndividual.value');
    const rows = identityRows(40).reverse();
    const invalid = (r: number) => r % 3 === 0;
    const data = buildChartData(t, rows, m, chartTimeColumn(t), chartGroupColumn(t), undefined, {
      invalid,
      hideInvalid: false,
    });
    assert.ok(data.xs.every((x, i) => i === 0 || x > data.xs[i - 1]));
    assert.equal(data.xs.length, 10);
    const value = (t.columns[m] as { values: Float64Array }).values;
    // Row 4k+1 is datasource 1 at minute k.
    const d1 = data.series.findIndex((s) => s.label === 'D000001');
    assert.deepEqual(
      data.series[d1].values,
      Array.from({ length: 10 }, (_, k) => (Number.isNaN(value[4 * k + 1]) ? null : value[4 * k + 1])),
    );
    assert.deepEqual(
      data.invalid?.[d1],
      Array.from({ length: 10 }, (_, k) => (invalid(4 * k + 1) ? value[4 * k + 1] : null)),
    );
    assert.equal(data.invalidCount, [...rows].filter((r) => invalid(r) && !Number.isNaN(value[r])).length);
    const hidden = buildChartData(t, rows, m, chartTimeColumn(t), chartGroupColumn(t), undefined, {
      invalid,
      hideInvalid: true,
    });
    assert.equal(hidden.points, data.points - data.invalidCount);
    assert.ok(hidden.series[d1].values.every((v, k) => (invalid(4 * k + 1) ? v === null : true)));
  });
});
