// Request validation: the one home of the field rules of report requests and recent queries.
// The client refuses to send anything these rules reject; the query language reads FIELD specs
// for its diagnostics, completions and hovers.

import { parseIsoMs } from '../time/iso';
import {
  DATA_VERSIONS,
  FILE_FORMATS,
  METRIC_LABEL_STYLES,
  OUTPUT_FREQUENCIES,
  RECENT_FORMATS,
  REPORT_KINDS,
  type ReportKind,
} from './types';

export interface ValidationIssue {
  /** The request field the problem is about ('' for the request as a whole). */
  field: string;
  message: string;
  /** Allowed values, when the field is an enum. */
  allowed?: readonly string[];
}

type FieldType = 'string' | 'boolean' | 'integer' | 'string[]' | 'time' | 'enum';

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** true: always; 'unless-allDatasources': required when allDatasources is missing or false. */
  required?: boolean | 'unless-allDatasources';
  values?: readonly string[];
  doc: string;
}

const COMMON_REPORT_FIELDS: readonly FieldSpec[] = [
  { name: 'org', type: 'string', required: true, doc: 'Organization of the request.' },
  {
    name: 'report',
    type: 'enum',
    required: true,
    values: REPORT_KINDS,
    doc: 'Report kind: datasource-measurements, node-measurements or reference-site-measurements.',
  },
  {
    name: 'outputFrequency',
    type: 'enum',
    required: true,
    values: OUTPUT_FREQUENCIES,
    doc: 'minute (individual measurements), hour or day aggregates.',
  },
  {
    name: 'startTime',
    type: 'time',
    required: true,
    doc: 'ISO 8601 date or timestamp; measurements on or after it (inclusive).',
  },
  {
    name: 'endTime',
    type: 'time',
    required: true,
    doc: 'ISO 8601 date or timestamp; measurements before it (exclusive).',
  },
  {
    name: 'metricLabelStyle',
    type: 'enum',
    values: METRIC_LABEL_STYLES,
    doc: 'canonical (default; stable identifiers), english (human text) or legacy (v1, ambiguous).',
  },
  {
    name: 'fileFormat',
    type: 'enum',
    values: FILE_FORMATS,
    doc: 'csv-wide (default; shorthand csv) or parquet-wide (shorthand parquet).',
  },
  { name: 'metricSelect', type: 'string', doc: 'Limits the metrics returned, e.g. `only pm2_5ConcMassNowcast`.' },
  { name: 'qcAssessment', type: 'boolean', doc: 'Default false. Adds qcAssessment (valid/invalid) to each metric.' },
  { name: 'qcFlags', type: 'boolean', doc: 'Default false. Adds the QC flag codes to each metric.' },
  {
    name: 'dataVersion',
    type: 'enum',
    values: DATA_VERSIONS,
    doc: 'legacy (default) or v2026-11-10 (quality-controlled NowCasts and 24-hour rolling means).',
  },
];

/** Fields of a report request per kind, common fields first. */
export const REPORT_FIELDS: Record<ReportKind, readonly FieldSpec[]> = {
  'datasource-measurements': [
    ...COMMON_REPORT_FIELDS,
    { name: 'allDatasources', type: 'boolean', doc: 'Default false. When true, all datasources of the org.' },
    {
      name: 'datasourceIds',
      type: 'string[]',
      required: 'unless-allDatasources',
      doc: 'Datasource ids; required unless allDatasources is true.',
    },
  ],
  'node-measurements': [
    ...COMMON_REPORT_FIELDS,
    { name: 'nodeIds', type: 'string[]', required: true, doc: 'Node (device) ids.' },
  ],
  'reference-site-measurements': [
    ...COMMON_REPORT_FIELDS,
    { name: 'refSiteIds', type: 'string[]', required: true, doc: 'Reference site ids.' },
  ],
};

export const RECENT_QUERY_FIELDS: readonly FieldSpec[] = [
  { name: 'org', type: 'string', required: true, doc: 'Organization id.' },
  {
    name: 'allDatasources',
    type: 'boolean',
    doc: 'true: all datasources of the org you may access; false or omitted: restrict by datasourceIds.',
  },
  {
    name: 'datasourceIds',
    type: 'string[]',
    required: 'unless-allDatasources',
    doc: 'Datasource ids (as listed by GET /v2/datasources); required unless allDatasources is true.',
  },
  {
    name: 'replyWithContinuationToken',
    type: 'boolean',
    doc: 'true: the reply carries a continuation token for fetching only newer measurements.',
  },
  {
    name: 'outputFrequency',
    type: 'enum',
    values: OUTPUT_FREQUENCIES,
    doc: 'minute (default), hour (1-hour mean, 24-hour rolling mean, NowCast) or day (24-hour mean).',
  },
  {
    name: 'format',
    type: 'enum',
    values: RECENT_FORMATS,
    doc: 'json-long (default; one object per metric) or csv-wide (one row per measurement).',
  },
  {
    name: 'startTime',
    type: 'time',
    doc: 'Earliest measurement. Defaults: minute 1 h, hour 24 h, day 48 h before now; only cached data is returned.',
  },
  { name: 'metricSelect', type: 'string', doc: 'Limits the metrics returned, e.g. `only pm2_5ConcMassNowcast`.' },
  { name: 'qcAssessment', type: 'boolean', doc: 'Default false. Adds qcAssessment to each metric.' },
  { name: 'qcFlags', type: 'boolean', doc: 'Default false. Adds qcFlags to each metric.' },
  { name: 'dataVersion', type: 'enum', values: DATA_VERSIONS, doc: 'legacy (default) or v2026-11-10.' },
  {
    name: 'locationRounding',
    type: 'integer',
    doc: 'Decimal places of coordinates. Default 5 for json-long, 6 for csv-wide.',
  },
];

