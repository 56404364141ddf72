// The measurement query language (language id `measq`): parse, resolve, complete, hover.
export type { FieldRanges, ParsedCell, ParsedFields } from './cell';
export {
  type CompletionContext,
  type CompletionItem,
  type CompletionKind,
  type CompletionOptions,
  completeAt,
  completionContextAt,
  type Hover,
  hoverAt,
  type IdAtPosition,
  idAt,
} from './completion';
export {
  type DatasourceLookup,
  datasourceDetail,
  datasourceMarkdown,
  datasourcesFor,
  describeId,
  idUnder,
  lookupFailure,
} from './datasource-ids';
export type { Diagnostic, DiagnosticCode, Position, Range, Severity } from './diagnostics';
export { diagnosticLine, diagnosticText, hasErrors } from './diagnostics';
export { FIELD_DOCS, fieldDocText, REPORT_KIND_DOCS, VERB_DOCS } from './docs';
export { FIELD_NAMES, FIELDS, type FieldName, ID_KEYS, type IdKey, isIdKey, keysFor, VERBS, type Verb } from './fields';
export { unknownIdDiagnostics } from './id-check';
export { isBlankCell } from './lines';
export { METRIC_CATEGORIES, metricLabels, NOT_IN_CATALOGUE, type ServiceKind } from './metric-select';
export { type ParseOptions, type ParseResult, parseCell } from './parse';
export { type QuickFix, quickFixes } from './quick-fix';
export { type ReportCellOptions, reportCellText } from './report-cell';
export { type ResolvedCell, type ResolveOptions, type ResolveResult, resolveCell } from './resolve';
export { parseInterval, parseTime, type TimeValue, timeToMs, timeToWire } from './time';

export const LANGUAGE_ID = 'measq';
