// What a view beside Table and Chart is: one module per view under src/renderer/views/<name>.ts exports a
// ViewDefinition; the table widget reads the registry (src/renderer/views/registry.ts) and offers each view
// whose `applies` says so. docs/ARCHITECTURE.md: "add a view".
import type { StyleSlots } from '../../core/aq/line-styles';
import type { FullSummary, SummaryPlan } from '../../core/notebook/renderer-protocol';
import type { Table } from '../../core/table/table';
import type { TimeZoneMode } from '../model/format';

/** A derived table shown by the table widget (sortable, filterable, copyable, savable). */
export interface NestedTable {
  readonly element: HTMLElement;
  dispose(): void;
}

/** What a view is given: the table, the rows shown (filters applied) and the widget's services. */
export interface PanelContext {
  table: Table;
  rows: () => Uint32Array;
  /**
   * The zone times are shown and days, hours of day and weekdays counted in (core/time/zone): the notebook's
   * (ResultInfo.timeZone, with its day boundary), or UTC when the table's zone button says so. Never the machine's.
   */
  timeZone: () => TimeZoneMode;
  /** Reference-site datasource ids the host knows (ResultInfo.referenceSites; results without sourceType). */
  referenceSites?: readonly unknown[];
  /** Datasource names by id (ResultInfo.datasourceNames or a name column), for choices and hovers. */
  datasourceNames?: ReadonlyMap<string, string>;
  /** Each datasource's line style slot from the connection (ResultInfo.datasourceStyles, checked): its colour in every result. */
  styleSlots?: StyleSlots;
  /**
   * The rows of the data the table holds: `held` (table.rowCount) of `total` (a file of which the table editor
   * keeps the first rows, a progressive output whose rows are still arriving: `loading`, or could not all be
   * had); equal when it holds them all. `of`: what the data is, a file or a notebook cell's result.
   */
  coverage: () => { held: number; total: number; loading?: boolean; of?: 'file' | 'result' };
  /**
   * The Summary of every row of the data, computed by the extension host (DuckDB over the whole file, or over a
   * notebook output's whole result); undefined when the host cannot (no messaging, neither).
   */
  fullSummary?: (plan: SummaryPlan) => Promise<FullSummary>;
  /** Shows a derived table with the table widget (sortable, filterable, copyable, savable). */
  nestedTable: (table: Table, title: string) => NestedTable;
}

/**
 * A view's drawing as a standalone SVG document (every text escaped; a title, the units, a legend and the data's
 * time range in it), and the file name it is offered under. The view host saves it as SVG, rasterises it to PNG
 * and copies it; the notebook's HTML export draws the chart with the same builder (core/notebook/export).
 */
export interface ViewImage {
  svg: string;
  name: string;
}

/** A view's drawing: made once when first opened, drawn again when the rows change. */
export interface Panel {
  readonly element: HTMLElement;
  draw(): void;
  destroy(): void;
  /**
   * What the view shows now (its choices, the rows shown) as an image; undefined when there is nothing drawn.
   * Views without it (the tables: Summary, Exceedances) offer their rows as CSV through their table instead.
   */
  image?(): ViewImage | undefined;
}

/** One view: its name (a stable id, lower case), its tab title and tooltip, when it applies, its panel. */
export interface ViewDefinition {
  readonly name: string;
  readonly title: string;
  readonly tooltip: string;
  /** Whether the view is offered for this table (a Map needs coordinates, a Trend needs a time column …). */
  applies(table: Table): boolean;
  create(ctx: PanelContext): Panel;
}
