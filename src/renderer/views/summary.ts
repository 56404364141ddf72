// The Summary view: per datasource × metric over the rows shown (count, completeness, min/mean/median/p98/max,
// QC-invalid values), a derived Table shown by the table widget (sort, filter, copy, save).
import { QUANTILE_DEFINITION } from '../../core/aq/stats';
import { floatValues, type Table } from '../../core/table/table';
import { h } from '../dom/h';
import { resultFrequency, summaryFromFull, summaryPlan, summaryTable } from '../model/aq-views';
import { hasMetrics } from '../model/table-shape';
import type { NestedTable, Panel, PanelContext, ViewDefinition } from './view';

const fmt = (n: number) => n.toLocaleString('en-US');

/** Which rows a Summary of the rows shown covers: all, the first held (some still loading), or those filtered. */
export function coverText(shown: number, held: number, total: number, loading?: boolean): string {
  const part = loading
    ? `the first ${fmt(held)} rows loaded so far of ${fmt(total)} (more are arriving; the Summary is drawn again when all are in)`
    : `the first ${fmt(held)} rows held of ${fmt(total)}`;
  if (shown < held) return `the ${fmt(shown)} rows shown (filtered)${held >= total ? '' : ` of ${part}`}`;
  return held >= total ? `all ${fmt(held)} rows` : part;
}

class SummaryPanel implements Panel {
  readonly element: HTMLElement;
  private readonly note = h('div', { className: 'mt-status mt-summary-note' });
  private readonly host = h('div', { className: 'mt-summary-table' });
  private nested?: NestedTable;
  private summary?: Table;
  /** Draws so far: a host's answer to an older draw is dropped. */
  private draws = 0;

  constructor(private readonly ctx: PanelContext) {
    this.element = h('div', { className: 'mt-panel mt-summary' }, [this.note, this.host]);
  }

  draw(): void {
    const t0 = performance.now();
    const rows = this.ctx.rows();
    this.show(summaryTable(this.ctx.table, rows));
    const { held, total, loading, of = 'file' } = this.ctx.coverage();
    const covers = coverText(rows.length, held, total, loading);
    const asked = rows.length >= held && held < total && this.ctx.fullSummary;
    this.setNote(covers, performance.now() - t0, asked ? ' Computing it over all rows in the extension host…' : '');
    const draw = ++this.draws;
    if (!asked || !this.ctx.fullSummary) return;
    const t1 = performance.now();
    this.ctx.fullSummary(summaryPlan(this.ctx.table)).then(
      (full) => {
        if (draw !== this.draws) return;
        this.show(summaryFromFull(this.ctx.table, full));
        const still = this.ctx.coverage().loading ? '; this view is still loading its rows' : '';
        this.setNote(
          `all ${fmt(full.rows)} rows (DuckDB over the whole ${of}, in the extension host${still})`,
          performance.now() - t1,
          '',
        );
      },
      (err: Error) => {
        if (draw !== this.draws) return;
        this.setNote(
          covers,
          performance.now() - t0,
          ` The Summary of all ${fmt(total)} rows could not be computed: ${err.message}`,
        );
      },
    );
  }

  private show(summary: Table): void {
    this.nested?.dispose();
    this.nested = this.ctx.nestedTable(summary, 'summary');
    this.host.appendChild(this.nested.element);
    this.summary = summary;
  }

  /** Says which rows the Summary covers, its rules, its time, and the rows with no data. */
  private setNote(covers: string, ms: number, after: string): void {
    const count = this.summary?.columns.find((c) => c.name === 'count');
    let empty = 0;
    if (count?.kind === 'number') for (const v of floatValues(count)) if (v === 0) empty++;
    const noData = empty
      ? ` ${fmt(empty)} ${empty === 1 ? 'row has' : 'rows have'} no data (count 0: no value of that metric in these rows, so no statistics; "no data" in the note column).`
      : '';
    this.note.textContent = `Per datasource × metric over ${covers}; expected = ${resultFrequency(this.ctx.table)} periods from the first to the last time of those rows; median and p98 by Hyndman–Fan type 7 (numpy's default) (computed in ${Math.round(ms)} ms).${noData}${after}`;
    this.note.title = `Median and p98: ${QUANTILE_DEFINITION}`;
  }

  destroy(): void {
    this.draws++;
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
