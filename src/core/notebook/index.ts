// The .measnb notebook: model and file format (used by the CLI and the extension's serializer).
export {
  DEFAULT_OUTPUT_LIMIT_BYTES,
  MAX_NESTING_DEPTH,
  NotebookFormatError,
  parseNotebook,
  type SerializeOptions,
  serializeNotebook,
} from './file-format';
export * from './model';
export { formatBytes, type OutputSummary, summarizeOutput } from './summary';