const CONTINUATION_FIELDS: readonly FieldSpec[] = [
  { name: 'org', type: 'string', required: true, doc: 'Organization id.' },
  { name: 'continuationToken', type: 'string', required: true, doc: 'The token from the previous reply.' },
];

/**
 * What a report id looks like: the service's are upper-case letters and digits (`JBLLZT8NW9`); letters,
 * digits, `-` and `_`, up to 128, are accepted. Anything else from the service (`../../.vscode`, a
 * separator, NUL) is refused where it arrives, before it can become a path or a URL.
 */
export function isPlainReportId(id: unknown): id is string {
  return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(id);
}

/** Checks one value against its spec; undefined when fine. */
export function checkFieldValue(spec: FieldSpec, value: unknown): ValidationIssue | undefined {
  const field = spec.name;
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string' || value.trim() === '')
        return { field, message: `${field} must be a non-empty text` };
      return undefined;
    case 'boolean':
      if (typeof value !== 'boolean') return { field, message: `${field} must be true or false` };
      return undefined;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 15)
        return { field, message: `${field} must be a whole number from 0 to 15` };
      return undefined;
    case 'enum':
      if (typeof value !== 'string' || !spec.values?.includes(value))
        return {
          field,
          message: `${field} must be one of ${spec.values?.join(', ')} (got ${JSON.stringify(value)})`,
          allowed: spec.values,
        };
      return undefined;
    case 'time':
      if (typeof value !== 'string' || parseIsoMs(value) === undefined)
        return {
          field,
          message: `${field} must be an ISO 8601 date (2026-11-01) or timestamp (2026-11-01T10:00:00Z) (got ${JSON.stringify(value)})`,
        };
      return undefined;
    case 'string[]':
      if (!Array.isArray(value) || value.length === 0) return { field, message: `${field} must list at least one id` };
      if (value.some((v) => typeof v !== 'string' || v.trim() === ''))
        return { field, message: `${field} must hold non-empty text ids` };
      return undefined;
  }
}

function checkFields(
  specs: readonly FieldSpec[],
  req: Record<string, unknown>,
  what: string,
  issues: ValidationIssue[],
): void {
  const known = new Set(specs.map((s) => s.name));
  for (const key of Object.keys(req)) {
    if (!known.has(key) && req[key] !== undefined) {
      issues.push({ field: key, message: `${key} is not a field of ${what}`, allowed: [...known] });
    }
  }
  const all = req.allDatasources === true;
  for (const spec of specs) {
    const value = req[spec.name];
    if (value === undefined || value === null) {
      if (spec.required === true) issues.push({ field: spec.name, message: `${spec.name} is required` });
      if (spec.required === 'unless-allDatasources' && !all)
        issues.push({ field: spec.name, message: `${spec.name} is required unless allDatasources is true` });
      continue;
    }
    const issue = checkFieldValue(spec, value);
    if (issue) issues.push(issue);
  }
}

function asRecord(req: unknown, issues: ValidationIssue[]): Record<string, unknown> | undefined {
  if (typeof req !== 'object' || req === null || Array.isArray(req)) {
    issues.push({ field: '', message: 'the request must be an object' });
    return undefined;
  }
  return req as Record<string, unknown>;
}

/** Every problem of a report request; empty when it may be sent. */
export function validateReportRequest(req: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const r = asRecord(req, issues);
  if (!r) return issues;
  const kind = r.report;
  if (typeof kind !== 'string' || !(REPORT_KINDS as readonly string[]).includes(kind)) {
    issues.push({
      field: 'report',
      message:
        kind === undefined
          ? 'report is required'
          : `report must be one of ${REPORT_KINDS.join(', ')} (got ${JSON.stringify(kind)})`,
      allowed: REPORT_KINDS,
    });
    // Still check the common fields so one run shows every problem.
    checkFields(
      COMMON_REPORT_FIELDS.filter((s) => s.name !== 'report'),
      withoutKeys(r, ['report']),
      'a report request',
      issues,
    );
    return issues;
  }
  checkFields(REPORT_FIELDS[kind as ReportKind], r, `a ${kind} report request`, issues);
  checkOrder(r, issues);
  return issues;
}

/** Every problem of a recent query; empty when it may be sent. */
/** The issues of a request that is one record of the given fields (`what` names it in messages). */
function validateRecord(req: unknown, specs: readonly FieldSpec[], what: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const r = asRecord(req, issues);
  if (r) checkFields(specs, r, what, issues);
  return issues;
}

export function validateRecentQuery(req: unknown): ValidationIssue[] {
  return validateRecord(req, RECENT_QUERY_FIELDS, 'a recent query');
}

export function validateContinuation(req: unknown): ValidationIssue[] {
  return validateRecord(req, CONTINUATION_FIELDS, 'a continuation request');
}

function withoutKeys(r: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const copy = { ...r };
  for (const k of keys) delete copy[k];
  // Kind-specific id fields are unknown without a kind; don't report them as unknown.
  for (const k of ['allDatasources', 'datasourceIds', 'nodeIds', 'refSiteIds']) delete copy[k];
  return copy;
}

function checkOrder(r: Record<string, unknown>, issues: ValidationIssue[]): void {
  if (typeof r.startTime !== 'string' || typeof r.endTime !== 'string') return;
  const start = parseIsoMs(r.startTime);
  const end = parseIsoMs(r.endTime);
  if (start !== undefined && end !== undefined && start >= end) {
    issues.push({ field: 'endTime', message: `startTime (${r.startTime}) must be before endTime (${r.endTime})` });
  }
}

/** One readable line listing every issue, for error messages. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => i.message).join('; ');
}
