// The rows: a sticky header with per-column filters over a virtual body whose row elements are a fixed pool
// (bounded DOM whatever the row count). Every value is set as textContent. Selection, keys, Copy.
import type { Table } from '../../core/table/table';
import { copyText } from '../dom/clipboard';
import { h } from '../dom/h';
import { categoryOf } from '../model/aq-views';
import { displayText, type TimeZoneMode } from '../model/format';
import type { ColumnInsight } from '../model/insights';
import { markdownOfRows } from '../model/markdown-copy';
import { qcAssessmentTone, qcInvalidLookup, statusTone } from '../model/qc';
import {
  clickSelect,
  emptySelection,
  isSelected,
  type Selection,
  selectAll,
  selectionSize,
  selectionToCsv,
} from '../model/selection';
import type { ViewState } from '../model/table-view';
import { computeWindow, fittedViewportHeight, poolSize } from '../model/virtual-window';
import { cellClass, type GridColumns, GUTTER } from './columns';
import { filterRow, type HeaderActions, headerRow } from './grid-header';
import { InsightsRow } from './insights-row';

const ROW_HEIGHT = 22;
const MAX_VIEWPORT_HEIGHT = 420;
/** Row elements never exceed this, however tall the viewport is dragged. */
const MAX_POOL_ROWS = 400;

/** What the grid reads from its widget: the table, the view state, the rows shown, the status line. */
interface GridContext {
  table: Table;
  state: ViewState;
  rows(): Uint32Array;
  setStatus(text: string): void;
}

export class Grid {
  readonly viewport: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  private readonly rowsHost: HTMLElement;
  /** Header cells by column index. */
  private readonly headerCells: HTMLElement[] = [];
  /** Filter inputs by column index. */
  private readonly filterInputs: HTMLInputElement[] = [];
  /** The insights strip, made when first shown. */
  private insights?: InsightsRow;
  private readonly pool: HTMLElement[] = [];
  private readonly poolCells: HTMLElement[][] = [];
  private selection: Selection = emptySelection();
  /** Is the value in (column, row) QC-invalid (model/qc: one decision, per-column tests kept). */
  private qcInvalid;
  private frame = 0;
  private readonly disposers: Array<() => void> = [];

  constructor(
    private readonly ctx: GridContext,
    private readonly cols: GridColumns,
    actions: HeaderActions,
  ) {
    this.qcInvalid = qcInvalidLookup(ctx.table);
    this.header = h('div', { className: 'mt-header' }, [
      headerRow(ctx.table, cols, actions, this.headerCells),
      filterRow(ctx.table, cols, actions, this.filterInputs),
    ]);
    this.rowsHost = h('div', { className: 'mt-rows' });
    this.body = h('div', { className: 'mt-body' }, [this.rowsHost]);
    this.viewport = h('div', {
      className: 'mt-viewport',
      attrs: { tabindex: '0', role: 'grid', 'aria-rowcount': String(ctx.table.rowCount) },
    });
    this.viewport.append(this.header, this.body);
    this.listen();
  }

  /** Scrolling, keys, row clicks, Ctrl+C on the selection, and resizing of the viewport. */
  private listen(): void {
    this.viewport.addEventListener('scroll', () => this.schedule());
    this.viewport.addEventListener('keydown', (e) => this.onKey(e));
    this.rowsHost.addEventListener('mousedown', (e) => this.onRowClick(e));
    const onCopy = (e: ClipboardEvent) => {
      if (!this.viewport.contains(document.activeElement) || !selectionSize(this.selection)) return;
      if (document.activeElement instanceof HTMLInputElement) return;
      e.clipboardData?.setData('text/plain', this.selectionCsv());
      e.preventDefault();
      this.ctx.setStatus(`Copied ${selectionSize(this.selection).toLocaleString('en-US')} rows with the header`);
    };
    document.addEventListener('copy', onCopy);
    this.disposers.push(() => document.removeEventListener('copy', onCopy));
    // The viewport is user-resizable (CSS resize): a taller one needs more pooled rows. Once laid out, the
    // height is fitted again (a horizontal scrollbar appears only then).
    if (typeof ResizeObserver !== 'undefined') {
      const resize = new ResizeObserver(() => this.schedule(true));
      resize.observe(this.viewport);
      this.disposers.push(() => resize.disconnect());
    }
  }

