// The table output: a toolbar (filter, count, tabs, actions), notices, then the rows (grid.ts) or a view
// (view-host.ts over the registry of views, src/renderer/views/registry.ts). Every value is set as textContent.
import { styleSlotsOf } from '../../core/aq/line-styles';
import type {
  FullSummary,
  ImageFormat,
  ResultInfo,
  SaveFormat,
  SummaryPlan,
} from '../../core/notebook/renderer-protocol';
import type { Table } from '../../core/table/table';
import { UTC } from '../../core/time/zone';
import { h } from '../dom/h';
import { datasourceNameMap } from '../model/aq-views';
import { filterProblems } from '../model/filter';
import { resultZone, type TimeZoneMode } from '../model/format';
import { type ColumnInsight, columnInsights, countDistinct } from '../model/insights';
import { computeViewRows, emptyViewState, nextSort, rowCountText, type ViewState } from '../model/table-view';
import { TABLE_TAB } from '../model/tabs';
import { VIEWS } from '../views/registry';
import type { PanelContext } from '../views/view';
import { GridColumns } from './columns';
import { Grid } from './grid';
import { Toolbar } from './toolbar';
import { ViewHost } from './view-host';

export interface TableWidgetOptions {
  info?: ResultInfo;
  /** Saving goes through the extension host; undefined when the renderer has no messaging. */
  save?: (format: SaveFormat, rows: Uint32Array) => Promise<string>;
  /** Saves another table (a view's derived table, e.g. the Summary); undefined without messaging. */
  saveTable?: (table: Table, format: SaveFormat, rows: Uint32Array, name: string) => Promise<string>;
  /** The Summary of every row of the data (the host's DuckDB over the whole file); undefined when it cannot. */
  summarize?: (plan: SummaryPlan) => Promise<FullSummary>;
  /** Saves a view's image (PNG or SVG bytes) through the host; undefined without messaging. */
  saveImage?: (format: ImageFormat, bytes: Uint8Array, name: string) => Promise<string>;
  /** A view's own derived table: no view tabs, its columns in their own order. */
  plain?: boolean;
  /** Whether the insights strip starts shown, and where a new choice is remembered (per output). */
  insights?: { shown: boolean; remember?: (shown: boolean) => void };
  /** Called when the user switches between the rows and the chart. */
  onViewChange?: (view: 'table' | 'chart') => void;
  /** Called with the tab shown each time the user (or openTab) shows one. */
  onTabShown?: (name: string) => void;
}

const fmt = (n: number) => n.toLocaleString('en-US');

export class TableWidget {
  readonly element: HTMLElement;
  /** The notebook's zone (ResultInfo.timeZone; UTC without one): the zone button switches between it and UTC. */
  private readonly zone: TimeZoneMode;
  private readonly state: ViewState = emptyViewState();
  private viewRows: Uint32Array;
  private readonly columns: GridColumns;
  private readonly grid: Grid;
  private readonly views: ViewHost;
  private readonly toolbar: Toolbar;
  /** The notices under the toolbar (partial, truncated, notes), replaced by setInfo. */
  private noticeEls: HTMLElement[];
  /** A progressive output's line while its rows arrive (or why the rest cannot be shown). */
  private readonly loadingEl = h('div', { className: 'mt-notice mt-loading', attrs: { role: 'status', hidden: '' } });
  /** Says which column filters are invalid and what they accept (hidden while every filter is valid). */
  private readonly filterProblemEl = h('div', {
    className: 'mt-notice mt-filter-problem',
    attrs: { role: 'alert', hidden: '' },
  });
  /** Rows still to come: the views are redrawn when the last ones are in, not per chunk. */
  private loading = false;
  /** The rows of the result (more than the table holds when truncated or still loading). */
  private resultRows: number;
  /** The insights strip: shown or not, its numbers (computed when shown, again when all rows are in). */
  private insightsShown = false;
  private insights?: (ColumnInsight | undefined)[];
  /** Cancels the pending completion of the strip (the other columns, the distinct counts); a no-op when none. */
  private cancelRest = () => {};
  /** Says the insights cover fewer rows than the result has (hidden otherwise). */
  private readonly insightsNote = h('div', {
    className: 'mt-notice mt-insights-note',
    attrs: { role: 'status', hidden: '' },
  });

