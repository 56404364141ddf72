// The table output: toolbar, notices, a sticky header with per-column filters, and a virtual body whose
// row elements are a fixed pool (bounded DOM whatever the row count). Every value is set as textContent.

import { QUANTILE_DEFINITION } from '../../core/aq/stats';
import type { ResultInfo, SaveFormat } from '../../core/notebook/renderer-protocol';
import { type Column, isNumeric, type Table } from '../../core/table/table';
import { UTC } from '../../core/time/zone';
import { categoryOf, datasourceNameMap, locationColumns, unitOf } from '../model/aq-views';
import { defaultColumnOrder, fitWidth, pinnedColumns, representativeText } from '../model/column-layout';
import { filterGrammar, filterProblems, parseColumnFilter } from '../model/filter';
import { displayText, isRightAligned, resultZone, type TimeZoneMode, zoneLabel } from '../model/format';
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
import { computeViewRows, emptyViewState, nextSort, rowCountText, type ViewState } from '../model/table-view';
import { computeWindow, poolSize } from '../model/virtual-window';
import type { Panel } from '../views/view';
import { CollocationPanel, ExceedancesPanel, ProfilesPanel, SummaryPanel } from './aq-panels';
import { ChartView } from './chart-view';
import { copyText } from './clipboard';
import { button, h } from './h';
import { MapPanel } from './map-view';

const ROW_HEIGHT = 22;
const SAVE_LABELS: Record<SaveFormat, string> = { csv: 'CSV', parquet: 'Parquet', json: 'JSON' };
const MAX_VIEWPORT_HEIGHT = 420;
const GUTTER = -1;
/** Row elements never exceed this, however tall the viewport is dragged. */
const MAX_POOL_ROWS = 400;

export interface TableWidgetOptions {
  info?: ResultInfo;
  /** Saving goes through the extension host; undefined when the renderer has no messaging. */
  save?: (format: SaveFormat, rows: Uint32Array) => Promise<string>;
  /** Saves another table (a view's derived table, e.g. the Summary); undefined without messaging. */
  saveTable?: (table: Table, format: SaveFormat, rows: Uint32Array, name: string) => Promise<string>;
  /** A view's own derived table: no air-quality view buttons, its columns in their own order. */
  plain?: boolean;
  /** Called when the user switches between the rows and the chart. */
  onViewChange?: (view: 'table' | 'chart') => void;
}

const AQ_VIEWS = ['Summary', 'Exceedances', 'Profiles', 'Collocation', 'Map'] as const;
type AqViewName = (typeof AQ_VIEWS)[number];

let measureCtx: CanvasRenderingContext2D | null | undefined;

/** Text width in px in the theme's font (a canvas measures; a rough estimate when there is none). */
function textWidth(text: string, bold: boolean): number {
  if (measureCtx === undefined) measureCtx = document.createElement('canvas').getContext('2d');
  if (!measureCtx) return text.length * (bold ? 8 : 7.6);
  const root = getComputedStyle(document.documentElement);
  const family = root.getPropertyValue('--vscode-font-family').trim() || 'system-ui, sans-serif';
  const size = root.getPropertyValue('--vscode-font-size').trim() || '13px';
  measureCtx.font = `${bold ? '600 ' : ''}${size} ${family}`;
  return measureCtx.measureText(text).width;
}

/** Fits the column to its common values (95th percentile of the first 1,000) or its header and unit. */
function fittedWidth(column: Column, table: Table, unit: string): number {
  const value = representativeText(column, table.rowCount, UTC);
  const header = unit ? `${column.name} ${unit}` : column.name;
  // A chip column (AQI, EPA concentrations) also holds the category's letters (up to "USG").
  const chip = column.kind === 'number' && categoryOf(column, 0) !== undefined ? 34 : 0;
  return fitWidth(textWidth(value, false) + chip, textWidth(header, true), column);
}

function cellClass(column: Column): string {
  if (isRightAligned(column)) return 'mt-cell mt-num';
  if (column.kind === 'time') return 'mt-cell mt-time';
  return 'mt-cell';
}

