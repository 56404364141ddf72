// The grid's columns: display order, hidden ones, the two pinned ones, widths (CSS variables on the widget's
// element, fitted to common values), units and AQI chips, and every cell of a column (header, filter, pool).
import { headerLines } from '../../core/metrics/labels';
import type { Column, Table } from '../../core/table/table';
import { UTC } from '../../core/time/zone';
import { h } from '../dom/h';
import { categoryOf, unitOf } from '../model/aq-views';
import { defaultColumnOrder, fitWidth, pinnedColumns, representativeText, timeWidthText } from '../model/column-layout';
import { isRightAligned, type TimeZoneMode, zoneLabel } from '../model/format';

/** The row number column. */
export const GUTTER = -1;

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

/** The digit drawn widest in the theme's font: a time's tabular digits are each this wide. */
function widestDigit(): string {
  let widest = '0';
  for (const d of '123456789') if (textWidth(d, false) > textWidth(widest, false)) widest = d;
  return widest;
}

/**
 * Fits the column to its common values (95th percentile of the first 1,000; a time column to its longest, with
 * tabular digits) or its header and unit.
 */
function fittedWidth(column: Column, table: Table, unit: string, chip: boolean): number {
  const value =
    column.kind === 'time'
      ? timeWidthText(column, table.rowCount, UTC, 1000, widestDigit())
      : representativeText(column, table.rowCount, UTC);
  return fitWidth(textWidth(value, false) + (chip ? 40 : 0), headerWidth(column, unit), column);
}

/** The header's width: its name and unit, or a metric's wider line of two (grid-header.ts). */
function headerWidth(column: Column, unit: string): number {
  if (!column.metric) return textWidth(unit ? `${column.name} ${unit}` : column.name, true);
  const { metric, detail } = headerLines(column.metric);
  return Math.max(textWidth(metric, true), textWidth(unit ? `${detail} ${unit}` : detail, false));
}

export function cellClass(column: Column): string {
  if (isRightAligned(column)) return 'mt-cell mt-num';
  if (column.kind === 'time') return 'mt-cell mt-time';
  return 'mt-cell';
}

export class GridColumns {
  /** Display order (column indices). */
  readonly order: number[];
  readonly hidden = new Set<number>();
  /** Per column: its unit (µg/m³, AQI) and whether its cells get an AQI chip. */
  readonly units: string[];
  readonly chips: boolean[];
  private pins: number[];
  private readonly cellsByColumn = new Map<number, HTMLElement[]>();

  constructor(
    private readonly table: Table,
    /** The element whose CSS variables hold the widths. */
    private readonly host: HTMLElement,
    plain: boolean,
    zone: TimeZoneMode = UTC,
  ) {
    // A view's derived table (Summary, Exceedances) is already in the order it should be read in.
    this.order = plain ? table.columns.map((_, i) => i) : defaultColumnOrder(table);
    this.pins = pinnedColumns(this.order, this.hidden);
    this.units = table.columns.map((c) => (c.kind === 'number' ? unitOf(c) : c.kind === 'time' ? zoneLabel(zone) : ''));
    this.chips = table.columns.map((c) => c.kind === 'number' && categoryOf(c, 0) !== undefined);
  }

  /** The time columns' headers name the zone their times are shown in. */
  setTimeZone(zone: TimeZoneMode): void {
    const label = zoneLabel(zone);
    this.table.columns.forEach((c, i) => {
      if (c.kind !== 'time') return;
      this.units[i] = label;
      const unit = this.cellsByColumn.get(i)?.[0]?.querySelector('.mt-unit');
      if (unit) unit.textContent = label;
    });
  }

  /** Every column fitted to its values, the gutter to the row count. */
  fitAll(): void {
    this.table.columns.forEach((c, i) => {
      this.setWidth(i, fittedWidth(c, this.table, this.units[i], this.chips[i]));
    });
    this.fitGutter(this.table.rowCount);
  }

  fitGutter(rows: number): void {
    this.setWidth(GUTTER, Math.max(40, String(rows).length * 9 + 18));
  }

  widthVar(col: number): string {
    return col === GUTTER ? '--mt-w-gutter' : `--mt-w-${col}`;
  }

  setWidth(col: number, px: number): void {
    this.host.style.setProperty(this.widthVar(col), `${Math.max(36, Math.round(px))}px`);
  }

  /** A cell of a column, sized by its width variable, pinned and hidden with it. */
  makeCell(col: number, className: string): HTMLElement {
    const cell = h('div', { className });
    cell.style.width = `var(${this.widthVar(col)})`;
    if (col === GUTTER) cell.classList.add('mt-pin');
    else {
      const list = this.cellsByColumn.get(col) ?? [];
      list.push(cell);
      this.cellsByColumn.set(col, list);
      this.styleCell(cell, col);
    }
    return cell;
  }

  /** Hidden columns' cells are not shown; the first two visible ones stay in place while scrolling sideways. */
  private styleCell(cell: HTMLElement, col: number): void {
    cell.hidden = this.hidden.has(col);
    const p = this.pins.indexOf(col);
    cell.classList.toggle('mt-pin', p >= 0);
    cell.classList.toggle('mt-pin-last', p === this.pins.length - 1);
    cell.style.left =
      p === 0 ? 'var(--mt-w-gutter)' : p === 1 ? `calc(var(--mt-w-gutter) + var(${this.widthVar(this.pins[0])}))` : '';
  }

  /** Shows or hides a column (the column menu). */
  setHidden(col: number, hidden: boolean): void {
    if (hidden) this.hidden.add(col);
    else this.hidden.delete(col);
    this.pins = pinnedColumns(this.order, this.hidden);
    for (const [c, cells] of this.cellsByColumn) for (const cell of cells) this.styleCell(cell, c);
  }

  /** The column's name with its unit, as the menu and tooltips show it. */
  label(col: number): string {
    const unit = this.units[col];
    return unit ? `${this.table.columns[col].name} [${unit}]` : this.table.columns[col].name;
  }

  /** The "Columns" button and its menu of checkboxes (one per column, in display order). */
  menu(): HTMLElement {
    const list = h('div', { className: 'mt-colmenu', attrs: { role: 'group', 'aria-label': 'Columns shown' } });
    list.hidden = true;
    for (const col of this.order) {
      const box = h('input', { attrs: { type: 'checkbox', 'data-col': String(col) } });
      box.checked = true;
      box.addEventListener('change', () => this.setHidden(col, !box.checked));
      list.appendChild(h('label', { className: 'mt-colmenu-item' }, [box, h('span', { text: this.label(col) })]));
    }
    const toggle = h('button', { className: 'mt-columns', text: 'Columns', title: 'Show or hide columns' });
    toggle.type = 'button';
    toggle.addEventListener('click', () => {
      list.hidden = !list.hidden;
      toggle.setAttribute('aria-expanded', String(!list.hidden));
    });
    toggle.setAttribute('aria-expanded', 'false');
    return h('span', { className: 'mt-colmenu-host' }, [toggle, list]);
  }
}