  constructor(
    private readonly table: Table,
    private readonly options: TableWidgetOptions = {},
  ) {
    this.zone = resultZone(options.info);
    this.resultRows = Math.max(
      table.rowCount,
      options.info?.truncated?.totalRows ?? 0,
      options.info?.rest?.totalRows ?? 0,
    );
    this.state.timeZone = this.zone;
    this.viewRows = computeViewRows(table, this.state);
    this.element = h('div', { className: 'measnb-table' });
    this.columns = new GridColumns(table, this.element, !!options.plain, this.zone);
    this.grid = new Grid(
      { table, state: this.state, rows: () => this.viewRows, setStatus: (t) => this.setStatus(t) },
      this.columns,
      {
        sort: (col) => {
          this.state.sort = nextSort(this.state.sort, col);
          this.refresh();
        },
        filter: (col, text) => {
          if (text) this.state.filter.columns.set(col, text);
          else this.state.filter.columns.delete(col);
          this.refresh();
        },
      },
    );
    this.views = new ViewHost({
      table,
      views: VIEWS,
      plain: !!options.plain,
      container: this.element,
      rowsView: this.grid.viewport,
      context: () => this.panelContext(),
      onShow: (name) => this.shown(name),
      image: { save: options.saveImage, status: (text) => this.setStatus(text) },
    });
    this.toolbar = this.buildToolbar();
    this.toolbar.setTimeZone(this.zone, this.zone);
    this.noticeEls = this.notices();
    this.element.append(
      this.toolbar.element,
      ...this.noticeEls,
      this.loadingEl,
      this.filterProblemEl,
      this.insightsNote,
      this.grid.viewport,
    );
    this.columns.fitAll();
    this.refresh();
    if (options.insights?.shown) this.setInsights(true);
  }

