// The keys of the language: the API's own field names, their value types and which verbs take them.
import {
  DATA_VERSIONS,
  FILE_FORMATS,
  METRIC_LABEL_STYLES,
  OUTPUT_FREQUENCIES,
  RECENT_FORMATS,
  REPORT_KINDS,
  type ReportKind,
} from '../api/types';

export const VERBS = ['recent', 'follow', 'report', 'datasources'] as const;
export type Verb = (typeof VERBS)[number];

export type FieldType = 'string' | 'list' | 'boolean' | 'enum' | 'time' | 'integer' | 'metricSelect';

/** Where a key may appear: a verb, or a report of one kind. */
export type VerbContext = 'recent' | 'follow' | 'datasources' | `report:${ReportKind}`;

export const FIELD_NAMES = [
  'org',
  'allDatasources',
  'datasourceIds',
  'nodeIds',
  'refSiteIds',
  'outputFrequency',
  'format',
  'fileFormat',
  'startTime',
  'endTime',
  'metricSelect',
  'metricLabelStyle',
  'qcAssessment',
  'qcFlags',
  'dataVersion',
  'locationRounding',
  'replyWithContinuationToken',
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

export interface FieldSpec {
  name: FieldName;
  type: FieldType;
  values?: readonly string[];
  contexts: readonly VerbContext[];
}

const ALL_REPORTS: VerbContext[] = REPORT_KINDS.map((k) => `report:${k}` as const);
const QUERY: VerbContext[] = ['recent', 'follow'];
const MEASURES: VerbContext[] = [...QUERY, ...ALL_REPORTS];

export const FIELDS: Record<FieldName, FieldSpec> = {
  org: { name: 'org', type: 'string', contexts: [...MEASURES, 'datasources'] },
  allDatasources: { name: 'allDatasources', type: 'boolean', contexts: [...QUERY, 'report:datasource-measurements'] },
  datasourceIds: { name: 'datasourceIds', type: 'list', contexts: [...QUERY, 'report:datasource-measurements'] },
  nodeIds: { name: 'nodeIds', type: 'list', contexts: ['report:node-measurements'] },
  refSiteIds: { name: 'refSiteIds', type: 'list', contexts: ['report:reference-site-measurements'] },
  outputFrequency: { name: 'outputFrequency', type: 'enum', values: OUTPUT_FREQUENCIES, contexts: MEASURES },
  format: { name: 'format', type: 'enum', values: RECENT_FORMATS, contexts: QUERY },
  fileFormat: { name: 'fileFormat', type: 'enum', values: FILE_FORMATS, contexts: ALL_REPORTS },
  startTime: { name: 'startTime', type: 'time', contexts: MEASURES },
  endTime: { name: 'endTime', type: 'time', contexts: ALL_REPORTS },
  metricSelect: { name: 'metricSelect', type: 'metricSelect', contexts: MEASURES },
  metricLabelStyle: { name: 'metricLabelStyle', type: 'enum', values: METRIC_LABEL_STYLES, contexts: ALL_REPORTS },
  qcAssessment: { name: 'qcAssessment', type: 'boolean', contexts: MEASURES },
  qcFlags: { name: 'qcFlags', type: 'boolean', contexts: MEASURES },
  dataVersion: { name: 'dataVersion', type: 'enum', values: DATA_VERSIONS, contexts: MEASURES },
  locationRounding: { name: 'locationRounding', type: 'integer', contexts: QUERY },
  // An API field the follow verb sets itself; not written in cells.
  replyWithContinuationToken: { name: 'replyWithContinuationToken', type: 'boolean', contexts: [] },
};

/** Why a known key does not belong to a verb (the second half of the diagnostic message). */
export function notForVerbHint(field: FieldName, context: VerbContext): string {
  const isReport = context.startsWith('report:');
  if (context === 'datasources') return 'datasources takes only org';
  switch (field) {
    case 'replyWithContinuationToken':
      return 'the follow verb asks for continuation tokens itself; use `follow` instead';
    case 'endTime':
      return 'recent queries return everything from startTime up to now; use a report for a closed time range';
    case 'fileFormat':
      return 'fileFormat is for reports; recent queries use format: json-long or csv-wide';
    case 'format':
      return isReport ? 'reports use fileFormat: csv-wide or parquet-wide' : 'not a field of this verb';
    case 'metricLabelStyle':
      return 'metricLabelStyle applies to report files only; recent queries always use canonical labels';
    case 'locationRounding':
      return 'locationRounding applies to the recent query only';
    case 'nodeIds':
      return 'nodeIds belongs to `report node-measurements`';
    case 'refSiteIds':
      return 'refSiteIds belongs to `report reference-site-measurements`';
    case 'datasourceIds':
    case 'allDatasources':
      return isReport
        ? `${field} belongs to \`report datasource-measurements\` and to recent/follow`
        : 'not a field of this verb';
    default:
      return 'not a field of this verb';
  }
}

export function contextOf(verb: Verb, reportKind?: ReportKind): VerbContext | undefined {
  if (verb !== 'report') return verb;
  return reportKind ? `report:${reportKind}` : undefined;
}

/** Keys that may be written for a verb (and report kind), in the documented order. */
export function keysFor(verb: Verb, reportKind?: ReportKind): FieldSpec[] {
  const ctx = contextOf(verb, reportKind);
  return FIELD_NAMES.map((n) => FIELDS[n]).filter((f) =>
    ctx ? f.contexts.includes(ctx) : f.contexts.some((c) => c.startsWith('report:')),
  );
}

export function isFieldName(name: string): name is FieldName {
  return (FIELD_NAMES as readonly string[]).includes(name);
}
