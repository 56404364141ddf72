// The .measnb notebook: model and file format (used by the CLI and the extension's serializer).
export {
  DEFAULT_OUTPUT_LIMIT_BYTES,
  MAX_NESTING_DEPTH,
  parseNotebook,
  readNotebook,
  type SerializeOptions,
  serializeNotebook,
} from './file-format';
export * from './model';
export { FULL_RESULT_ID, READ_BACK_MIMES, type ReadOptions } from './read-checks';
export { formatBytes, type OutputSummary, summarizeOutput } from './summary';
export { type NotebookZone, notebookZone } from './time-zone';
