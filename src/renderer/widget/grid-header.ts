// The grid's sticky header: a row of column names (unit beside, click to sort, drag the edge to resize) and
// a row of per-column filters (marked when invalid, the grammar in the tooltip).
import { headerLines } from '../../core/metrics/labels';
import { type Column, isNumeric, type Table } from '../../core/table/table';
import { h } from '../dom/h';
import { filterGrammar, parseColumnFilter } from '../model/filter';
import { cellClass, type GridColumns, GUTTER } from './columns';

export interface HeaderActions {
  sort(col: number): void;
  /** A column filter's text changed ('' clears it). */
  filter(col: number, text: string): void;
}

function startResize(e: PointerEvent, cell: HTMLElement, handle: HTMLElement, resize: (px: number) => void): void {
  e.preventDefault();
  e.stopPropagation();
  const startX = e.clientX;
  const startWidth = cell.getBoundingClientRect().width;
  handle.classList.add('mt-dragging');
  handle.setPointerCapture?.(e.pointerId);
  const move = (ev: PointerEvent) => resize(startWidth + ev.clientX - startX);
  const up = () => {
    handle.classList.remove('mt-dragging');
    handle.removeEventListener('pointermove', move);
    handle.removeEventListener('pointerup', up);
  };
  handle.addEventListener('pointermove', move);
  handle.addEventListener('pointerup', up);
}

/**
 * A header's text: its name and unit on one line; a metric's on two (the quantity and index, then aggregation ·
 * field and the unit: what tells its columns apart), its canonical name kept for screen readers and the tooltip.
 */
function headerText(column: Column, unit: string): HTMLElement[] {
  const unitEl = () => h('span', { className: 'mt-unit', text: unit });
  if (!column.metric) return [h('span', { className: 'mt-hname', text: column.name }), ...(unit ? [unitEl()] : [])];
  const { metric, detail } = headerLines(column.metric);
  const second = h('span', { className: 'mt-hdetail', text: detail });
  if (unit) second.append(unitEl());
  return [
    h('span', { className: 'mt-hname mt-sr', text: column.name }),
    h('span', { className: 'mt-hlines', attrs: { 'aria-hidden': 'true' } }, [
      h('span', { className: 'mt-hmetric', text: metric }),
      second,
    ]),
  ];
}

/** The header row; `cells[col]` gets each column's header cell (for the sort marks). */
export function headerRow(table: Table, cols: GridColumns, act: HeaderActions, cells: HTMLElement[]): HTMLElement {
  const row = h('div', { className: 'mt-row mt-hrow', attrs: { role: 'row' } });
  // Two lines when a metric's header has them.
  row.classList.toggle(
    'mt-hrow-2',
    table.columns.some((c) => c.metric),
  );
  row.appendChild(cols.makeCell(GUTTER, 'mt-cell mt-gutter'));
  for (const i of cols.order) {
    const column = table.columns[i];
    const cell = cols.makeCell(i, `${cellClass(column)} mt-hcell`);
    cell.setAttribute('role', 'columnheader');
    cell.setAttribute('aria-sort', 'none');
    cell.dataset.col = String(i);
    const unit = cols.units[i];
    cell.title = `${cols.label(i)} (${column.kind}) — click to sort`;
    cell.append(...headerText(column, unit), h('span', { className: 'mt-sort' }));
    const resizer = h('div', { className: 'mt-resizer', attrs: { 'aria-hidden': 'true' } });
    resizer.addEventListener('pointerdown', (e) => startResize(e, cell, resizer, (px) => cols.setWidth(i, px)));
    resizer.addEventListener('click', (e) => e.stopPropagation());
    cell.appendChild(resizer);
    cell.addEventListener('click', () => act.sort(i));
    cells[i] = cell;
    row.appendChild(cell);
  }
  return row;
}

/** The filter row: one input per column; `inputs[col]` gets each column's input. */
export function filterRow(
  table: Table,
  cols: GridColumns,
  act: HeaderActions,
  inputs: HTMLInputElement[],
): HTMLElement {
  const row = h('div', { className: 'mt-row mt-frow' });
  row.appendChild(cols.makeCell(GUTTER, 'mt-cell mt-gutter'));
  for (const i of cols.order) {
    const column = table.columns[i];
    const cell = cols.makeCell(i, 'mt-cell mt-fcell');
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
      const parsed = parseColumnFilter(input.value, column);
      const invalid = parsed?.kind === 'invalid';
      input.classList.toggle('mt-invalid', invalid);
      input.setAttribute('aria-invalid', String(invalid));
      input.title = invalid ? parsed.message : grammar;
      act.filter(i, input.value.trim() ? input.value : '');
    });
    cell.appendChild(input);
    inputs[i] = input;
    row.appendChild(cell);
  }
  return row;
}
