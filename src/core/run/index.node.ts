// Running cells: the one executor shared by the CLI and the notebook controller.

export { concatTables, rowsByTimeAscending, takeRows, timeColumn } from '../table/table-rows';
export { datasourcesTable } from './datasources-table';
export {
  DEFAULT_CSV_FALLBACK_MAX_ROWS,
  failureOutput,
  parametersNote,
  type ResultOutputOptions,
  resultNotes,
  resultOutput,
  resultTitle,
  rowOrderNote,
} from './outputs';
export {
  downloadReport,
  loadReport,
  type ReportOutcome,
  type ReportProgress,
  waitForReportProgress,
} from './report-run.node';
export {
  parseCellOrThrow,
  type RunCellOptions,
  type RunClient,
  type RunProgress,
  type RunResult,
  runCell,
  tableSummary,
} from './run-cell.node';
