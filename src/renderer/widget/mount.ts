// Puts a table widget (with the stylesheet, once per document) into an output element, or the error that kept it
// from being shown.
import uplotCss from 'uplot/dist/uPlot.min.css';
import type { Table } from '../../core/table/table';
import css from '../dom/styles.css';
import { TableWidget, type TableWidgetOptions } from './table-widget';

function ensureStyles(doc: Document): void {
  if (doc.getElementById('measnb-table-styles')) return;
  const style = doc.createElement('style');
  style.id = 'measnb-table-styles';
  style.textContent = `${uplotCss}\n${css}`;
  doc.head.appendChild(style);
}

interface MountOptions extends TableWidgetOptions {
  /** Fill the element's height (table panels): the rows and the chart take the space below the toolbar. */
  fill?: boolean;
}

export function mountTable(element: HTMLElement, table: Table, options: MountOptions = {}): TableWidget {
  ensureStyles(element.ownerDocument);
  const widget = new TableWidget(table, options);
  if (options.fill) widget.element.classList.add('mt-fill');
  element.textContent = '';
  element.appendChild(widget.element);
  return widget;
}

/**
 * Shows why a table cannot be shown, in the one error style of outputs and panels (`.mt-panel-error`, styles.css:
 * VS Code's error colour in every theme) and as an alert for screen readers. The message is text, never HTML.
 */
export function mountError(element: HTMLElement, message: string): void {
  ensureStyles(element.ownerDocument);
  const box = element.ownerDocument.createElement('div');
  box.className = 'mt-panel-error';
  box.setAttribute('role', 'alert');
  box.textContent = message;
  element.replaceChildren(box);
}