export class TableWidget {
  readonly element: HTMLElement;
  /** The notebook's zone (ResultInfo.timeZone; UTC without one): the Time button switches between it and UTC. */
  private readonly zone: TimeZoneMode;
  private readonly state: ViewState = emptyViewState();
  private viewRows: Uint32Array;
  private selection: Selection = emptySelection();
  /** Is the value in (column, row) QC-invalid (model/qc: one decision, per-column tests kept). */
  private qcInvalid;
  private readonly viewport: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  private readonly rowsHost: HTMLElement;
  private readonly countEl: HTMLElement;
  private readonly statusEl: HTMLElement;
  /** Header cells by column index. */
  private readonly headerCells: HTMLElement[] = [];
  /** Display order (column indices); hidden columns; every cell of a column (header, filter, pool). */
  private readonly order: number[];
  private readonly hiddenColumns = new Set<number>();
  private pins: number[] = [];
  private readonly cellsByColumn = new Map<number, HTMLElement[]>();
  private readonly pool: HTMLElement[] = [];
  private poolCells: HTMLElement[][] = [];
  private readonly timeButton: HTMLButtonElement;
  private readonly viewButton: HTMLButtonElement;
  private chart?: ChartView;
  private readonly panels = new Map<AqViewName, Panel>();
  private readonly panelButtons = new Map<AqViewName, HTMLButtonElement>();
  private current: 'Table' | 'Chart' | AqViewName = 'Table';
  /** Per column: its unit (µg/m³, AQI) and whether its cells get an AQI chip. */
  private readonly units: string[];
  private readonly chips: boolean[];
  private frame = 0;
  /** The notices under the toolbar (partial, truncated, notes), replaced by setInfo. */
  private noticeEls: HTMLElement[];
  /** A progressive output's line while its rows arrive (or why the rest cannot be shown). */
  private readonly loadingEl = h('div', {
    className: 'mt-notice mt-loading',
    attrs: { role: 'status', hidden: '' },
  });
  /** Says which column filters are invalid and what they accept (hidden while every filter is valid). */
  private readonly filterProblemEl = h('div', {
    className: 'mt-notice mt-filter-problem',
    attrs: { role: 'alert', hidden: '' },
  });
  /** Rows still to come: the chart and the views are redrawn when the last ones are in, not per chunk. */
  private loading = false;
  private readonly disposers: Array<() => void> = [];

  constructor(
    private readonly table: Table,
    private readonly options: TableWidgetOptions = {},
  ) {
    this.qcInvalid = qcInvalidLookup(table);
    this.zone = resultZone(options.info);
    this.state.timeZone = this.zone;
    // A view's derived table (Summary, Exceedances) is already in the order it should be read in.
    this.order = options.plain ? table.columns.map((_, i) => i) : defaultColumnOrder(table);
    this.pins = pinnedColumns(this.order, this.hiddenColumns);
    this.units = table.columns.map((c) =>
      c.kind === 'number' ? unitOf(c) : c.kind === 'time' ? zoneLabel(this.zone) : '',
    );
    this.chips = table.columns.map((c) => c.kind === 'number' && categoryOf(c, 0) !== undefined);
    this.viewRows = computeViewRows(table, this.state);

    this.countEl = h('span', { className: 'mt-count', attrs: { 'aria-live': 'polite' } });
    this.statusEl = h('span', { className: 'mt-status', attrs: { role: 'status' } });
    this.timeButton = button('UTC', "Show times in UTC or in the notebook's time zone", () => this.toggleTimeZone());
    this.timeButton.classList.add('mt-tz');
    this.timeButton.textContent = zoneLabel(this.zone);
    this.timeButton.hidden = this.zone.isUtc;
    this.viewButton = button('Chart', 'Switch between the table and a chart of a metric over time', () =>
      this.show(this.current === 'Table' ? 'Chart' : 'Table'),
    );
    this.viewButton.classList.add('mt-view-toggle');
    const toolbar = this.buildToolbar();

    this.header = h('div', { className: 'mt-header' }, [this.buildHeaderRow(), this.buildFilterRow()]);
    this.rowsHost = h('div', { className: 'mt-rows' });
    this.body = h('div', { className: 'mt-body' }, [this.rowsHost]);
    this.viewport = h('div', {
      className: 'mt-viewport',
      attrs: { tabindex: '0', role: 'grid', 'aria-rowcount': String(table.rowCount) },
    });
    this.viewport.append(this.header, this.body);
    this.listenViewport();

    this.noticeEls = this.notices();
    this.element = h('div', { className: 'measnb-table' }, [
      toolbar,
      ...this.noticeEls,
      this.loadingEl,
      this.filterProblemEl,
      this.viewport,
    ]);
    this.table.columns.forEach((c, i) => {
      this.setWidth(i, fittedWidth(c, table, this.units[i]));
    });
    this.setWidth(GUTTER, Math.max(40, String(table.rowCount).length * 9 + 18));
    this.refresh();
  }

