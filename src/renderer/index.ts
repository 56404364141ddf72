// Notebook renderer for the core Table's MIME type (application/vnd.measnb.table).

import type { HostToRenderer, ResultInfo, ViewChanged } from '../core/notebook/renderer-protocol';
import { decodeTable, encodeTable } from '../core/table/wire';
import { mountTable } from './dom/mount';
import { SaveClient } from './dom/save-client';
import type { TableWidget } from './dom/table-widget';
import type { OutputItem, RendererApi, RendererContext } from './renderer-api';

function resultInfo(metadata: unknown): ResultInfo | undefined {
  const m = metadata as { measnb?: ResultInfo } | undefined;
  return m && typeof m === 'object' ? m.measnb : undefined;
}

export function activate(ctx: RendererContext<HostToRenderer>): RendererApi {
  const widgets = new Map<string, TableWidget>();
  const saver = new SaveClient(ctx, encodeTable);
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement) {
      widgets.get(item.id)?.dispose();
      let table: ReturnType<typeof decodeTable>;
      try {
        table = decodeTable(item.data());
      } catch (err) {
        element.textContent = `This table output could not be read: ${(err as Error).message}`;
        return;
      }
      const info = resultInfo(item.metadata);
      const widget = mountTable(element, table, {
        info,
        save: saver.available
          ? (format, rows) => saver.save(table, rows, format, info?.title ?? 'measurements')
          : undefined,
        saveTable: saver.available
          ? (derived, format, rows, name) =>
              saver.save(derived, rows, format, `${info?.title ?? 'measurements'} ${name}`)
          : undefined,
        onViewChange: (view) => ctx.postMessage?.({ type: 'view', view } satisfies ViewChanged),
      });
      widgets.set(item.id, widget);
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
