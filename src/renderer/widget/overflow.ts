// Keeps a toolbar on one line: when its items do not fit its width, the least needed ones move, in order of
// priority, into a "…" menu at its end (the same elements, so their handlers and class names stay).
import { h } from '../dom/h';

export interface OverflowItem {
  readonly element: HTMLElement;
  /** Higher stays in the bar longer. */
  readonly priority: number;
}

export class OverflowMenu {
  /** The "…" button and its menu (put it in the bar after the items). */
  readonly element: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly menu: HTMLElement;
  /** Where each item sits in the bar when it fits (a comment node before it). */
  private readonly anchors = new Map<HTMLElement, Comment>();
  private frame = 0;
  private resize?: ResizeObserver;

  constructor(
    private readonly bar: HTMLElement,
    private readonly items: readonly OverflowItem[],
  ) {
    this.menu = h('div', { className: 'mt-more-menu', attrs: { role: 'menu', 'aria-label': 'More actions' } });
    this.menu.hidden = true;
    this.button = h('button', { className: 'mt-more', text: '…', title: 'More actions' });
    this.button.type = 'button';
    this.button.setAttribute('aria-haspopup', 'menu');
    this.button.setAttribute('aria-expanded', 'false');
    this.button.addEventListener('click', () => this.open(this.menu.hidden));
    // A click on an action (not on the column list's checkboxes) closes the menu.
    this.menu.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('button:not(.mt-columns)')) this.open(false);
    });
    this.menu.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.open(false);
    });
    this.element = h('span', { className: 'mt-more-host' }, [this.button, this.menu]);
    this.element.hidden = true;
    if (typeof ResizeObserver !== 'undefined') {
      this.resize = new ResizeObserver(() => this.schedule());
      this.resize.observe(bar);
    }
  }

  private open(open: boolean): void {
    this.menu.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
  }

  /** Lays the bar out again on the next frame (after its width or its items changed). */
  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.layout();
    });
  }

  /** Every item back in the bar, then the least needed ones into the menu until the bar fits. */
  layout(): void {
    if (!this.bar.clientWidth) return; // not laid out (a hidden output): later
    for (const { element } of this.items) {
      let anchor = this.anchors.get(element);
      if (!anchor) {
        anchor = document.createComment('');
        element.before(anchor);
        this.anchors.set(element, anchor);
      }
      anchor.after(element);
    }
    this.element.hidden = true;
    if (!this.overflows()) {
      this.open(false);
      return;
    }
    this.element.hidden = false;
    const byNeed = [...this.items].sort((a, b) => a.priority - b.priority);
    const moved: HTMLElement[] = [];
    for (const { element } of byNeed) {
      if (!this.overflows()) break;
      moved.push(element);
      element.remove();
    }
    // In the menu in the bar's order.
    const order = this.items.map((i) => i.element);
    this.menu.append(...moved.sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  }

  private overflows(): boolean {
    return this.bar.scrollWidth > this.bar.clientWidth + 1;
  }

  dispose(): void {
    this.resize?.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
  }
}