  /** The toolbar: the filter box, the row count, UTC, Chart, the views, Columns, Copy, Save, the status. */
  private buildToolbar(): HTMLElement {
    const filter = h('input', {
      className: 'mt-filter',
      attrs: { type: 'search', placeholder: 'Filter rows…', 'aria-label': 'Filter all columns' },
    });
    filter.addEventListener('input', () => {
      this.state.filter.global = filter.value;
      this.refresh();
    });
    const copy = button('Copy', 'Copy the selected rows as CSV with the header (Ctrl+C)', () => void this.copy());
    copy.classList.add('mt-copy');
    const copyMarkdown = button('Copy Markdown', 'Copy the selected rows (or the rows shown) as a Markdown table', () =>
      this.copyMarkdown(),
    );
    copyMarkdown.classList.add('mt-copy-md');
    const toolbar = h('div', { className: 'mt-toolbar' }, [
      filter,
      this.countEl,
      this.timeButton,
      this.viewButton,
      this.aqViewButtons(),
      this.buildColumnMenu(),
      copy,
      copyMarkdown,
    ]);
    if (this.options.save) {
      for (const format of ['csv', 'parquet', 'json'] as const) {
        const b = button(
          `Save ${SAVE_LABELS[format]}`,
          `Save the rows shown as ${format}`,
          () => void this.save(format),
        );
        b.classList.add(`mt-save-${format}`);
        toolbar.appendChild(b);
      }
    }
    toolbar.appendChild(this.statusEl);
    return toolbar;
  }

  /** Scrolling, keys, row clicks, Ctrl+C on the selection, and resizing of the viewport. */
  private listenViewport(): void {
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
  }

  private aqViewButtons(): HTMLElement | null {
    if (this.options.plain) return null;
    const group = h('span', { className: 'mt-views', attrs: { role: 'group', 'aria-label': 'Air-quality views' } });
    const titles: Record<AqViewName, string> = {
      Summary: `Per datasource × metric: count, completeness, min/mean/median/p98/max, QC-invalid values. Median and p98: ${QUANTILE_DEFINITION}`,
      Exceedances: 'Periods above a threshold per datasource, with the threshold on the chart',
      Profiles: 'Diurnal and weekday profiles (mean and interquartile band), one line per datasource',
      Collocation: 'A sensor against a reference site: scatter, OLS, EPA PM2.5 sensor targets',
      Map: 'Datasource locations on an offline map, coloured by the latest AQI category',
    };
    // A result without locations (a sql aggregate, say) has nothing to map: no Map button.
    const offered = AQ_VIEWS.filter((name) => name !== 'Map' || locationColumns(this.table) !== undefined);
    for (const name of offered) {
      const b = button(name, titles[name], () => this.show(this.current === name ? 'Table' : name));
      b.classList.add(`mt-view-${name.toLowerCase()}`);
      b.setAttribute('aria-pressed', 'false');
      this.panelButtons.set(name, b);
      group.appendChild(b);
    }
    return group;
  }

