// Wire types of the measurements service (SERVICE-INTERFACE.md, SERVICE-FACTS.md).
// Shared by the client, the emulator, the query language and the CLI.
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time/duration';

export const REPORT_KINDS = ['datasource-measurements', 'node-measurements', 'reference-site-measurements'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

const SOURCE_TYPES = ['SERVICE_NODE', 'REFERENCE_SITE'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** A request field that lists ids: of datasources, or of the nodes or reference sites they measure at. */
export type IdField = 'datasourceIds' | 'nodeIds' | 'refSiteIds';

/** The request field that names what a report of each kind covers. */
export const REPORT_ID_FIELD: Readonly<Record<ReportKind, IdField>> = {
  'datasource-measurements': 'datasourceIds',
  'node-measurements': 'nodeIds',
  'reference-site-measurements': 'refSiteIds',
};

/** What the ids of each id field name: the datasources' source type (any for datasource ids), in words. */
export const ID_FIELD_SOURCES: Readonly<Record<IdField, { sourceType?: SourceType; noun: string }>> = {
  datasourceIds: { noun: 'datasource' },
  nodeIds: { sourceType: 'SERVICE_NODE', noun: 'node' },
  refSiteIds: { sourceType: 'REFERENCE_SITE', noun: 'reference site' },
};

/** The id column of a report's files: its id field in the singular (datasourceId, nodeId, refSiteId). */
export type ReportIdColumn = 'datasourceId' | 'nodeId' | 'refSiteId';

export function reportIdColumn(kind: ReportKind): ReportIdColumn {
  return REPORT_ID_FIELD[kind].slice(0, -1) as ReportIdColumn;
}

export const OUTPUT_FREQUENCIES = ['minute', 'hour', 'day'] as const;
export type OutputFrequency = (typeof OUTPUT_FREQUENCIES)[number];

/** The length of one period of each output frequency (its rows are this far apart). */
export const PERIOD_MS: Record<OutputFrequency, number> = { minute: MINUTE_MS, hour: HOUR_MS, day: DAY_MS };

/** How far back the recent query's cache reaches, per output frequency (SERVICE-INTERFACE Limits). */
export const CACHE_DEPTH_MS: Record<OutputFrequency, number> = { minute: DAY_MS, hour: 2 * DAY_MS, day: 10 * DAY_MS };

export const METRIC_LABEL_STYLES = ['canonical', 'english', 'legacy'] as const;
export type MetricLabelStyle = (typeof METRIC_LABEL_STYLES)[number];

/** File formats of reports; `csv` and `parquet` are accepted shorthands. */
export const FILE_FORMATS = ['csv-wide', 'parquet-wide', 'csv', 'parquet'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export const RECENT_FORMATS = ['json-long', 'csv-wide'] as const;
export type RecentFormat = (typeof RECENT_FORMATS)[number];

export const DATA_VERSIONS = ['legacy', 'v2026-11-10'] as const;
export type DataVersion = (typeof DATA_VERSIONS)[number];

/** Known report statuses; any other string is kept as-is (the service may add more). */
const KNOWN_REPORT_STATUSES = ['in-progress', 'succeeded', 'failed'] as const;
type ReportStatus = (typeof KNOWN_REPORT_STATUSES)[number] | (string & {});

interface ReportRequestCommon {
  org: string;
  outputFrequency: OutputFrequency;
  /** ISO 8601 date or timestamp, inclusive. */
  startTime: string;
  /** ISO 8601 date or timestamp, exclusive. */
  endTime: string;
  metricLabelStyle?: MetricLabelStyle;
  fileFormat?: FileFormat;
  metricSelect?: string;
  qcAssessment?: boolean;
  qcFlags?: boolean;
  dataVersion?: DataVersion;
}

interface DatasourceReportRequest extends ReportRequestCommon {
  report: 'datasource-measurements';
  allDatasources?: boolean;
  datasourceIds?: string[];
}

interface NodeReportRequest extends ReportRequestCommon {
  report: 'node-measurements';
  nodeIds: string[];
}

interface ReferenceSiteReportRequest extends ReportRequestCommon {
  report: 'reference-site-measurements';
  refSiteIds: string[];
}

export type ReportRequest = DatasourceReportRequest | NodeReportRequest | ReferenceSiteReportRequest;

/** The report record returned by POST /v2/report-requests and GET /v2/report-requests/:id. */
export interface ReportRecord {
  reportId: string;
  reportStatus: ReportStatus;
  message: string;
  report: ReportKind | (string & {});
  urls: string[];
  /** ISO 8601; when the file URLs stop working (SERVICE-FACTS). */
  urlsExpireAt?: string;
  query: Record<string, unknown>;
}

export interface RecentQueryRequest {
  org: string;
  allDatasources?: boolean;
  datasourceIds?: string[];
  replyWithContinuationToken?: boolean;
  outputFrequency?: OutputFrequency;
  format?: RecentFormat;
  startTime?: string;
  metricSelect?: string;
  qcAssessment?: boolean;
  qcFlags?: boolean;
  dataVersion?: DataVersion;
  locationRounding?: number;
}

export interface ContinuationRequest {
  org: string;
  continuationToken: string;
}

/** One metric of one measurement (json-long `data`). */
export interface MetricObject {
  datasourceId: string;
  time: string;
  status: string;
  value: number | null;
  raw: number | null;
  metric: string;
  qcAssessment?: string;
  qcFlags?: string[];
}

export interface LocationEntry {
  datasourceId: string;
  lon: number;
  lat: number;
  changedAt?: string;
}

export interface JsonLongBody {
  request: Record<string, unknown>;
  data: MetricObject[];
  /** May be missing on a continuation reply with nothing new: treat as empty. */
  locations?: LocationEntry[];
}

export interface DatasourceInfo {
  datasourceId: string;
  orgAnnotations: { group: string | null; name: string; tags: string[] };
  currentSubscriptionId: string;
  currentSourceId: string;
  sourceType: SourceType | (string & {});
}

export interface DatasourceList {
  subscribingOrg: string;
  datasources: DatasourceInfo[];
}
