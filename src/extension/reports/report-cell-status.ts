// A report cell's files in the cell's status bar: one "Open" item per file (a table for Parquet) and
// "Reveal", instead of paths in the output (they are long paths in the editor's storage). The output
// names its report by id only; the files come from the Reports view's record of it, so nothing a
// notebook file says becomes a path.
import * as vscode from 'vscode';
import { formatOfName } from '../../core/table/file-format';
import { reportOfOutput } from '../notebook/outputs';
import { NOTEBOOK_TYPE } from '../notebook/serializer';
import type { ReportsStore } from './reports-store';

/** At most this many files get their own item (a report has one file per datasource batch). */
const MAX_FILE_ITEMS = 3;

export class ReportCellStatus implements vscode.NotebookCellStatusBarItemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCellStatusBarItems = this.changed.event;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly store: ReportsStore) {
    this.subs = [
      vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, this),
      store.onDidChange(() => this.changed.fire()),
    ];
  }

  provideCellStatusBarItems(cell: vscode.NotebookCell): vscode.NotebookCellStatusBarItem[] {
    const ref = cell.outputs.map(reportOfOutput).find((r) => r !== undefined);
    const report = ref && this.store.get(ref.connectionId, ref.reportId);
    const downloaded = report?.files.filter((f) => f.localPath) ?? [];
    if (!report || downloaded.length === 0) return [];
    const items = downloaded.slice(0, MAX_FILE_ITEMS).map((file) => {
      const asTable = formatOfName(file.name) === 'parquet';
      const item = new vscode.NotebookCellStatusBarItem(
        `$(${asTable ? 'table' : 'go-to-file'}) ${file.name}`,
        vscode.NotebookCellStatusBarAlignment.Left,
      );
      item.tooltip = `${asTable ? 'Open as a table' : 'Open'}: ${file.name} of report ${report.reportId}`;
      item.command = {
        title: 'Open',
        command: asTable ? 'measurements.openReportFileAsTable' : 'measurements.openReportFile',
        arguments: [{ report, file }],
      };
      return item;
    });
    const more = downloaded.length - MAX_FILE_ITEMS;
    const reveal = new vscode.NotebookCellStatusBarItem(
      `$(folder-opened) Reveal${more > 0 ? ` (+${more} more files)` : ''}`,
      vscode.NotebookCellStatusBarAlignment.Left,
    );
    reveal.tooltip = `Reveal the files of report ${report.reportId}`;
    reveal.command = {
      title: 'Reveal',
      command: 'measurements.revealReportFile',
      arguments: [{ report, file: downloaded[0] }],
    };
    return [...items, reveal];
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