  private panel(name: AqViewName): Panel {
    let p = this.panels.get(name);
    if (p) return p;
    const ctx = {
      table: this.table,
      rows: () => this.viewRows,
      timeZone: () => this.state.timeZone,
      referenceSites: Array.isArray(this.options.info?.referenceSites) ? this.options.info.referenceSites : undefined,
      datasourceNames: datasourceNameMap(this.table, this.options.info?.datasourceNames),
      nestedTable: (table: Table, title: string) => {
        const save = this.options.saveTable;
        return new TableWidget(table, {
          plain: true,
          info: { title, timeZone: this.options.info?.timeZone },
          save: save ? (format, rows) => save(table, format, rows, title) : undefined,
        });
      },
    };
    p =
      name === 'Summary'
        ? new SummaryPanel(ctx)
        : name === 'Exceedances'
          ? new ExceedancesPanel(ctx)
          : name === 'Profiles'
            ? new ProfilesPanel(ctx)
            : name === 'Collocation'
              ? new CollocationPanel(ctx)
              : new MapPanel(ctx);
    p.element.hidden = true;
    this.element.appendChild(p.element);
    this.panels.set(name, p);
    return p;
  }

  /**
   * A progressive output: the table has grown (its rows and arrays advanced in place, core/table/row-chunks).
   * The rows view follows at once; an open chart or view is redrawn when the last rows are in.
   */
  rowsArrived(loaded: number, total: number): void {
    this.loading = loaded < total;
    this.qcInvalid = qcInvalidLookup(this.table);
    this.setWidth(GUTTER, Math.max(40, String(total).length * 9 + 18));
    const fmt = (n: number) => n.toLocaleString('en-US');
    this.loadingEl.hidden = !this.loading;
    this.loadingEl.classList.remove('mt-truncated');
    this.loadingEl.textContent = this.loading
      ? `Loading rows ${fmt(loaded)} of ${fmt(total)}… Sorting, filtering, the chart and the views cover the ${fmt(loaded)} rows loaded so far.`
      : '';
    if (!this.loading) this.setStatus(`All ${fmt(total)} rows loaded`);
    this.refresh(!this.loading);
  }

  /** A progressive output whose other rows cannot be had: the rows shown stay, and the notice says why. */
  rowsUnavailable(loaded: number, total: number, why: string): void {
    this.loading = false;
    const fmt = (n: number) => n.toLocaleString('en-US');
    this.loadingEl.hidden = false;
    this.loadingEl.classList.add('mt-truncated');
    this.loadingEl.textContent = `Showing the first ${fmt(loaded)} of ${fmt(total)} rows: the other rows cannot be loaded (${why}). Sorting, filtering, the chart and the views cover these rows; run the cell again for all of them.`;
    this.refresh();
  }

  /** New result info (e.g. the row count of a file, known once the rest of it is counted): new notices. */
  setInfo(info: ResultInfo): void {
    this.options.info = info;
    const next = this.notices();
    for (const el of this.noticeEls) el.remove();
    this.viewport.before(...next);
    this.noticeEls = next;
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
    if (col === GUTTER) cell.classList.add('mt-pin');
    else {
      const list = this.cellsByColumn.get(col) ?? [];
      list.push(cell);
      this.cellsByColumn.set(col, list);
      this.styleColumnCell(cell, col);
    }
    return cell;
  }

  /** Hidden columns' cells are not shown; the first two visible ones stay in place while scrolling sideways. */
  private styleColumnCell(cell: HTMLElement, col: number): void {
    cell.hidden = this.hiddenColumns.has(col);
    const p = this.pins.indexOf(col);
    cell.classList.toggle('mt-pin', p >= 0);
    cell.classList.toggle('mt-pin-last', p === this.pins.length - 1);
    cell.style.left =
      p === 0 ? 'var(--mt-w-gutter)' : p === 1 ? `calc(var(--mt-w-gutter) + var(${this.widthVar(this.pins[0])}))` : '';
  }

