// Shared helpers of the in-host suites.
import fs from 'node:fs';
import * as vscode from 'vscode';
import { type Notebook, serializeNotebook } from '../../src/core/notebook';
import type { TableFileRead } from '../../src/core/sql/file-read.node';
import { type EmulatorOptions, ManualClock, type RunningEmulator, startEmulator } from '../../src/emulator/index';
import type { MeasurementsApi } from '../../src/extension/extension';
import { CONTROLLER_ID } from '../../src/extension/notebook/controller';
import type { TableFileEditor } from '../../src/extension/table/table-editor';
import type { PanelShown } from '../../src/extension/table/table-panel';

export const EXTENSION_ID = 'measnb.measurements-notebooks';

export function extension(): vscode.Extension<MeasurementsApi> {
  const ext = vscode.extensions.getExtension<MeasurementsApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in this host`);
  return ext;
}

export async function api(): Promise<MeasurementsApi> {
  return extension().activate();
}

/**
 * Polls `probe` until it returns a value that is not undefined/false (bounded by `tries`). `what` may be
 * a function: it is called on giving up, so the error can say what the state was then.
 */
export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string | (() => string),
  tries = 300,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${typeof what === 'function' ? what() : what}`);
}

/** An emulator on a manual clock, added as a connection; the notebook controller reads its clock. */
export interface HostEmulator {
  a: MeasurementsApi;
  emu: RunningEmulator;
  clock: ManualClock;
  connectionId: string;
}

/** Starts an emulator whose clock stands at `start` (ISO), adds it as the connection `name`, and sets the extension's clock to it. */
export async function startHostEmulator(
  name: string,
  start: string,
  options: Omit<EmulatorOptions, 'clock' | 'port'> = {},
): Promise<HostEmulator> {
  const a = await api();
  const clock = new ManualClock(Date.parse(start));
  const emu = await startEmulator({ ...options, port: 0, clock });
  const connection = await a.services.connections.add({ name, baseUrl: emu.url, org: emu.org }, emu.apiKey);
  // The extension's one clock reads the emulator's (relative times, execution times, quota marks).
  a.services.clock.set({ nowMs: () => clock.now() });
  return { a, emu, clock, connectionId: connection.id };
}

/** Undoes startHostEmulator: the extension's clock (the system's again), open editors, the connection, the emulator. */
export async function stopHostEmulator(host: HostEmulator | undefined): Promise<void> {
  if (!host) return;
  host.a.services.clock.set(undefined);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await host.a.services.connections.remove(host.connectionId);
  await host.emu.close();
}

/** Writes `notebook` (the core format) to `file` and opens it with the extension's controller. */
export async function openNotebook(file: string, notebook: Notebook): Promise<vscode.NotebookDocument> {
  fs.writeFileSync(file, serializeNotebook(notebook));
  const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
  await vscode.window.showNotebookDocument(nb);
  await vscode.commands.executeCommand('notebook.selectKernel', { id: CONTROLLER_ID, extension: EXTENSION_ID });
  return nb;
}

/** Starts cell `index` without waiting; returns its execution order before, for cellFinished. */
export function startCell(nb: vscode.NotebookDocument, index: number): number {
  const before = nb.cellAt(index).executionSummary?.executionOrder ?? 0;
  void vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: index, end: index + 1 }],
    document: nb.uri,
  });
  return before;
}

/** Waits for the run of cell `index` that started after execution order `before` to end. */
export function cellFinished(
  nb: vscode.NotebookDocument,
  index: number,
  before: number,
): Promise<vscode.NotebookCellExecutionSummary> {
  return eventually(
    () => {
      const s = nb.cellAt(index).executionSummary;
      return s && (s.executionOrder ?? 0) > before && s.success !== undefined && s.timing?.endTime ? s : undefined;
    },
    `cell ${index} to finish`,
    1200,
  );
}

/** Runs cell `index` and waits for it to end. */
export function runCell(nb: vscode.NotebookDocument, index: number): Promise<vscode.NotebookCellExecutionSummary> {
  return cellFinished(nb, index, startCell(nb, index));
}

/** A big local file opened as a table, as a user opens it, with when each stage was reached. */
export interface OpenedTableFile {
  editor: TableFileEditor;
  /** Whether the whole file was already counted when the first rows went to the view (streaming says no). */
  countedWhenHandedOver: boolean;
  shown: PanelShown;
  read: TableFileRead;
  openedMs: number;
  firstMs: number;
  totalMs: number;
}

/** Opens a file in the Measurements Table editor and waits for its first rows, their paint, then the count. */
export async function openTableFile(file: string): Promise<OpenedTableFile> {
  const started = performance.now();
  const editor = await vscode.commands.executeCommand<TableFileEditor>(
    'measurements.openFileAsTable',
    vscode.Uri.file(file),
  );
  const openedMs = performance.now() - started;
  let counted = false;
  void editor.loaded.then(() => {
    counted = true;
  });
  // Streamed: the first rows go to the view while the rest of the file is still being counted (when the
  // page paints them depends on the webview, which a loaded machine may hold up past the count).
  await editor.firstRows;
  const countedWhenHandedOver = counted;
  const shown = await editor.view.shown;
  const firstMs = performance.now() - started;
  const read = await editor.loaded;
  return { editor, countedWhenHandedOver, shown, read, openedMs, firstMs, totalMs: performance.now() - started };
}

/**
 * About `bytes` of csv-wide text with service-style columns (50 datasources, a minute apart), header first,
 * in chunks of 10,000 rows; `count.rows` says how many rows were made.
 */
export function* bigCsvChunks(bytes: number, count: { rows: number }): Generator<string> {
  yield 'datasourceId,time,pm2_5ConcMass.value,pm2_5ConcMass.status,temperature.value,humidity.value\n';
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  let written = 0;
  while (written < bytes) {
    const lines: string[] = [];
    for (let i = 0; i < 10_000; i++, count.rows++) {
      const r = count.rows;
      const t = new Date(t0 + r * 60_000).toISOString();
      lines.push(`D${r % 50},${t},${(r % 997) / 10},valid,${(r % 400) / 10},${r % 100}`);
    }
    const chunk = `${lines.join('\n')}\n`;
    written += chunk.length;
    yield chunk;
  }
}

/**
 * Samples the extension host every 20 ms while a test reads a big file: `grew()` is the peak of heap +
 * array buffers over the level when it started, `maxLag()` the longest a 20 ms timer was held up (a stall).
 */
export function hostSampler() {
  global.gc?.();
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = used();
  let peak = base;
  let lastTick = performance.now();
  let lag = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, used());
    const now = performance.now();
    lag = Math.max(lag, now - lastTick - 20);
    lastTick = now;
  }, 20);
  return {
    grew: () => peak - base,
    maxLag: () => lag,
    stop: () => clearInterval(timer),
  };
}
