// The keys of the language: the API's own field names. Which request takes which field, its type and
// its allowed values come from the one home of the field rules (src/core/api/validate.ts); this module
// only adds where each key may be written (per verb) and how its text is read.
import { ID_FIELD_SOURCES, type IdField, REPORT_KINDS, type ReportKind, type SourceType } from '../api/types';
import { RECENT_QUERY_FIELDS, REPORT_FIELDS, type FieldSpec as RuleSpec } from '../api/validate';

export const VERBS = ['recent', 'follow', 'report', 'datasources', 'sql', 'params'] as const;
export type Verb = (typeof VERBS)[number];

type FieldType = 'string' | 'list' | 'boolean' | 'enum' | 'time' | 'integer' | 'metricSelect';

/** Where a key may appear: a verb, or a report of one kind. */
type VerbContext = 'recent' | 'follow' | 'datasources' | 'sql' | 'params' | `report:${ReportKind}`;

/** Every key a cell may hold (the request fields of the recent query and the reports, minus `report`). */
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

/**
 * The keys that take ids, and which ids (GET /v2/datasources): datasourceIds takes any datasource's
 * `datasourceId`; nodeIds and refSiteIds take the `currentSourceId` of datasources of one `sourceType`.
 */
interface IdKeySpec {
  idField: 'datasourceId' | 'currentSourceId';
  sourceType?: SourceType;
  /** What the id names, in words. */
  noun: string;
}

export type IdKey = IdField;

function idKey(key: IdKey, idField: IdKeySpec['idField']): IdKeySpec {
  const { sourceType, noun } = ID_FIELD_SOURCES[key];
  return sourceType ? { idField, sourceType, noun: `${noun} id` } : { idField, noun: `${noun} id` };
}

export const ID_KEYS: Readonly<Record<IdKey, IdKeySpec>> = {
  datasourceIds: idKey('datasourceIds', 'datasourceId'),
  nodeIds: idKey('nodeIds', 'currentSourceId'),
  refSiteIds: idKey('refSiteIds', 'currentSourceId'),
};

export function isIdKey(key: string): key is IdKey {
  return Object.hasOwn(ID_KEYS, key);
}

interface FieldSpec {
  name: FieldName;
  type: FieldType;
  values?: readonly string[];
  contexts: readonly VerbContext[];
}

// Fields the verbs set themselves: `report` is the verb's argument, follow asks for the token.
const SET_BY_VERB = new Set(['report', 'replyWithContinuationToken']);

function contextFields(): Map<VerbContext, readonly RuleSpec[]> {
  const m = new Map<VerbContext, readonly RuleSpec[]>();
  m.set('recent', RECENT_QUERY_FIELDS);
  m.set('follow', RECENT_QUERY_FIELDS);
  for (const kind of REPORT_KINDS) m.set(`report:${kind}`, REPORT_FIELDS[kind]);
  m.set(
    'datasources',
    RECENT_QUERY_FIELDS.filter((f) => f.name === 'org'),
  );
  return m;
}

function languageType(rule: RuleSpec): FieldType {
  if (rule.name === 'metricSelect') return 'metricSelect';
  return rule.type === 'string[]' ? 'list' : rule.type;
}

function buildFields(): Record<FieldName, FieldSpec> {
  const out = {} as Record<FieldName, FieldSpec>;
  for (const name of FIELD_NAMES) out[name] = { name, type: 'string', contexts: [] };
  for (const [ctx, rules] of contextFields()) {
    for (const rule of rules) {
      if (!isFieldName(rule.name)) continue;
      const spec = out[rule.name];
      spec.type = languageType(rule);
      if (rule.values) spec.values = rule.values;
      if (!SET_BY_VERB.has(rule.name)) spec.contexts = [...spec.contexts, ctx];
    }
  }
  return out;
}

export function isFieldName(name: string): name is FieldName {
  return (FIELD_NAMES as readonly string[]).includes(name);
}

export const FIELDS: Record<FieldName, FieldSpec> = buildFields();

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
