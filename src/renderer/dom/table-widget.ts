// The table output: toolbar, notices, a sticky header with per-column filters, and a virtual body whose
// row elements are a fixed pool (bounded DOM whatever the row count). Every value is set as textContent.
import { type Column, isNumeric, type Table } from '../../core/table/table';
import { displayText, isRightAligned, type TimeZoneMode } from '../model/format';
import { isQcInvalid, qcAssessmentTone, qcSiblings, statusTone } from '../model/qc';
import {
  clickSelect,
  emptySelection,
  isSelected,
  type Selection,
  selectAll,
  selectionSize,
  selectionToCsv,
} from '../model/selection';
import { computeViewRows, emptyViewState, nextSort, rowCountText, type ViewState } from '../model/table-view';
import { computeWindow, poolSize } from '../model/virtual-window';
import type { ResultInfo, SaveFormat } from '../protocol';
import { ChartView } from './chart-view';
import { copyText } from './clipboard';
import { button, h } from './h';

const ROW_HEIGHT = 22;
const MAX_VIEWPORT_HEIGHT = 420;
const GUTTER = -1;
/** Row elements never exceed this, however tall the viewport is dragged. */
const MAX_POOL_ROWS = 400;

export interface TableWidgetOptions {
  info?: ResultInfo;
  /** Saving goes through the extension host; undefined when the renderer has no messaging. */
  save?: (format: SaveFormat, rows: Uint32Array) => Promise<string>;
  /** Called when the user switches between the rows and the chart. */
  onViewChange?: (view: 'table' | 'chart') => void;
}

function estimateWidth(column: Column, table: Table): number {
  // Header text is bold and carries the sort arrow; times may be shown with their local offset.
  let px = column.name.length * 8 + 30;
  const sample = Math.min(table.rowCount, 200);
  let chars = 0;
  for (let r = 0; r < sample; r++) chars = Math.max(chars, displayText(column, r, 'local').length);
  px = Math.max(px, chars * 7.6 + 16);
  return Math.min(380, Math.max(56, Math.round(px)));
}

function cellClass(column: Column): string {
  if (isRightAligned(column)) return 'mt-cell mt-num';
  if (column.kind === 'time') return 'mt-cell mt-time';
  return 'mt-cell';
}

export class TableWidget {
  readonly element: HTMLElement;
  private readonly state: ViewState = emptyViewState();
  private viewRows: Uint32Array;
  private selection: Selection = emptySelection();
  private readonly siblings;
  private readonly viewport: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  private readonly rowsHost: HTMLElement;
  private readonly countEl: HTMLElement;
  private readonly statusEl: HTMLElement;
  private readonly headerCells: HTMLElement[] = [];
  private readonly pool: HTMLElement[] = [];
  private poolCells: HTMLElement[][] = [];
  private readonly timeButton: HTMLButtonElement;
  private readonly viewButton: HTMLButtonElement;
  private chart?: ChartView;
  private frame = 0;
  private readonly disposers: Array<() => void> = [];