  /** Shows or hides a column (the column menu). */
  setColumnHidden(col: number, hidden: boolean): void {
    if (hidden) this.hiddenColumns.add(col);
    else this.hiddenColumns.delete(col);
    this.pins = pinnedColumns(this.order, this.hiddenColumns);
    for (const [c, cells] of this.cellsByColumn) for (const cell of cells) this.styleColumnCell(cell, c);
  }

  private buildColumnMenu(): HTMLElement {
    const list = h('div', { className: 'mt-colmenu', attrs: { role: 'group', 'aria-label': 'Columns shown' } });
    list.hidden = true;
    for (const col of this.order) {
      const box = h('input', { attrs: { type: 'checkbox', 'data-col': String(col) } });
      box.checked = true;
      box.addEventListener('change', () => this.setColumnHidden(col, !box.checked));
      const unit = this.units[col];
      list.appendChild(
        h('label', { className: 'mt-colmenu-item' }, [
          box,
          h('span', { text: unit ? `${this.table.columns[col].name} [${unit}]` : this.table.columns[col].name }),
        ]),
      );
    }
    const toggle = button('Columns', 'Show or hide columns', () => {
      list.hidden = !list.hidden;
      toggle.setAttribute('aria-expanded', String(!list.hidden));
    });
    toggle.classList.add('mt-columns');
    toggle.setAttribute('aria-expanded', 'false');
    return h('span', { className: 'mt-colmenu-host' }, [toggle, list]);
  }

  private buildHeaderRow(): HTMLElement {
    const row = h('div', { className: 'mt-row mt-hrow', attrs: { role: 'row' } });
    row.appendChild(this.makeCell(GUTTER, 'mt-cell mt-gutter'));
    for (const i of this.order) {
      const column = this.table.columns[i];
      const cell = this.makeCell(i, `${cellClass(column)} mt-hcell`);
      cell.setAttribute('role', 'columnheader');
      cell.setAttribute('aria-sort', 'none');
      cell.dataset.col = String(i);
      const unit = this.units[i];
      cell.title = `${column.name}${unit ? ` [${unit}]` : ''} (${column.kind}) — click to sort`;
      cell.append(h('span', { className: 'mt-hname', text: column.name }));
      if (unit) cell.append(h('span', { className: 'mt-unit', text: unit }));
      cell.append(h('span', { className: 'mt-sort' }));
      const resizer = h('div', { className: 'mt-resizer', attrs: { 'aria-hidden': 'true' } });
      resizer.addEventListener('pointerdown', (e) => this.startResize(e, i, resizer));
      resizer.addEventListener('click', (e) => e.stopPropagation());
      cell.appendChild(resizer);
      cell.addEventListener('click', () => {
        this.state.sort = nextSort(this.state.sort, i);
        this.refresh();
      });
      this.headerCells[i] = cell;
      row.appendChild(cell);
    }
    return row;
  }

  private buildFilterRow(): HTMLElement {
    const row = h('div', { className: 'mt-row mt-frow' });
    row.appendChild(this.makeCell(GUTTER, 'mt-cell mt-gutter'));
    for (const i of this.order) {
      const column = this.table.columns[i];
      const cell = this.makeCell(i, 'mt-cell mt-fcell');
      const input = h('input', {
        attrs: {
          type: 'text',
          placeholder: isNumeric(column) ? '>, <, a..b' : 'filter',
          'aria-label': `Filter ${column.name}`,
          'data-col': String(i),
        },
      });
      const grammar = `Filter: ${filterGrammar(column)}`;
      input.title = grammar;
      input.addEventListener('input', () => {
        if (input.value.trim()) this.state.filter.columns.set(i, input.value);
        else this.state.filter.columns.delete(i);
        const parsed = parseColumnFilter(input.value, column);
        const invalid = parsed?.kind === 'invalid';
        input.classList.toggle('mt-invalid', invalid);
        input.setAttribute('aria-invalid', String(invalid));
        input.title = invalid ? parsed.message : grammar;
        this.refresh();
      });
      cell.appendChild(input);
      row.appendChild(cell);
    }
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
  private refresh(drawViews = true): void {
    this.viewRows = computeViewRows(this.table, this.state);
    this.selection = emptySelection();
    this.countEl.textContent = rowCountText(this.viewRows.length, this.table.rowCount);
    const problems = filterProblems(this.table, this.state.filter);
    this.filterProblemEl.hidden = problems.length === 0;
    this.filterProblemEl.textContent = problems.map((p) => p.message).join(' · ');
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
    if (!drawViews) return;
    if (this.chart && !this.chart.element.hidden) this.chart.draw();
    for (const p of this.panels.values()) if (!p.element.hidden) p.draw();
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
      for (const i of this.order) cells.push(this.makeCell(i, cellClass(this.table.columns[i])));
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
      for (let k = 0; k < this.order.length; k++) {
        const c = this.order[k];
        if (!this.hiddenColumns.has(c)) this.fillCell(cells[k + 1], c, row, mode);
      }
    }
  }

