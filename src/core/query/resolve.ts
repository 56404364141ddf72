// resolveCell: a parsed cell + the run's clock and org -> the concrete request, checked by the one
// home of the field rules (src/core/api/validate.ts). Nothing that fails those rules is returned.
import { REPORT_ID_FIELD, type RecentQueryRequest, type ReportRequest } from '../api/types';
import { type ValidationIssue, validateRecentQuery, validateReportRequest } from '../api/validate';
import type { ParsedCell } from './cell';
import type { Diagnostic } from './diagnostics';
import { isFieldName } from './fields';
import { timeToWire } from './time';

export type ResolvedCell =
  | { verb: 'recent'; request: RecentQueryRequest }
  | { verb: 'follow'; request: RecentQueryRequest; everyMs?: number }
  | { verb: 'report'; request: ReportRequest }
  | { verb: 'datasources'; org: string }
  | { verb: 'sql'; sql: { text: string; line: number } }
  | { verb: 'params' };

export interface ResolveOptions {
  now: Date;
  /** The connection's org, used when the cell has no `org:` line. */
  org?: string;
}

export interface ResolveResult {
  resolved?: ResolvedCell;
  diagnostics: Diagnostic[];
}

/** Drops undefined members so requests serialize with only what the cell said. */
function defined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

/** The request a cell stands for, without validation (org may be empty when unknown). */
export function buildRequest(cell: ParsedCell, options: ResolveOptions): ResolvedCell {
  const f = cell.fields;
  // Left undefined when unknown so that the field rules report it as missing.
  const org = (f.org ?? options.org) as string;
  const time = (t: typeof f.startTime) => (t ? timeToWire(t, options.now) : undefined);
  if (cell.verb === 'sql') return { verb: 'sql', sql: cell.sql ?? { text: '', line: 1 } };
  if (cell.verb === 'params') return { verb: 'params' };
  if (cell.verb === 'datasources') return { verb: 'datasources', org: org ?? '' };
  if (cell.verb === 'report') {
    const kind = cell.reportKind ?? 'datasource-measurements';
    const common = {
      org,
      report: kind,
      outputFrequency: f.outputFrequency,
      startTime: time(f.startTime),
      endTime: time(f.endTime),
      metricLabelStyle: f.metricLabelStyle,
      fileFormat: f.fileFormat,
      metricSelect: f.metricSelect,
      qcAssessment: f.qcAssessment,
      qcFlags: f.qcFlags,
      dataVersion: f.dataVersion,
    };
    const idField = REPORT_ID_FIELD[kind];
    const ids =
      idField === 'datasourceIds'
        ? { allDatasources: f.allDatasources, datasourceIds: f.datasourceIds }
        : { [idField]: f[idField] };
    return { verb: 'report', request: defined({ ...common, ...ids }) as ReportRequest };
  }
  const request: RecentQueryRequest = defined({
    org,
    allDatasources: f.allDatasources,
    datasourceIds: f.datasourceIds,
    replyWithContinuationToken: cell.verb === 'follow' ? true : undefined,
    outputFrequency: f.outputFrequency,
    format: f.format,
    startTime: time(f.startTime),
    metricSelect: f.metricSelect,
    qcAssessment: f.qcAssessment,
    qcFlags: f.qcFlags,
    dataVersion: f.dataVersion,
    locationRounding: f.locationRounding,
  });
  return cell.verb === 'follow' ? { verb: 'follow', request, everyMs: cell.every?.ms } : { verb: 'recent', request };
}

/** Issues of the field rules for a built request. */
export function validateResolved(resolved: ResolvedCell): ValidationIssue[] {
  switch (resolved.verb) {
    case 'datasources':
      return resolved.org ? [] : [{ field: 'org', message: 'org is required' }];
    case 'sql':
    case 'params':
      return [];
    case 'report':
      return validateReportRequest(resolved.request);
    default:
      return validateRecentQuery(resolved.request);
  }
}

/** Puts a field-rule issue on the key it is about (or the verb line when the key is not written). */
export function issueToDiagnostic(issue: ValidationIssue, cell: ParsedCell): Diagnostic {
  const ranges = isFieldName(issue.field) ? cell.ranges[issue.field] : undefined;
  const written = ranges !== undefined;
  const missing = /is required/.test(issue.message);
  let message = issue.message;
  if (issue.field === 'org' && missing) {
    message = 'No org: add `org: <your org>` or run the cell with a connection that has an org';
  } else if (missing && issue.field === 'datasourceIds') {
    message = 'Give datasourceIds (comma-separated) or allDatasources: true';
  } else if (missing) {
    message = `${issue.field} is required for ${cell.verb === 'report' ? `report ${cell.reportKind}` : cell.verb}`;
  }
  return {
    severity: 'error',
    code: missing ? 'missing-field' : 'bad-combination',
    message,
    range: written ? (issue.field === 'endTime' ? ranges.value : ranges.key) : cell.verbRange,
    allowedValues: issue.allowed ? [...issue.allowed] : undefined,
  };
}

export function resolveCell(cell: ParsedCell, options: ResolveOptions): ResolveResult {
  const resolved = buildRequest(cell, options);
  const issues = validateResolved(resolved);
  if (issues.length) return { diagnostics: issues.map((i) => issueToDiagnostic(i, cell)) };
  return { resolved, diagnostics: [] };
}
