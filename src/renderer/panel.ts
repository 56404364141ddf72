// The table panel page ("Open as Table", "Run Recent Query", the Measurements Table editor of local
// files): the same widget as a notebook output, filling the panel. The host sends the table in the wire
// format; saving goes through the host.
import type { HostToPanel, PanelToHost } from '../core/notebook/renderer-protocol';
import { decodeTable, encodeTable } from '../core/table/wire';
import { SaveClient } from './dom/save-client';
import { SummaryClient } from './dom/summary-client';
import type { RendererContext } from './renderer-api';
import { mountError, mountTable } from './widget/mount';
import type { TableWidget } from './widget/table-widget';

/** What acquireVsCodeApi() gives a webview page. */
interface WebviewApi {
  postMessage(message: PanelToHost): void;
}

export function showPanel(api: WebviewApi, root: HTMLElement): void {
  const context: RendererContext<HostToPanel> = {
    postMessage: (message) => api.postMessage(message as PanelToHost),
    onDidReceiveMessage(listener) {
      const onMessage = (e: MessageEvent<HostToPanel>) => listener(e.data);
      window.addEventListener('message', onMessage);
      return { dispose: () => window.removeEventListener('message', onMessage) };
    },
    workspace: { isTrusted: true },
  };
  const saver = new SaveClient(context as RendererContext<never>, encodeTable);
  const summaries = new SummaryClient(context as RendererContext<never>);
  let widget: TableWidget | undefined;
  context.onDidReceiveMessage?.((m) => {
    if (m?.type === 'panel-info') widget?.setInfo(m.info);
    if (m?.type === 'panel-error') showError(root, m.message);
    if (m?.type !== 'panel-table') return;
    try {
      const table = decodeTable(new Uint8Array(m.data));
      const info = m.info ?? { title: m.title };
      widget?.dispose();
      widget = mountTable(root, table, {
        info,
        fill: true,
        save: (format, rows) => saver.save(table, rows, format, info.title ?? m.title),
        summarize: (plan) => summaries.request(plan),
        saveImage: (format, bytes, name) => saver.saveImage(format, bytes, `${info.title ?? m.title} ${name}`),
      });
      api.postMessage({
        type: 'panel-shown',
        view: 'renderer',
        rowCount: table.rowCount,
        columnCount: table.columns.length,
      });
    } catch (err) {
      showError(root, `This table could not be shown: ${(err as Error).message}`);
      api.postMessage({ type: 'panel-failed', message: (err as Error).message });
    }
  });
  api.postMessage({ type: 'panel-ready' });

  function showError(element: HTMLElement, message: string): void {
    widget?.dispose();
    widget = undefined;
    mountError(element, message);
  }
}
