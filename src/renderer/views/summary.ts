// The Summary view: per datasource × metric over the rows shown (count, completeness, min/mean/median/p98/max,
// QC-invalid values), a derived Table shown by the table widget (sort, filter, copy, save).
import { QUANTILE_DEFINITION } from '../../core/aq/stats';
import { floatValues } from '../../core/table/table';
import { h } from '../dom/h';
import { resultFrequency, summaryTable } from '../model/aq-views';
import { hasMetrics } from '../model/table-shape';
import type { NestedTable, Panel, PanelContext, ViewDefinition } from './view';

class SummaryPanel implements Panel {
  readonly element: HTMLElement;
  private readonly note = h('div', { className: 'mt-status mt-summary-note' });
  private readonly host = h('div', { className: 'mt-summary-table' });
  private nested?: NestedTable;

  constructor(private readonly ctx: PanelContext) {
    this.element = h('div', { className: 'mt-panel mt-summary' }, [this.note, this.host]);
  }

  draw(): void {
    const t0 = performance.now();
    const summary = summaryTable(this.ctx.table, this.ctx.rows());
    this.nested?.dispose();
    this.nested = this.ctx.nestedTable(summary, 'summary');
    this.host.appendChild(this.nested.element);
    const count = summary.columns.find((c) => c.name === 'count');
    let empty = 0;
    if (count?.kind === 'number') for (const v of floatValues(count)) if (v === 0) empty++;
    const noData = empty
      ? ` ${empty.toLocaleString('en-US')} ${empty === 1 ? 'row has' : 'rows have'} no data (count 0: no value of that metric in the rows shown, so no statistics; "no data" in the note column).`
      : '';
    this.note.textContent = `Per datasource × metric over the ${this.ctx.rows().length.toLocaleString('en-US')} rows shown; expected = ${resultFrequency(this.ctx.table)} periods from the first to the last time of the result; median and p98 by Hyndman–Fan type 7 (numpy's default) (computed in ${Math.round(performance.now() - t0)} ms).${noData}`;
    this.note.title = `Median and p98: ${QUANTILE_DEFINITION}`;
  }

  destroy(): void {
    this.nested?.dispose();
  }
}

export const summaryView: ViewDefinition = {
  name: 'summary',
  title: 'Summary',
  tooltip: `Per datasource × metric: count, completeness, min/mean/median/p98/max, QC-invalid values. Median and p98: ${QUANTILE_DEFINITION}`,
  applies: hasMetrics,
  create: (ctx) => new SummaryPanel(ctx),
};