  private fillCell(cell: HTMLElement, col: number, row: number, mode: TimeZoneMode): void {
    const column = this.table.columns[col];
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
    const unit = this.units[col];
    let title = unit && text ? `${text} ${unit}` : text;
    if (this.chips[col]) {
      const category = text ? categoryOf(column, (column as { values: Float64Array }).values[row]) : undefined;
      if (category) {
        cell.style.setProperty('--mt-aqi', category.colour);
        cell.style.setProperty('--mt-aqi-text', category.textColour);
        cell.dataset.aqi = category.name;
        cell.dataset.aqiAbbr = category.abbr;
        title += ` — AQI category: ${category.name}`;
      } else {
        delete cell.dataset.aqi;
        delete cell.dataset.aqiAbbr;
      }
      cell.classList.toggle('mt-aqi', category !== undefined);
    }
    cell.title = invalid && column.kind === 'number' ? `${title} — QC invalid` : title;
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

  private async copyMarkdown(): Promise<void> {
    const { text, status } = markdownOfRows(this.table, this.viewRows, this.selection);
    try {
      await copyText(text);
      this.setStatus(status);
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
    this.state.timeZone = this.state.timeZone.isUtc ? this.zone : UTC;
    const label = zoneLabel(this.state.timeZone);
    this.timeButton.textContent = label;
    this.table.columns.forEach((c, i) => {
      if (c.kind !== 'time') return;
      this.units[i] = label;
      const unit = this.headerCells[i]?.querySelector('.mt-unit');
      if (unit) unit.textContent = label;
    });
    // Text filters match what is shown, so a time filter follows the zone.
    this.refresh();
  }

  /** Shows one view: the table, the chart or an air-quality view (the others are hidden, kept for later). */
  private show(view: 'Table' | 'Chart' | AqViewName): void {
    this.current = view;
    if (view === 'Chart' && !this.chart) {
      this.chart = new ChartView(
        this.table,
        () => this.viewRows,
        () => this.state.timeZone,
      );
      this.chart.element.hidden = true;
      this.element.appendChild(this.chart.element);
    }
    const panel = view !== 'Table' && view !== 'Chart' ? this.panel(view) : undefined;
    this.viewport.hidden = view !== 'Table';
    if (this.chart) this.chart.element.hidden = view !== 'Chart';
    for (const [name, p] of this.panels) p.element.hidden = name !== view;
    for (const [name, b] of this.panelButtons) b.setAttribute('aria-pressed', String(name === view));
    this.viewButton.textContent = view === 'Table' ? 'Chart' : 'Table';
    this.viewButton.setAttribute('aria-pressed', String(view === 'Chart'));
    if (view === 'Chart') this.chart!.draw();
    else if (panel) panel.draw();
    else this.draw();
    if (view === 'Table' || view === 'Chart') this.options.onViewChange?.(view === 'Chart' ? 'chart' : 'table');
  }

  private setStatus(text: string): void {
    this.statusEl.textContent = text;
  }

  dispose(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.chart?.destroy();
    for (const p of this.panels.values()) p.destroy();
    for (const d of this.disposers) d();
    this.element.remove();
  }
}