  /** The rows shown changed (filter, sort, rows arrived): no selection, sort marks, height, redraw. */
  update(): void {
    const rows = this.ctx.rows();
    this.selection = emptySelection();
    this.viewport.setAttribute('aria-rowcount', String(rows.length));
    const sort = this.ctx.state.sort;
    this.headerCells.forEach((cell, i) => {
      const sorted = sort?.column === i ? sort.direction : undefined;
      cell.setAttribute('aria-sort', sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none');
      (cell.querySelector('.mt-sort') as HTMLElement).textContent =
        sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '';
    });
    this.insights?.markFilters(this.ctx.state.filter.columns);
    this.fitHeight();
    this.draw();
  }

  /** The columns whose header is at least partly within the viewport's width (every column before it is laid out). */
  columnsInView(): Set<number> {
    const view = this.viewport.getBoundingClientRect();
    const all = new Set(this.headerCells.keys());
    if (!view.width) return all;
    return new Set(
      [...all].filter((i) => {
        const r = this.headerCells[i]?.getBoundingClientRect();
        return r && r.width > 0 && r.right > view.left && r.left < view.right;
      }),
    );
  }

  /** Shows the insights strip under the headers with these insights, or hides it (undefined). */
  showInsights(insights: readonly (ColumnInsight | undefined)[] | undefined, zone: TimeZoneMode): void {
    if (insights && !this.insights) {
      this.insights = new InsightsRow(this.ctx.table, this.cols, (col, text) => this.setFilter(col, text));
      this.header.firstElementChild?.after(this.insights.element);
    }
    if (!this.insights) return;
    this.insights.element.hidden = !insights;
    if (insights) {
      this.insights.fill(insights, zone);
      this.insights.markFilters(this.ctx.state.filter.columns);
    }
    this.fitHeight();
    this.draw();
  }

  /** Sets a column's filter as if typed in its box (checked, applied, shown there). */
  setFilter(col: number, text: string): void {
    const input = this.filterInputs[col];
    if (!input) return;
    input.value = text;
    input.dispatchEvent(new Event('input'));
  }

  /** New rows in the table (a progressive output): QC lookups and the gutter follow. */
  rowsArrived(total: number): void {
    this.qcInvalid = qcInvalidLookup(this.ctx.table);
    this.cols.fitGutter(total);
  }

  /** Every row in view when they fit under the maximum height (no vertical scroll: the wheel passes on). */
  private fitHeight(): void {
    if (this.viewport.dataset.userSized) return;
    const v = this.viewport;
    const header = this.header.offsetHeight || 2 * ROW_HEIGHT;
    // offsetHeight − clientHeight: the two borders and a horizontal scrollbar (0 before layout).
    const chrome = v.offsetHeight ? v.offsetHeight - v.clientHeight - 2 : 0;
    const height = fittedViewportHeight(header, this.ctx.rows().length, ROW_HEIGHT, chrome, MAX_VIEWPORT_HEIGHT);
    if (v.style.height !== `${height}px`) v.style.height = `${height}px`;
  }

  private schedule(fit = false): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (fit) this.fitHeight();
      this.draw();
    });
  }

  private ensurePool(size: number): void {
    while (this.pool.length < size) {
      const row = h('div', { className: 'mt-row', attrs: { role: 'row' } });
      const cells = [this.cols.makeCell(GUTTER, 'mt-cell mt-gutter')];
      for (const i of this.cols.order) cells.push(this.cols.makeCell(i, cellClass(this.ctx.table.columns[i])));
      row.append(...cells);
      this.pool.push(row);
      this.poolCells.push(cells);
      this.rowsHost.appendChild(row);
    }
  }

  /** Draws the rows under the current scroll position into the pool. */
  draw(): void {
    const rows = this.ctx.rows();
    const headerHeight = this.header.offsetHeight || 2 * ROW_HEIGHT;
    const viewportHeight = Math.max(ROW_HEIGHT, (this.viewport.clientHeight || MAX_VIEWPORT_HEIGHT) - headerHeight);
    const win = computeWindow({
      scrollTop: this.viewport.scrollTop,
      viewportHeight,
      rowHeight: ROW_HEIGHT,
      rowCount: rows.length,
    });
    this.body.style.height = `${Math.max(win.totalHeight, ROW_HEIGHT)}px`;
    this.rowsHost.style.transform = `translateY(${win.offsetTop}px)`;
    this.ensurePool(Math.min(win.count, poolSize(viewportHeight, ROW_HEIGHT), MAX_POOL_ROWS));
    const mode = this.ctx.state.timeZone;
    const order = this.cols.order;
    for (let i = 0; i < this.pool.length; i++) {
      const rowEl = this.pool[i];
      const pos = win.first + i;
      rowEl.hidden = i >= win.count;
      if (rowEl.hidden) continue;
      const row = rows[pos];
      rowEl.dataset.pos = String(pos);
      rowEl.dataset.row = String(row);
      rowEl.setAttribute('aria-rowindex', String(pos + 1));
      rowEl.classList.toggle('mt-selected', isSelected(this.selection, pos));
      const cells = this.poolCells[i];
      cells[0].textContent = String(pos + 1);
      for (let k = 0; k < order.length; k++)
        if (!this.cols.hidden.has(order[k])) this.fillCell(cells[k + 1], order[k], row, mode);
    }
  }

  private fillCell(cell: HTMLElement, col: number, row: number, mode: TimeZoneMode): void {
    const column = this.ctx.table.columns[col];
    const text = displayText(column, row, mode);
    if (cell.textContent !== text) cell.textContent = text;
    let tone = '';
    if (column.kind === 'status' && text) tone = statusTone(text);
    else if (column.kind === 'qcAssessment' && text) tone = qcAssessmentTone(text);
    const invalid = this.qcInvalid(col, row);
    cell.classList.toggle('mt-invalid', invalid && column.kind === 'number');
    cell.classList.toggle('mt-tone-bad', tone === 'bad' || (invalid && column.kind === 'qcFlags'));
    cell.classList.toggle('mt-tone-warn', tone === 'warn');
    cell.classList.toggle('mt-tone-ok', tone === 'ok');
    const unit = this.cols.units[col];
    let title = unit && text ? `${text} ${unit}` : text;
    if (this.cols.chips[col]) title += this.chip(cell, col, row, text);
    cell.title = invalid && column.kind === 'number' ? `${title} — QC invalid` : title;
  }

  /** Sets (or clears) a cell's AQI chip; the tooltip's category text. */
  private chip(cell: HTMLElement, col: number, row: number, text: string): string {
    const column = this.ctx.table.columns[col];
    const category = text ? categoryOf(column, (column as { values: Float64Array }).values[row]) : undefined;
    cell.classList.toggle('mt-aqi', category !== undefined);
    if (!category) {
      delete cell.dataset.aqi;
      delete cell.dataset.aqiAbbr;
      return '';
    }
    cell.style.setProperty('--mt-aqi', category.colour);
    cell.style.setProperty('--mt-aqi-text', category.textColour);
    cell.dataset.aqi = category.name;
    cell.dataset.aqiAbbr = category.abbr;
    return ` — AQI category: ${category.name}`;
  }

  private onRowClick(e: MouseEvent): void {
    const rowEl = (e.target as HTMLElement).closest('.mt-row') as HTMLElement | null;
    if (!rowEl?.dataset.pos) return;
    const pos = Number(rowEl.dataset.pos);
    const how = e.shiftKey ? 'extend' : e.ctrlKey || e.metaKey ? 'toggle' : 'replace';
    if (e.shiftKey) e.preventDefault();
    this.selection = clickSelect(this.selection, pos, how);
    this.viewport.focus({ preventScroll: true });
    this.draw();
    this.ctx.setStatus(`${selectionSize(this.selection).toLocaleString('en-US')} selected`);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.target instanceof HTMLInputElement) return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      this.selection = selectAll(this.ctx.rows().length);
      this.draw();
      this.ctx.setStatus(`${selectionSize(this.selection).toLocaleString('en-US')} selected`);
    } else if (e.key === 'End' && mod) {
      this.viewport.scrollTop = this.viewport.scrollHeight;
    } else if (e.key === 'Home' && mod) {
      this.viewport.scrollTop = 0;
    }
  }

  private selectionCsv(): string {
    return selectionToCsv(this.ctx.table, this.ctx.rows(), this.selection);
  }

  /** Copies the selected rows as CSV with the header (the Copy button). */
  async copy(): Promise<void> {
    const n = selectionSize(this.selection);
    if (!n) {
      this.ctx.setStatus('Select rows first (click, shift-click, Ctrl+A)');
      return;
    }
    try {
      await copyText(this.selectionCsv());
      this.ctx.setStatus(`Copied ${n.toLocaleString('en-US')} rows with the header`);
    } catch (err) {
      this.ctx.setStatus(`Copy failed: ${(err as Error).message}`);
    }
  }

  /** Copies the selected rows (or the rows shown) as a Markdown table. */
  async copyMarkdown(): Promise<void> {
    const { text, status } = markdownOfRows(this.ctx.table, this.ctx.rows(), this.selection);
    try {
      await copyText(text);
      this.ctx.setStatus(status);
    } catch (err) {
      this.ctx.setStatus(`Copy failed: ${(err as Error).message}`);
    }
  }

  dispose(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    for (const d of this.disposers) d();
  }
}
