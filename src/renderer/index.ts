// Notebook renderer for the core Table's MIME type (application/vnd.measnb.table).

import {
  type ChartChanged,
  chartChoiceOf,
  type HostToRenderer,
  type RestOfRows,
  type ResultInfo,
  ROWS_CHUNK_BYTES,
  type ViewChanged,
} from '../core/notebook/renderer-protocol';
import { TableAssembler } from '../core/table/row-chunks';
import type { Table } from '../core/table/table';
import { decodeTable, encodeTable } from '../core/table/wire';
import { RowsClient } from './dom/rows-client';
import { SaveClient } from './dom/save-client';
import { SummaryClient } from './dom/summary-client';

import { setChartMemory } from './model/chart-choice';

import { loadRest, restOf, rowsPerChunk } from './model/progressive';
import type { OutputItem, RendererApi, RendererContext } from './renderer-api';
import { mountError, mountTable } from './widget/mount';
import type { TableWidget, TableWidgetOptions } from './widget/table-widget';

function resultInfo(metadata: unknown): ResultInfo | undefined {
  const m = metadata as { measnb?: ResultInfo } | undefined;
  return m && typeof m === 'object' ? m.measnb : undefined;
}

/** A progressive output's growing table (the head first), or undefined for an output that holds every row. */
function assemblerFor(head: Table, rest: RestOfRows | undefined): TableAssembler | undefined {
  if (!rest) return undefined;
  try {
    return new TableAssembler(head, rest.totalRows);
  } catch {
    return undefined; // not enough memory for every row: the head alone
  }
}

/** Fetches the rest of a progressive output into its widget, until every row is in or it cannot be had. */
async function loadInto(
  widget: TableWidget,
  assembler: TableAssembler,
  key: string,
  rows: RowsClient,
  stopped: () => boolean,
  headBytes: number,
): Promise<void> {
  const { loaded, totalRows } = assembler;
  if (!rows.available) return widget.rowsUnavailable(loaded, totalRows, 'this view has no connection to the extension');
  widget.rowsArrived(loaded, totalRows);
  try {
    await loadRest({
      assembler,
      fetch: (start, maxRows) => rows.fetch(key, start, maxRows),
      rowsPerChunk: rowsPerChunk(headBytes, loaded, ROWS_CHUNK_BYTES),
      onRows: (n, total) => widget.rowsArrived(n, total),
      stopped,
    });
  } catch (err) {
    if (!stopped()) widget.rowsUnavailable(assembler.loaded, totalRows, (err as Error).message);
  }
}

/**
 * The chart starts on the cell's last choice (ResultInfo.chart); a new choice goes to the host, which keeps it
 * in the cell's metadata (extension/notebook/chart-choice), so an export draws the chart the output showed.
 */
function rememberChart(table: Table, info: ResultInfo | undefined, ctx: RendererContext<HostToRenderer>): void {
  const cellId = info?.cellId;
  setChartMemory(table, {
    choice: chartChoiceOf(info?.chart),
    remember:
      typeof cellId === 'string' && ctx.postMessage
        ? (chart) => ctx.postMessage?.({ type: 'chart', cellId, chart } satisfies ChartChanged)
        : undefined,
  });
}

/** Saving an output's rows, a view's table or image through the host (none without messaging). */
function savingThrough(saver: SaveClient, table: Table, title: string): Partial<TableWidgetOptions> {
  if (!saver.available) return {};
  return {
    save: (format, rows) => saver.save(table, rows, format, title),
    saveTable: (derived, format, rows, name) => saver.save(derived, rows, format, `${title} ${name}`),
    saveImage: (format, bytes, name) => saver.saveImage(format, bytes, `${title} ${name}`),
  };
}

export function activate(ctx: RendererContext<HostToRenderer>): RendererApi {
  const widgets = new Map<string, TableWidget>();
  /** Outputs whose insights strip is shown (by output id: kept while the notebook's renderer lives). */
  const insightsShown = new Set<string>();
  /** The tab each cell's output showed last (by cell id, else output id): its next rendering opens on it. */
  const tabsShown = new Map<string, string>();
  const saver = new SaveClient(ctx, encodeTable);
  const rows = new RowsClient(ctx);
  const summaries = new SummaryClient(ctx);
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement) {
      widgets.get(item.id)?.dispose();
      let table: Table;
      const bytes = item.data();
      try {
        table = decodeTable(bytes);
      } catch (err) {
        mountError(element, `This table output could not be read: ${(err as Error).message}`);
        return;
      }
      const info = resultInfo(item.metadata);
      const rest = restOf(info?.rest, table.rowCount);
      const assembler = assemblerFor(table, rest);
      if (assembler) table = assembler.table;
      rememberChart(table, info, ctx);
      const tabKey = typeof info?.cellId === 'string' ? `cell:${info.cellId}` : `output:${item.id}`;
      const widget = mountTable(element, table, {
        info,
        ...savingThrough(saver, table, info?.title ?? 'measurements'),
        // A progressive output's Summary of every row: the host's, of the result its key names.
        summarize: rest && summaries.available ? (plan) => summaries.request(plan, rest.key) : undefined,
        onViewChange: (view) => ctx.postMessage?.({ type: 'view', view } satisfies ViewChanged),
        onTabShown: (name) => tabsShown.set(tabKey, name),
        insights: {
          shown: insightsShown.has(item.id),
          remember: (shown) => (shown ? insightsShown.add(item.id) : insightsShown.delete(item.id)),
        },
      });
      widgets.set(item.id, widget);
      if (assembler && rest) {
        void loadInto(widget, assembler, rest.key, rows, () => widgets.get(item.id) !== widget, bytes.byteLength);
      }
      // The tab the cell's output showed last (while this renderer lives): a progressive output opening on the
      // Summary, with only its first rows, asks the host for the Summary of every row at its first paint.
      const tab = tabsShown.get(tabKey);
      if (tab) widget.openTab(tab);
    },
    disposeOutputItem(id?: string) {
      if (id === undefined) {
        for (const w of widgets.values()) w.dispose();
        widgets.clear();
        return;
      }
      widgets.get(id)?.dispose();
      widgets.delete(id);
    },
  };
}

export { showPanel } from './panel';
export { mountTable };
