// The tabs (Table, then every view of the registry that applies) and the views' panels: a panel is made when
// its tab is first opened, kept (hidden) when another is, and redrawn when the rows change while it is shown.
import type { Table } from '../../core/table/table';
import { h } from '../dom/h';
import { keptTab, offeredTabs, TABLE_TAB } from '../model/tabs';
import type { Panel, PanelContext, ViewDefinition } from '../views/view';
import { type ImageActions, ImageBar } from './image-bar';

interface ViewHostOptions {
  table: Table;
  views: readonly ViewDefinition[];
  /** A view's derived table: the rows only. */
  plain: boolean;
  /** Where panels go (after the rows' viewport). */
  container: HTMLElement;
  /** The rows' element, shown on the Table tab. */
  rowsView: HTMLElement;
  context: () => PanelContext;
  /** Called after a tab is shown (the rows are redrawn by the widget). */
  onShow: (name: string) => void;
  /** Saving a view's image (views/view.ts `image`) and the status line. */
  image: ImageActions;
}

export class ViewHost {
  /** The tab buttons (role tablist); hidden when the rows are the only tab. */
  readonly tabs: HTMLElement;
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly panels = new Map<string, Panel>();
  private current = TABLE_TAB;
  /** "Save image…" above the view shown, when it draws one. */
  private readonly imageBar: ImageBar;

  constructor(private readonly o: ViewHostOptions) {
    this.imageBar = new ImageBar(o.image);
    this.tabs = h('span', { className: 'mt-tabs', attrs: { role: 'tablist', 'aria-label': 'Views' } });
    const all = [{ name: TABLE_TAB, title: 'Table', tooltip: 'The rows: sort, filter, select, copy' }, ...o.views];
    for (const v of all) {
      const b = h('button', { className: `mt-tab mt-view-${v.name}`, text: v.title, title: v.tooltip });
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.setAttribute('aria-selected', String(v.name === TABLE_TAB));
      b.addEventListener('click', () => this.show(v.name));
      this.buttons.set(v.name, b);
      this.tabs.appendChild(b);
    }
    this.update();
  }

  /** The tab shown: 'table' or a view's name. */
  get shown(): string {
    return this.current;
  }

  /** Offers the tabs that apply now (only the offered ones are in the DOM); a tab no longer offered closes. */
  update(): void {
    const offered = offeredTabs(this.o.table, this.o.views, this.o.plain);
    for (const [name, b] of this.buttons) {
      if (offered.includes(name)) this.tabs.appendChild(b);
      else b.remove();
    }
    this.tabs.hidden = offered.length < 2;
    const kept = keptTab(this.current, offered);
    if (kept !== this.current) this.show(kept);
  }

  /** Shows a tab if it is offered now (a tab remembered from an earlier output may not be). */
  open(name: string): void {
    if (name !== this.current && this.buttons.get(name)?.parentElement === this.tabs) this.show(name);
  }

  /** Shows one tab: the rows or a view (the others hidden, kept for later). */
  show(name: string): void {
    this.current = name;
    const panel = name === TABLE_TAB ? undefined : this.panel(name);
    this.o.rowsView.hidden = name !== TABLE_TAB;
    for (const [n, p] of this.panels) p.element.hidden = n !== name;
    for (const [n, b] of this.buttons) b.setAttribute('aria-selected', String(n === name));
    panel?.draw();
    this.imageBar.setPanel(panel);
    this.o.onShow(name);
  }

  /** Redraws the view shown (the rows changed). */
  drawShown(): void {
    if (this.current !== TABLE_TAB) this.panels.get(this.current)?.draw();
  }

  private panel(name: string): Panel | undefined {
    let p = this.panels.get(name);
    if (p) return p;
    const view = this.o.views.find((v) => v.name === name);
    if (!view) return undefined;
    p = view.create(this.o.context());
    p.element.hidden = true;
    if (!this.imageBar.element.isConnected) this.o.container.appendChild(this.imageBar.element);
    this.o.container.appendChild(p.element);
    this.panels.set(name, p);
    return p;
  }

  dispose(): void {
    for (const p of this.panels.values()) p.destroy();
  }
}
