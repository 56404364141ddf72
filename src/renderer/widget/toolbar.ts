// The widget's toolbar, one line at any width: the filter box, the row count, the tabs, the zone button (the
// notebook's zone or UTC), Columns, Copy, Copy Markdown, Save (when the renderer can save), then a "…" menu
// for what does not fit, and the status.
import type { SaveFormat } from '../../core/notebook/renderer-protocol';
import { button, h } from '../dom/h';
import { type TimeZoneMode, zoneLabel } from '../model/format';
import { type OverflowItem, OverflowMenu } from './overflow';

const SAVE_LABELS: Record<SaveFormat, string> = { csv: 'CSV', parquet: 'Parquet', json: 'JSON' };

interface ToolbarActions {
  filter(text: string): void;
  toggleTimeZone(): void;
  /** Shows or hides the insights strip under the headers. */
  toggleInsights(): void;
  copy(): void;
  copyMarkdown(): void;
  /** Undefined without saving (no messaging). */
  save?: (format: SaveFormat) => void;
}

export class Toolbar {
  readonly element: HTMLElement;
  readonly count = h('span', { className: 'mt-count', attrs: { 'aria-live': 'polite' } });
  private readonly status = h('span', { className: 'mt-status', attrs: { role: 'status' } });
  private readonly timeButton: HTMLButtonElement;
  private readonly insightsButton: HTMLButtonElement;
  private readonly overflow: OverflowMenu;

  /** `tabs` and `columns` come from the view host and the grid's columns. */
  constructor(act: ToolbarActions, tabs: HTMLElement, columns: HTMLElement) {
    const filter = h('input', {
      className: 'mt-filter',
      attrs: { type: 'search', placeholder: 'Filter rows…', 'aria-label': 'Filter all columns' },
    });
    filter.addEventListener('input', () => act.filter(filter.value));
    this.timeButton = button('UTC', "Show times in UTC or in the notebook's time zone", () => act.toggleTimeZone());
    this.timeButton.classList.add('mt-tz');
    this.insightsButton = button(
      'Insights',
      "Show each column's histogram or top values, missing share and distinct count under its header (click a bar or value to filter)",
      () => act.toggleInsights(),
    );
    this.insightsButton.classList.add('mt-insights-toggle');
    this.insightsButton.setAttribute('aria-pressed', 'false');
    const copy = button('Copy', 'Copy the selected rows as CSV with the header (Ctrl+C)', () => act.copy());
    copy.classList.add('mt-copy');
    const copyMd = button('Copy Markdown', 'Copy the selected rows (or the rows shown) as a Markdown table', () =>
      act.copyMarkdown(),
    );
    copyMd.classList.add('mt-copy-md');
    const items: OverflowItem[] = [
      { element: tabs, priority: 90 },
      { element: this.timeButton, priority: 50 },
      { element: this.insightsButton, priority: 45 },
      { element: columns, priority: 60 },
      { element: copy, priority: 40 },
      { element: copyMd, priority: 20 },
    ];
    const save = act.save;
    if (save)
      (['csv', 'parquet', 'json'] as const).forEach((format, k) => {
        const b = button(`Save ${SAVE_LABELS[format]}`, `Save the rows shown as ${format}`, () => save(format));
        b.classList.add(`mt-save-${format}`);
        items.push({ element: b, priority: 30 - 10 * k });
      });
    this.element = h('div', { className: 'mt-toolbar mt-bar' }, [filter, this.count]);
    this.element.append(...items.map((i) => i.element));
    this.overflow = new OverflowMenu(this.element, items);
    this.element.append(this.overflow.element, this.status);
  }

  setStatus(text: string): void {
    this.status.textContent = text;
  }

  /** The zone shown, on the button; hidden when the notebook's zone is UTC (nothing to switch to). */
  setTimeZone(shown: TimeZoneMode, notebook: TimeZoneMode): void {
    this.timeButton.textContent = zoneLabel(shown);
    this.timeButton.hidden = notebook.isUtc;
  }

  setInsights(shown: boolean): void {
    this.insightsButton.setAttribute('aria-pressed', String(shown));
  }

  /** The tabs offered changed: fit the line again. */
  relayout(): void {
    this.overflow.schedule();
  }

  dispose(): void {
    this.overflow.dispose();
  }
}