  constructor(
    private readonly table: Table,
    private readonly options: TableWidgetOptions = {},
  ) {
    this.siblings = qcSiblings(table);
    this.viewRows = computeViewRows(table, this.state);

    const filter = h('input', {
      className: 'mt-filter',
      attrs: { type: 'search', placeholder: 'Filter rows…', 'aria-label': 'Filter all columns' },
    });
    filter.addEventListener('input', () => {
      this.state.filter.global = filter.value;
      this.refresh();
    });
    this.countEl = h('span', { className: 'mt-count', attrs: { 'aria-live': 'polite' } });
    this.statusEl = h('span', { className: 'mt-status', attrs: { role: 'status' } });
    this.timeButton = button('UTC', 'Show times in UTC or local time', () => this.toggleTimeZone());
    this.timeButton.classList.add('mt-tz');
    this.viewButton = button('Chart', 'Switch between the table and a chart of a metric over time', () =>
      this.toggleChart(),
    );
    this.viewButton.classList.add('mt-view-toggle');
    const copy = button('Copy', 'Copy the selected rows as CSV with the header (Ctrl+C)', () => void this.copy());
    copy.classList.add('mt-copy');
    const toolbar = h('div', { className: 'mt-toolbar' }, [
      filter,
      this.countEl,
      this.timeButton,
      this.viewButton,
      copy,
    ]);
    if (options.save) {
      for (const format of ['csv', 'parquet'] as const) {
        const b = button(
          `Save ${format === 'csv' ? 'CSV' : 'Parquet'}`,
          `Save the rows shown as ${format}`,
          () => void this.save(format),
        );
        b.classList.add(`mt-save-${format}`);
        toolbar.appendChild(b);
      }
    }
    toolbar.appendChild(this.statusEl);

    this.header = h('div', { className: 'mt-header' }, [this.buildHeaderRow(), this.buildFilterRow()]);
    this.rowsHost = h('div', { className: 'mt-rows' });
    this.body = h('div', { className: 'mt-body' }, [this.rowsHost]);
    this.viewport = h('div', {
      className: 'mt-viewport',
      attrs: { tabindex: '0', role: 'grid', 'aria-rowcount': String(table.rowCount) },
    });
    this.viewport.append(this.header, this.body);
    this.viewport.addEventListener('scroll', () => this.schedule());
    this.viewport.addEventListener('keydown', (e) => this.onKey(e));
    this.rowsHost.addEventListener('mousedown', (e) => this.onRowClick(e));
    const onCopy = (e: ClipboardEvent) => {
      if (!this.viewport.contains(document.activeElement) || !selectionSize(this.selection)) return;
      if (document.activeElement instanceof HTMLInputElement) return;
      e.clipboardData?.setData('text/plain', this.selectionCsv());
      e.preventDefault();
      this.setStatus(`Copied ${selectionSize(this.selection).toLocaleString('en-US')} rows with the header`);
    };
    document.addEventListener('copy', onCopy);
    this.disposers.push(() => document.removeEventListener('copy', onCopy));
    // The viewport is user-resizable (CSS resize): a taller one needs more pooled rows.
    if (typeof ResizeObserver !== 'undefined') {
      const resize = new ResizeObserver(() => this.schedule());
      resize.observe(this.viewport);
      this.disposers.push(() => resize.disconnect());
    }

    this.element = h('div', { className: 'measnb-table' }, [toolbar, ...this.notices(), this.viewport]);
    this.table.columns.forEach((c, i) => {
      this.setWidth(i, estimateWidth(c, table));
    });
    this.setWidth(GUTTER, Math.max(40, String(table.rowCount).length * 9 + 18));
    this.refresh();
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
          text: `Showing ${t.shownRows.toLocaleString('en-US')} of ${t.totalRows.toLocaleString('en-US')} rows: ${t.reason}.${where}`,
        }),
      );
    }
    for (const note of info?.notes ?? []) out.push(h('div', { className: 'mt-status mt-note', text: note }));
    return out;
  }

  private widthVar(col: number): string {
    return col === GUTTER ? '--mt-w-gutter' : `--mt-w-${col}`;
  }

  private setWidth(col: number, px: number): void {
    this.element.style.setProperty(this.widthVar(col), `${Math.max(36, Math.round(px))}px`);
  }

  private makeCell(col: number, className: string): HTMLElement {
    const cell = h('div', { className });
    cell.style.width = `var(${this.widthVar(col)})`;
    return cell;
  }

  private buildHeaderRow(): HTMLElement {
    const row = h('div', { className: 'mt-row mt-hrow', attrs: { role: 'row' } });
    row.appendChild(this.makeCell(GUTTER, 'mt-cell mt-gutter'));
    this.table.columns.forEach((column, i) => {
      const cell = this.makeCell(i, `${cellClass(column)} mt-hcell`);
      cell.setAttribute('role', 'columnheader');
      cell.setAttribute('aria-sort', 'none');
      cell.dataset.col = String(i);
      cell.title = `${column.name} (${column.kind}) — click to sort`;
      cell.append(h('span', { className: 'mt-hname', text: column.name }), h('span', { className: 'mt-sort' }));
      const resizer = h('div', { className: 'mt-resizer', attrs: { 'aria-hidden': 'true' } });
      resizer.addEventListener('pointerdown', (e) => this.startResize(e, i, resizer));
      resizer.addEventListener('click', (e) => e.stopPropagation());
      cell.appendChild(resizer);
      cell.addEventListener('click', () => {
        this.state.sort = nextSort(this.state.sort, i);
        this.refresh();
      });
      this.headerCells.push(cell);
      row.appendChild(cell);
    });
    return row;
  }

  private buildFilterRow(): HTMLElement {
    const row = h('div', { className: 'mt-row mt-frow' });
    row.appendChild(this.makeCell(GUTTER, 'mt-cell mt-gutter'));
    this.table.columns.forEach((column, i) => {
      const cell = this.makeCell(i, 'mt-cell mt-fcell');
      const input = h('input', {
        attrs: {
          type: 'text',
          placeholder: isNumeric(column) ? '>, <, a..b' : 'filter',
          'aria-label': `Filter ${column.name}`,
          'data-col': String(i),
        },
      });
      input.title = isNumeric(column)
        ? 'Text, =exact, !not, empty, !empty, >5, <=5, 5..10 (times: >2026-11-21T10:00)'
        : 'Text (contains), =exact, !not, empty, !empty';
      input.addEventListener('input', () => {
        if (input.value.trim()) this.state.filter.columns.set(i, input.value);
        else this.state.filter.columns.delete(i);
        this.refresh();
      });
      cell.appendChild(input);
      row.appendChild(cell);
    });
    return row;
  }

  private startResize(e: PointerEvent, col: number, handle: HTMLElement): void {
    e.preventDefault();
    e.stopPropagation();
    const startX = e.clientX;
    const startWidth = this.headerCells[col].getBoundingClientRect().width;
    handle.classList.add('mt-dragging');
    handle.setPointerCapture?.(e.pointerId);
    const move = (ev: PointerEvent) => this.setWidth(col, startWidth + ev.clientX - startX);
    const up = () => {
      handle.classList.remove('mt-dragging');
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
  }

  /** Recomputes the view (filter + sort) and redraws. */
  private refresh(): void {
    this.viewRows = computeViewRows(this.table, this.state);
    this.selection = emptySelection();
    this.countEl.textContent = rowCountText(this.viewRows.length, this.table.rowCount);
    this.viewport.setAttribute('aria-rowcount', String(this.viewRows.length));
    this.headerCells.forEach((cell, i) => {
      const sorted = this.state.sort?.column === i ? this.state.sort.direction : undefined;
      cell.setAttribute('aria-sort', sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none');
      (cell.querySelector('.mt-sort') as HTMLElement).textContent =
        sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '';
    });
    const headerHeight = 2 * ROW_HEIGHT + 1;
    const wanted = headerHeight + Math.max(1, this.viewRows.length) * ROW_HEIGHT + 2;
    if (!this.viewport.dataset.userSized) this.viewport.style.height = `${Math.min(MAX_VIEWPORT_HEIGHT, wanted)}px`;
    this.draw();
    if (this.chart && !this.chart.element.hidden) this.chart.draw();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private ensurePool(size: number): void {
    while (this.pool.length < size) {
      const row = h('div', { className: 'mt-row', attrs: { role: 'row' } });
      const cells = [this.makeCell(GUTTER, 'mt-cell mt-gutter')];
      this.table.columns.forEach((c, i) => {
        cells.push(this.makeCell(i, cellClass(c)));
      });
      row.append(...cells);
      this.pool.push(row);
      this.poolCells.push(cells);
      this.rowsHost.appendChild(row);
    }
  }

  /** Draws the rows under the current scroll position into the pool. */
  private draw(): void {
    const headerHeight = this.header.offsetHeight || 2 * ROW_HEIGHT;
    const viewportHeight = Math.max(ROW_HEIGHT, (this.viewport.clientHeight || MAX_VIEWPORT_HEIGHT) - headerHeight);
    const win = computeWindow({
      scrollTop: this.viewport.scrollTop,
      viewportHeight,
      rowHeight: ROW_HEIGHT,
      rowCount: this.viewRows.length,
    });
    this.body.style.height = `${Math.max(win.totalHeight, ROW_HEIGHT)}px`;
    this.rowsHost.style.transform = `translateY(${win.offsetTop}px)`;
    this.ensurePool(Math.min(win.count, poolSize(viewportHeight, ROW_HEIGHT), MAX_POOL_ROWS));
    const mode = this.state.timeZone;
    for (let i = 0; i < this.pool.length; i++) {
      const rowEl = this.pool[i];
      const pos = win.first + i;
      if (i >= win.count) {
        rowEl.hidden = true;
        continue;
      }
      rowEl.hidden = false;
      const row = this.viewRows[pos];
      rowEl.dataset.pos = String(pos);
      rowEl.dataset.row = String(row);
      rowEl.setAttribute('aria-rowindex', String(pos + 1));
      rowEl.classList.toggle('mt-selected', isSelected(this.selection, pos));
      const cells = this.poolCells[i];
      cells[0].textContent = String(pos + 1);
      for (let c = 0; c < this.table.columns.length; c++) this.fillCell(cells[c + 1], c, row, mode);
    }
  }

  private fillCell(cell: HTMLElement, col: number, row: number, mode: TimeZoneMode): void {
    const column = this.table.columns[col];
    const text = displayText(column, row, mode);
    if (cell.textContent !== text) cell.textContent = text;
    let tone = '';
    if (column.kind === 'status' && text) tone = statusTone(text);
    else if (column.kind === 'qcAssessment' && text) tone = qcAssessmentTone(text);
    const invalid = isQcInvalid(this.table, this.siblings, col, row);
    cell.classList.toggle('mt-invalid', invalid && column.kind === 'number');
    cell.classList.toggle('mt-tone-bad', tone === 'bad' || (invalid && column.kind === 'qcFlags'));
    cell.classList.toggle('mt-tone-warn', tone === 'warn');
    cell.classList.toggle('mt-tone-ok', tone === 'ok');
    cell.title = invalid && column.kind === 'number' ? `${text} — QC invalid` : text;
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
    this.setStatus(`${selectionSize(this.selection).toLocaleString('en-US')} selected`);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.target instanceof HTMLInputElement) return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      this.selection = selectAll(this.viewRows.length);
      this.draw();
      this.setStatus(`${selectionSize(this.selection).toLocaleString('en-US')} selected`);
    } else if (e.key === 'End' && mod) {
      this.viewport.scrollTop = this.viewport.scrollHeight;
    } else if (e.key === 'Home' && mod) {
      this.viewport.scrollTop = 0;
    }
  }

  private selectionCsv(): string {
    return selectionToCsv(this.table, this.viewRows, this.selection);
  }

  private async copy(): Promise<void> {
    const n = selectionSize(this.selection);
    if (!n) {
      this.setStatus('Select rows first (click, shift-click, Ctrl+A)');
      return;
    }
    try {
      await copyText(this.selectionCsv());
      this.setStatus(`Copied ${n.toLocaleString('en-US')} rows with the header`);
    } catch (err) {
      this.setStatus(`Copy failed: ${(err as Error).message}`);
    }
  }

  private async save(format: SaveFormat): Promise<void> {
    if (!this.options.save) return;
    this.setStatus(`Saving ${this.viewRows.length.toLocaleString('en-US')} rows…`);
    try {
      this.setStatus(await this.options.save(format, this.viewRows));
    } catch (err) {
      this.setStatus(`Save failed: ${(err as Error).message}`);
    }
  }

  private toggleTimeZone(): void {
    this.state.timeZone = this.state.timeZone === 'utc' ? 'local' : 'utc';
    this.timeButton.textContent = this.state.timeZone === 'utc' ? 'UTC' : 'Local';
    // Text filters match what is shown, so a time filter follows the zone.
    this.refresh();
  }

  private toggleChart(): void {
    if (!this.chart) {
      this.chart = new ChartView(
        this.table,
        () => this.viewRows,
        () => this.state.timeZone,
      );
      this.chart.element.hidden = true;
      this.element.appendChild(this.chart.element);
    }
    const showChart = this.chart.element.hidden;
    this.chart.element.hidden = !showChart;
    this.viewport.hidden = showChart;
    this.viewButton.textContent = showChart ? 'Table' : 'Chart';
    this.viewButton.setAttribute('aria-pressed', String(showChart));
    if (showChart) this.chart.draw();
    else this.draw();
    this.options.onViewChange?.(showChart ? 'chart' : 'table');
  }

  private setStatus(text: string): void {
    this.statusEl.textContent = text;
  }

  dispose(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.chart?.destroy();
    for (const d of this.disposers) d();
    this.element.remove();
  }
}