  /**
   * Shows (computing them from every row the table holds) or hides the column insights: the strip of the columns in
   * view is drawn first; the other columns and the distinct counts left (time columns, number columns not counted
   * by key) are computed right after that strip is painted.
   */
  private setInsights(shown: boolean): void {
    this.insightsShown = shown;
    this.toolbar.setInsights(shown);
    this.cancelRest();
    if (shown) {
      const first = this.grid.columnsInView();
      const insights = columnInsights(this.table, first, { distinct: false });
      this.insights = insights;
      // A task queued in the next animation frame runs right after that frame's paint (the strip drawn), not a
      // frame later.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const frame = requestAnimationFrame(() => {
        timer = setTimeout(() => this.completeInsights(insights, first), 0);
      });
      this.cancelRest = () => {
        cancelAnimationFrame(frame);
        clearTimeout(timer);
      };
    }
    this.grid.showInsights(shown ? this.insights : undefined, this.state.timeZone);
    const held = this.table.rowCount;
    this.insightsNote.hidden = !shown || held >= this.resultRows;
    this.insightsNote.textContent = `Insights cover the ${fmt(held)} rows this table holds, of ${fmt(this.resultRows)} in the result${this.loading ? ' (more are loading: they follow when all are in)' : ''}.`;
  }

  /** The insights of the columns not computed first, and every distinct count; the strip drawn again. */
  private completeInsights(insights: (ColumnInsight | undefined)[], first: ReadonlySet<number>): void {
    const rest = new Set([...this.table.columns.keys()].filter((i) => !first.has(i)));
    columnInsights(this.table, rest, { distinct: false }).forEach((insight, i) => {
      if (insight) insights[i] = insight;
    });
    countDistinct(this.table, insights);
    if (this.insightsShown && this.insights === insights) this.grid.showInsights(insights, this.state.timeZone);
  }

  private buildToolbar(): Toolbar {
    const save = this.options.save;
    return new Toolbar(
      {
        filter: (text) => {
          this.state.filter.global = text;
          this.refresh();
        },
        toggleTimeZone: () => this.toggleTimeZone(),
        toggleInsights: () => {
          this.setInsights(!this.insightsShown);
          this.options.insights?.remember?.(this.insightsShown);
        },
        copy: () => void this.grid.copy(),
        copyMarkdown: () => void this.grid.copyMarkdown(),
        save: save ? (format) => void this.save(save, format) : undefined,
      },
      this.views.tabs,
      this.columns.menu(),
    );
  }

  /** Shows a view's tab (when it is offered) as if the user chose it; once the widget is in the page. */
  openTab(name: string): void {
    this.views.open(name);
  }

  /** What a view is given: the table, the rows shown, the time zone, names, nested tables. */
  private panelContext(): PanelContext {
    const info = this.options.info;
    return {
      table: this.table,
      rows: () => this.viewRows,
      timeZone: () => this.state.timeZone,
      referenceSites: Array.isArray(info?.referenceSites) ? info.referenceSites : undefined,
      datasourceNames: datasourceNameMap(this.table, info?.datasourceNames),
      styleSlots: styleSlotsOf(info?.datasourceStyles),
      coverage: () => this.coverage(),
      fullSummary: this.options.summarize,
      nestedTable: (table: Table, title: string) => {
        const save = this.options.saveTable;
        return new TableWidget(table, {
          plain: true,
          info: { title, timeZone: this.options.info?.timeZone },
          save: save ? (format, rows) => save(table, format, rows, title) : undefined,
        });
      },
    };
  }

  /** The rows held of the data's: a file's counted rows (truncated), a progressive output's total (rest). */
  private coverage(): ReturnType<PanelContext['coverage']> {
    const info = this.options.info;
    const held = this.table.rowCount;
    const total = Math.max(held, info?.truncated?.totalRows ?? 0, info?.rest?.totalRows ?? 0);
    const of = info?.rest ? 'result' : 'file';
    return { held, total: Number.isFinite(total) ? total : held, loading: this.loading, of };
  }

  /** After a tab is shown: the rows drawn when they are; the host told of the rows and the chart. */
  private shown(name: string): void {
    this.options.onTabShown?.(name);
    if (name === TABLE_TAB) this.grid.draw();
    if (name === TABLE_TAB || name === 'chart') this.options.onViewChange?.(name);
  }

  /**
   * A progressive output: the table has grown (its rows and arrays advanced in place, core/table/row-chunks).
   * The rows view follows at once; an open view is redrawn, and the tabs offered again, when the last rows are in.
   */
  rowsArrived(loaded: number, total: number): void {
    this.loading = loaded < total;
    this.resultRows = Math.max(this.resultRows, total);
    this.grid.rowsArrived(total);
    this.loadingEl.hidden = !this.loading;
    this.loadingEl.classList.remove('mt-truncated');
    this.loadingEl.textContent = this.loading
      ? `Loading rows ${fmt(loaded)} of ${fmt(total)}… Sorting, filtering, the chart and the views cover the ${fmt(loaded)} rows loaded so far${this.options.summarize ? ' (the Summary with no filter on: every row, from the extension host)' : ''}.`
      : '';
    if (!this.loading) {
      this.setStatus(`All ${fmt(total)} rows loaded`);
      this.views.update();
      this.toolbar.relayout();
    }
    this.refresh(!this.loading);
    if (this.insightsShown && !this.loading) this.setInsights(true);
  }

  /** A progressive output whose other rows cannot be had: the rows shown stay, and the notice says why. */
  rowsUnavailable(loaded: number, total: number, why: string): void {
    this.loading = false;
    this.loadingEl.hidden = false;
    this.loadingEl.classList.add('mt-truncated');
    this.loadingEl.textContent = `Showing the first ${fmt(loaded)} of ${fmt(total)} rows: the other rows cannot be loaded (${why}). Sorting, filtering, the chart and the views cover these rows; run the cell again for all of them.`;
    this.refresh();
    if (this.insightsShown) this.setInsights(true);
  }

  /** New result info (e.g. the row count of a file, known once the rest of it is counted): new notices. */
  setInfo(info: ResultInfo): void {
    this.options.info = info;
    const next = this.notices();
    for (const el of this.noticeEls) el.remove();
    this.loadingEl.before(...next);
    this.noticeEls = next;
    // The rows counted (a file's total) change what a view covers: the open view says so.
    this.views.drawShown();
  }

  private notices(): HTMLElement[] {
    const info = this.options.info;
    const out: HTMLElement[] = [];
    if (info?.partial)
      out.push(h('div', { className: 'mt-notice mt-partial', text: `Partial result: ${info.partial}` }));
    if (info?.truncated) {
      const t = info.truncated;
      const where = t.fullResultPath ? ` Full result: ${t.fullResultPath}` : '';
      out.push(
        h('div', {
          className: 'mt-notice mt-truncated',
          text: `Showing ${fmt(t.shownRows)} of ${fmt(t.totalRows)} rows: ${t.reason}.${where}`,
        }),
      );
    }
    for (const note of info?.notes ?? []) out.push(h('div', { className: 'mt-status mt-note', text: note }));
    return out;
  }

  /** Recomputes the rows shown (filter + sort) and redraws them, and the view shown unless `drawViews` is false. */
  private refresh(drawViews = true): void {
    this.viewRows = computeViewRows(this.table, this.state);
    this.toolbar.count.textContent = rowCountText(this.viewRows.length, this.table.rowCount);
    const problems = filterProblems(this.table, this.state.filter);
    this.filterProblemEl.hidden = problems.length === 0;
    this.filterProblemEl.textContent = problems.map((p) => p.message).join(' · ');
    this.grid.update();
    if (drawViews) this.views.drawShown();
  }

  private async save(save: NonNullable<TableWidgetOptions['save']>, format: SaveFormat): Promise<void> {
    this.setStatus(`Saving ${fmt(this.viewRows.length)} rows…`);
    try {
      this.setStatus(await save(format, this.viewRows));
    } catch (err) {
      this.setStatus(`Save failed: ${(err as Error).message}`);
    }
  }

  private toggleTimeZone(): void {
    this.state.timeZone = this.state.timeZone.isUtc ? this.zone : UTC;
    this.toolbar.setTimeZone(this.state.timeZone, this.zone);
    this.columns.setTimeZone(this.state.timeZone);
    if (this.insightsShown) this.grid.showInsights(this.insights, this.state.timeZone);
    // Text filters match what is shown, so a time filter follows the zone.
    this.refresh();
  }

  private setStatus(text: string): void {
    this.toolbar.setStatus(text);
  }

  dispose(): void {
    this.cancelRest();
    this.grid.dispose();
    this.views.dispose();
    this.toolbar.dispose();
    this.element.remove();
  }
}
