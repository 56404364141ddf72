// .measnb <-> VS Code NotebookData: a thin mapping over the core's one file format (src/core/notebook),
// with saved outputs bounded by the `measurements.notebook.savedOutputLimitKB` setting.
import * as vscode from 'vscode';
import { NotebookFormatError } from '../../core/api/errors';
import {
  type Notebook,
  type NotebookCell,
  type NotebookOutput,
  type ReadOptions,
  readNotebook,
  serializeNotebook,
} from '../../core/notebook';
import { savedOutputLimitBytes } from './settings';

export const NOTEBOOK_TYPE = 'measnb';

const encoder = new TextEncoder();

function toNotebookData(nb: Notebook): vscode.NotebookData {
  const cells = nb.cells.map((c) => {
    const kind = c.kind === 'markup' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code;
    const data = new vscode.NotebookCellData(kind, c.source, c.language);
    data.outputs = c.outputs.map(
      (o) =>
        new vscode.NotebookCellOutput(
          o.items.map((i) => new vscode.NotebookCellOutputItem(i.data, i.mime)),
          o.metadata as Record<string, unknown> | undefined,
        ),
    );
    if (c.metadata) data.metadata = c.metadata;
    if (c.execution) {
      const e = c.execution;
      data.executionSummary = {
        executionOrder: e.order,
        success: e.success,
        timing:
          e.startTime !== undefined && e.endTime !== undefined
            ? { startTime: e.startTime, endTime: e.endTime }
            : undefined,
      };
    }
    return data;
  });
  const data = new vscode.NotebookData(cells);
  data.metadata = { ...nb.metadata, ...(nb.extra ? { extra: nb.extra } : {}) };
  return data;
}

export function fromNotebookData(data: vscode.NotebookData): Notebook {
  const { extra, ...metadata } = (data.metadata ?? {}) as Record<string, unknown>;
  const cells = data.cells.map((c): NotebookCell => {
    const outputs = (c.outputs ?? []).map(
      (o): NotebookOutput => ({
        items: o.items.map((i) => ({ mime: i.mime, data: i.data })),
        metadata: o.metadata && Object.keys(o.metadata).length ? o.metadata : undefined,
      }),
    );
    const s = c.executionSummary;
    return {
      kind: c.kind === vscode.NotebookCellKind.Markup ? 'markup' : 'code',
      language: c.languageId,
      source: c.value,
      outputs,
      metadata: c.metadata && Object.keys(c.metadata).length ? c.metadata : undefined,
      execution:
        s && (s.executionOrder !== undefined || s.success !== undefined || s.timing)
          ? { order: s.executionOrder, success: s.success, startTime: s.timing?.startTime, endTime: s.timing?.endTime }
          : undefined,
    };
  });
  return {
    metadata: metadata as Notebook['metadata'],
    cells,
    extra: extra && typeof extra === 'object' ? (extra as Record<string, unknown>) : undefined,
  };
}

export class MeasnbSerializer implements vscode.NotebookSerializer {
  /**
   * `options.adoptFullResultPath`: an old notebook's absolute full-result path becomes an id when it is a file
   * of the result store (other paths are dropped). Outputs of other types than ours are dropped with a note.
   */
  constructor(private readonly options: ReadOptions = {}) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    try {
      return toNotebookData(readNotebook(content, this.options));
    } catch (err) {
      // Refuse to open rather than show an empty notebook that a save would write over the file.
      const where = err instanceof NotebookFormatError ? err.message : String(err);
      throw new Error(`This .measnb file cannot be read: ${where}`);
    }
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    return encoder.encode(serializeNotebook(fromNotebookData(data), { outputLimitBytes: savedOutputLimitBytes() }));
  }
}
