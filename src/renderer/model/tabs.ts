// The widget's tabs: the rows ('table') first, then each view that applies to the table, in the registry's
// order (views/registry.ts). Asked of the whole table, so the tabs stay put while the user filters; asked
// again when a progressive output's rows have all arrived.
import type { Table } from '../../core/table/table';

/** The rows' tab: always offered, first. */
export const TABLE_TAB = 'table';

export interface TabView {
  readonly name: string;
  applies(table: Table): boolean;
}

/** The tabs offered: the rows, then the views that apply (none for a view's own derived table, `plain`). */
export function offeredTabs(table: Table, views: readonly TabView[], plain = false): string[] {
  return [TABLE_TAB, ...(plain ? [] : views.filter((v) => v.applies(table)).map((v) => v.name))];
}

/** The tab shown once the offer changed: the current one while it is offered, else the rows. */
export function keptTab(current: string, offered: readonly string[]): string {
  return offered.includes(current) ? current : TABLE_TAB;
}
