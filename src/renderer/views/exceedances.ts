// The Exceedances view: periods above a threshold per datasource (the threshold on the chart), a derived Table
// named by metric and threshold, shown by the table widget.
import { defaultThreshold } from '../../core/aq/metric-info';
import type { Column, Table } from '../../core/table/table';
import { ChartView } from '../dom/chart-view';
import { h } from '../dom/h';
import { metricSelectFor } from '../dom/metric-select';
import { type ExceedanceRow, exceedanceRows, unitOf } from '../model/aq-views';
import { isTimeSeries } from '../model/table-shape';
import type { NestedTable, Panel, PanelContext, ViewDefinition } from './view';

function numberCol(name: string, values: number[]): Column {
  return { name, kind: 'number', values: Float64Array.from(values) };
}
function timeCol(name: string, values: number[]): Column {
  return { name, kind: 'time', values: Float64Array.from(values) };
}
function idCol(name: string, values: string[]): Column {
  return { name, kind: 'identifier', dict: values, codes: Int32Array.from(values, (_, i) => i) };
}

/** The Exceedances table: per datasource, named by metric and threshold (so a saved copy says what it counted). */
function exceedanceTable(rows: ExceedanceRow[], metric: Column, threshold: number, includeInvalid: boolean): Table {
  const text = (name: string, value: string): Column => ({
    name,
    kind: 'text',
    dict: [value],
    codes: new Int32Array(rows.length),
  });
  return {
    columns: [
      idCol(
        'datasourceId',
        rows.map((r) => r.group),
      ),
      text('metric', metric.name),
      text('unit', unitOf(metric)),
      numberCol(
        'threshold (above)',
        rows.map(() => threshold),
      ),
      text('QC-invalid values', includeInvalid ? 'counted' : 'left out'),
      numberCol(
        'QC-invalid',
        rows.map((r) => r.invalid),
      ),
      numberCol(
        'periods with value',
        rows.map((r) => r.periodsWithValue),
      ),
      numberCol(
        'periods above',
        rows.map((r) => r.periods),
      ),
      numberCol(
        '% above',
        rows.map((r) => (r.periodsWithValue ? Math.round((1000 * r.periods) / r.periodsWithValue) / 10 : 0)),
      ),
      numberCol(
        'longest run (periods)',
        rows.map((r) => r.longestRun),
      ),
      timeCol(
        'longest run from',
        rows.map((r) => r.longestRunStart),
      ),
      timeCol(
        'first above',
        rows.map((r) => r.first),
      ),
      timeCol(
        'last above',
        rows.map((r) => r.last),
      ),
    ],
    rowCount: rows.length,
  };
}

class ExceedancesPanel implements Panel {
  readonly element: HTMLElement;
  private readonly thresholdInput: HTMLInputElement;
  private readonly includeInvalid = h('input', {
    className: 'mt-exceed-include-invalid',
    attrs: { type: 'checkbox', 'aria-label': 'Count QC-invalid values' },
  });
  private readonly chart: ChartView;
  private readonly host = h('div', { className: 'mt-exceed-table' });
  private nested?: NestedTable;

  constructor(private readonly ctx: PanelContext) {
    this.thresholdInput = h('input', {
      className: 'mt-threshold',
      attrs: { type: 'number', step: 'any', 'aria-label': 'Threshold' },
    });
    const initial = metricSelectFor(ctx.table, 'mt-unused');
    this.chart = new ChartView(ctx.table, ctx.rows, ctx.timeZone, {
      threshold: () => this.threshold(),
      metricCol: Number(initial.value),
      styleSlots: ctx.styleSlots,
      onMetricChange: (col) => {
        this.setDefaultThreshold(col);
        this.drawTable();
      },
    });
    this.setDefaultThreshold(this.chart.metricColumn);
    this.thresholdInput.addEventListener('change', () => this.draw());
    this.includeInvalid.addEventListener('change', () => this.drawTable());
    this.element = h('div', { className: 'mt-panel mt-exceedances' }, [
      h('div', { className: 'mt-toolbar' }, [
        h('label', { text: 'Above ' }),
        this.thresholdInput,
        h('span', { className: 'mt-status', text: 'strictly greater; default from the metric (EPA)' }),
        h(
          'label',
          {
            className: 'mt-qc-toggle',
            title: 'QC-invalid values are left out of the counts unless this is on',
          },
          [this.includeInvalid, h('span', { text: ' Count QC-invalid values' })],
        ),
      ]),
      this.chart.element,
      this.host,
    ]);
  }

  private threshold(): number | undefined {
    const v = this.thresholdInput.valueAsNumber;
    return Number.isNaN(v) ? undefined : v;
  }

  private setDefaultThreshold(col: number): void {
    const d = defaultThreshold(this.ctx.table.columns[col]?.metric);
    this.thresholdInput.value = d === undefined ? '' : String(d);
  }

  draw(): void {
    this.chart.draw();
    this.drawTable();
  }

  private drawTable(): void {
    this.nested?.dispose();
    this.nested = undefined;
    const threshold = this.threshold();
    if (threshold === undefined) {
      this.host.textContent = 'Enter a threshold.';
      return;
    }
    this.host.textContent = '';
    const col = this.chart.metricColumn;
    const include = this.includeInvalid.checked;
    const rows = exceedanceRows(this.ctx.table, this.ctx.rows(), col, threshold, include);
    const metric = this.ctx.table.columns[col];
    if (!metric) return;
    const table = exceedanceTable(rows, metric, threshold, include);
    this.nested = this.ctx.nestedTable(table, `exceedances of ${metric.name} above ${threshold}`);
    this.host.appendChild(this.nested.element);
  }

  destroy(): void {
    this.chart.destroy();
    this.nested?.dispose();
  }
}

export const exceedancesView: ViewDefinition = {
  name: 'exceedances',
  title: 'Exceedances',
  tooltip: 'Periods above a threshold per datasource, with the threshold on the chart',
  applies: isTimeSeries,
  create: (ctx) => new ExceedancesPanel(ctx),
};
