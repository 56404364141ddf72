// Hover and completion documentation of the language, drawn from SERVICE-INTERFACE.md field
// descriptions. The one home of these strings: the extension's hover and completion use them.

import { DAILY_REPORT_LIMIT } from '../api/paths';
import type { FieldName, Verb } from './fields';

interface FieldDoc {
  /** Type and rule summary, e.g. "boolean, default false". */
  summary: string;
  /** Text for the recent query and follow (when it differs from reports). */
  recent?: string;
  /** Text for reports (when it differs from the recent query). */
  report?: string;
  /** Text used for every verb otherwise. */
  text?: string;
}

export const FIELD_DOCS: Record<FieldName, FieldDoc> = {
  org: {
    summary: 'string',
    text: 'Organization id. Required on all requests; defaults to the org of the notebook connection.',
  },
  allDatasources: {
    summary: 'boolean, default false',
    recent:
      'true: all datasources of the org the caller may access. false or omitted: restrict by datasourceIds. ' +
      'With follow, the continuation includes or excludes datasources as they are subscribed or unsubscribed.',
    report: 'When true, all datasources of the org are queried.',
  },
  datasourceIds: {
    summary: 'comma-separated list of datasource ids',
    recent:
      'Modern datasource ids (as returned by GET /v2/datasources). Only measurements from periods when the ' +
      'datasource was subscribed by the org are returned. Provide it unless allDatasources is true.',
    report: 'Datasource ids. Required when allDatasources is missing or false.',
  },
  nodeIds: { summary: 'comma-separated list of node ids, required', text: 'Node (device) ids.' },
  refSiteIds: { summary: 'comma-separated list of reference site ids, required', text: 'Reference site ids.' },
  outputFrequency: {
    summary: 'minute | hour | day',
    recent:
      'minute (default): individual measurements, no aggregation. hour: 1-hour mean, 24-hour rolling mean and ' +
      'NowCast aggregations, and indexes calculated on them. day: 24-hour mean aggregations and indexes ' +
      'calculated on them.',
    report: 'Required. One of day, hour, minute.',
  },
  format: {
    summary: 'json-long | csv-wide',
    text:
      'json-long (default): a JSON object per metric in a measurement. csv-wide: CSV, one row per measurement. ' +
      'Both end as the same table.',
  },
  fileFormat: {
    summary: 'csv-wide | parquet-wide (shorthands csv, parquet)',
    text: 'File format of the report files: csv-wide (shorthand csv; default) or parquet-wide (shorthand parquet).',
  },
  startTime: {
    summary: 'time: ISO 8601 date or timestamp, or now, today, -90m, -6h, -2d',
    recent:
      'Cut-off for the earliest measurement. Defaults by frequency: minute = 1 hour before the request; ' +
      'hour = 24 hours before; day = 48 hours before. Earlier times are accepted but only cached data is ' +
      'returned (cache depth: 24 hours for minute, 48 hours for hour, 10 days for day output).',
    report: 'Required. Measurements on or after this time are returned (inclusive). A date without time is accepted.',
  },
  endTime: {
    summary: 'time: ISO 8601 date or timestamp, or now, today, -90m, -6h, -2d',
    text: 'Required. Measurements before this time are returned (exclusive).',
  },
  metricSelect: {
    summary: 'metric selection, e.g. only pm2_5ConcMassNowcast',
    text:
      'Limits the metrics returned. Starts with default (or nothing), all, none or only; then terms joined by ' +
      '+ (add) and - (remove); * is a wildcard; :name selects a category (e.g. :pollutant). Case-insensitive. ' +
      'Examples: only no2*, only :pollutant, default - *aqi*, only pm2_5* + pm10*.',
  },
  metricLabelStyle: {
    summary: 'canonical | english | legacy (reports only)',
    text:
      'canonical (default): stable identifiers, recommended for automation. english: human-readable text that ' +
      'may change over time; not an identifier. legacy: shorter label without the aggregation, ambiguous; for ' +
      'compatibility with v1 endpoints only.',
  },
  qcAssessment: {
    summary: 'boolean, default false',
    text: 'When true adds qcAssessment (valid or invalid) to each metric.',
  },
  qcFlags: {
    summary: 'boolean, default false',
    text: 'When true adds qcFlags (QC flag codes such as QC.I.OOB.001) to each metric.',
  },
  dataVersion: {
    summary: 'legacy | v2026-11-10',
    text:
      'legacy (default; the values the service has always returned) or v2026-11-10 (quality-controlled values ' +
      'for NowCasts and 24-hour rolling means).',
  },
  locationRounding: {
    summary: 'integer, decimal places',
    text: 'Number of decimal places for coordinates. Default 5 for json-long, 6 for csv-wide.',
  },
  replyWithContinuationToken: {
    summary: 'boolean',
    text: 'Set by the follow verb: the response carries a continuation token (valid 24 hours).',
  },
};

export const VERB_DOCS: Record<Verb, string> = {
  recent:
    'Recent measurements from the cache, in time-descending order, by datasource (csv-wide or json-long; ' +
    'both end as a table).',
  follow:
    'A recent query with a continuation token: each run returns only what is new since the last run. ' +
    '`follow every 5m` keeps polling and appends rows until cancelled.',
  report:
    'Creates a historical report (datasource-measurements, node-measurements or reference-site-measurements), ' +
    `waits for it, then loads its files into the table. At most ${DAILY_REPORT_LIMIT} reports per org per UTC day.`,
  datasources: "Lists the org's datasources (GET /v2/datasources).",
  sql:
    'DuckDB SQL on the following lines, over the named results of earlier cells (`recent as pm`) and files ' +
    "(read_parquet, read_csv; paths relative to the notebook's folder). `sql as daily` names its result too.",
  params:
    "The notebook's parameters, one `name: default` line each (`site: DABC1234`, `start: -7d`, `threshold: 35.4`; " +
    'or `name: type = default`, types number, time, ids, text, boolean). Query cells use them as `{{name}}` ' +
    'wherever a value goes; sql cells as `$name` (bound, never pasted). At most one per notebook.',
};

export const REPORT_KIND_DOCS: Record<string, string> = {
  'datasource-measurements': 'Measurements by datasource: needs datasourceIds or allDatasources: true.',
  'node-measurements': 'Measurements by node (device): needs nodeIds.',
  'reference-site-measurements': 'Measurements by reference site: needs refSiteIds.',
};

/** Documentation of a field for a verb, as markdown-free text. */
export function fieldDocText(field: FieldName, verb: Verb): string {
  const doc = FIELD_DOCS[field];
  const text = (verb === 'report' ? doc.report : doc.recent) ?? doc.text ?? doc.recent ?? doc.report ?? '';
  return `${field} (${doc.summary}): ${text}`;
}
