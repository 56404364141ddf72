// Historical reports: accepted (quota permitting), in progress for the configured delay, then succeeded
// with pre-signed, expiring file URLs (served without the key), or failed by an injected fault.
// Files are generated when downloaded (data is a pure function), so nothing large is kept.
import { randomBytes } from 'node:crypto';
import {
  DATA_VERSIONS,
  FILE_FORMATS,
  ID_FIELD_SOURCES,
  METRIC_LABEL_STYLES,
  type MetricLabelStyle,
  OUTPUT_FREQUENCIES,
  type OutputFrequency,
  PERIOD_MS,
  REPORT_ID_FIELD,
  REPORT_KINDS,
  type ReportKind,
  type ReportRecord,
  reportIdColumn,
} from '../core/api/types';
import { selectMetrics } from '../core/query/metric-select';
import { Aggregator, compileMetrics } from './aggregates';
import { HOUR_MS } from './clock';
import { authorizeOrg, type EmulatorContext, resolveDatasources } from './context';
import { hasMeasurement } from './generator';
import { badRequest, HttpError } from './http';
import { ceilTo } from './periods';
import type { ReportQuota } from './quota';
import { Fields } from './request-fields';
import { periodVisible, type RowPlan, streamRows } from './rows';
import { sign, verify } from './signing';
import type { ReportLifecycle, StoredReport } from './state-file';
import { type Datasource, type OrgInfo, Q, type World } from './world';
import type { IdColumn } from './writers/columns';
import { CsvWideWriter } from './writers/csv-wide';
import { ParquetWideWriter } from './writers/parquet-wide';

const REPORT_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const REPORT_ID_LENGTH = 10;
/** How many datasources go into one report file (a report has one or more URLs). */
const DATASOURCES_PER_FILE = 10;
/** Lifetime of signed file URLs from the status call that issued them. */
const FILE_URL_TTL_MS = HOUR_MS;
export const FILE_PATH_PREFIX = '/_files/reports/';
/** The emulator builds Parquet files in memory; bigger ones are refused (the report fails). */
const MAX_PARQUET_ROWS_PER_FILE = 500_000;
/** Aggregate cache of a restored report's world (downloads of old reports are rare; keep it small). */
const PAST_WORLD_CACHE_ENTRIES = 4096;
/** Worlds of earlier anchors kept at once (least recently used dropped first). */
const PAST_WORLDS_KEPT = 3;

interface ReportEntry extends ReportRequest, ReportLifecycle {
  /** The datasource ids of each file (ids do not depend on the anchor; the datasources' events do). */
  fileDatasourceIds: string[][];
}

/** What a report was asked for, validated: everything its files are generated from besides the world. */
interface ReportRequest {
  kind: ReportKind;
  query: Record<string, unknown>;
  frequency: OutputFrequency;
  from: number;
  to: number;
  labelStyle: MetricLabelStyle;
  parquet: boolean;
  metricSelect?: string;
  qcAssessment: boolean;
  qcFlags: boolean;
  qcVersion: boolean;
  idColumn: IdColumn;
}

/** A world other than the current one (reports restored from an earlier run), with its own small cache. */
interface PastWorld {
  world: World;
  aggregator: Aggregator;
}

export interface ReportFile {
  chunks: AsyncIterable<string | Uint8Array>;
  contentType: string;
  name: string;
  /** The file itself is gzip (csv.gz), not a Content-Encoding. */
  gzipFile: boolean;
}

/** Where the reports are kept between runs (the emulator's state file), if anywhere. */
export interface ReportPersistence {
  restored: StoredReport[];
  /** Reads the stored reports again (another emulator on the same file, say in another window, may have added some). */
  reload(): StoredReport[];
  /** Builds the world of an earlier anchor (same seed and datasource count). */
  worldAt(anchor: number): World;
  /** Resolves when the reports are on disk (the reply waits: another emulator on the file reads them). */
  save(reports: StoredReport[]): Promise<void>;
}

export class ReportService {
  private readonly reports = new Map<string, ReportEntry>();
  private readonly pastWorlds = new Map<number, PastWorld>();

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly quota: ReportQuota,
    private readonly delayMs: number,
    private readonly persistence?: ReportPersistence,
  ) {
    for (const stored of persistence?.restored ?? []) {
      const entry = this.restore(stored);
      if (entry) this.reports.set(entry.id, entry);
    }
  }

  private restore(s: StoredReport): ReportEntry | undefined {
    const ids = s.fileDatasourceIds;
    if (!Array.isArray(ids) || !ids.every((f) => Array.isArray(f) && f.every((id) => this.ctx.world.byId.has(id))))
      return undefined; // not of this world (another seed or datasource count): dropped
    return {
      ...(s.request as unknown as ReportRequest),
      id: s.id,
      org: s.org,
      anchor: s.anchor,
      createdAt: s.createdAt,
      readyAt: s.readyAt,
      failure: s.failure,
      fileDatasourceIds: ids,
    };
  }

  /** The report with this id, looking in the state file once more when it is not known here. */
  private find(id: string): ReportEntry | undefined {
    const known = this.reports.get(id);
    if (known || !this.persistence) return known;
    const stored = this.persistence.reload().find((r) => r.id === id);
    const entry = stored && this.restore(stored);
    if (entry) this.reports.set(entry.id, entry);
    return entry;
  }

  private worldOf(anchor: number): PastWorld {
    if (anchor === this.ctx.world.anchor || !this.persistence)
      return { world: this.ctx.world, aggregator: this.ctx.aggregator };
    let past = this.pastWorlds.get(anchor);
    if (past) {
      this.pastWorlds.delete(anchor); // re-inserted below: the map's order is the recency order
    } else {
      past = { world: this.persistence.worldAt(anchor), aggregator: new Aggregator(PAST_WORLD_CACHE_ENTRIES) };
      if (this.pastWorlds.size >= PAST_WORLDS_KEPT) this.pastWorlds.delete(this.pastWorlds.keys().next().value!);
    }
    this.pastWorlds.set(anchor, past);
    return past;
  }

  private async persist(): Promise<void> {
    if (!this.persistence) return;
    await this.persistence.save(
      [...this.reports.values()].map(
        ({ id, org, anchor, createdAt, readyAt, failure, fileDatasourceIds, ...request }) => ({
          id,
          org,
          anchor,
          createdAt,
          readyAt,
          failure,
          request: request as unknown as Record<string, unknown>,
          fileDatasourceIds,
        }),
      ),
    );
  }

  /** POST /v2/report-requests. Everything is checked before the quota is touched. */
  async create(keyOrg: OrgInfo, body: Record<string, unknown>, failByFault: boolean): Promise<ReportRecord> {
    const f = new Fields(body);
    const org = authorizeOrg(this.ctx, keyOrg, f.requiredString('org'));
    const kind = f.oneOf('report', REPORT_KINDS);
    const frequency = f.oneOf('outputFrequency', OUTPUT_FREQUENCIES);
    const start = f.time('startTime', true) as number;
    const end = f.time('endTime', true) as number;
    if (end <= start) throw badRequest('endTime must be after startTime');
    const labelStyle = f.oneOf('metricLabelStyle', METRIC_LABEL_STYLES, 'canonical');
    // Production clients send the file format as `format` (SERVICE-FACTS): honoured when fileFormat is absent.
    const fileFormat = f.has('fileFormat')
      ? f.oneOf('fileFormat', FILE_FORMATS)
      : f.oneOf('format', FILE_FORMATS, 'csv-wide');
    const metricSelect = f.optionalString('metricSelect');
    const selection = selectMetrics(metricSelect, frequency);
    if ('error' in selection) throw badRequest(selection.error);
    const qcAssessment = f.boolean('qcAssessment');
    const qcFlags = f.boolean('qcFlags');
    const dataVersion = f.oneOf('dataVersion', DATA_VERSIONS, 'legacy');
    const datasources = this.sources(org, kind, f);
    const now = this.ctx.clock.now();
    this.quota.take(org.org, now);

    const p = PERIOD_MS[frequency];
    const entry: ReportEntry = {
      id: this.newId(),
      org: org.org,
      anchor: this.ctx.world.anchor,
      kind,
      query: queryEcho(body, labelStyle, fileFormat),
      createdAt: now,
      readyAt: now + this.delayMs,
      failure: failByFault ? 'Report generation failed' : undefined,
      frequency,
      from: ceilTo(start, p),
      // Only whole periods before endTime, and nothing measured after the report was requested.
      to: Math.floor(Math.min(end, now) / p) * p,
      labelStyle,
      parquet: normalFormat(fileFormat) === 'parquet-wide',
      metricSelect,
      qcAssessment,
      qcFlags,
      qcVersion: dataVersion === 'v2026-11-10',
      idColumn: reportIdColumn(kind),
      fileDatasourceIds: chunk(datasources, DATASOURCES_PER_FILE).map((f) => f.map((d) => d.id)),
    };
    // Parquet files are built in memory: refuse (as a failed report) what would not fit comfortably.
    const files = entry.fileDatasourceIds.map((ids) => ids.map((id) => this.ctx.world.byId.get(id) as Datasource));
    if (entry.parquet && files.some((file) => fileRowsOver(file, entry, MAX_PARQUET_ROWS_PER_FILE))) {
      entry.failure = `Report generation failed: a parquet-wide file would hold over ${MAX_PARQUET_ROWS_PER_FILE} rows; use csv-wide or a shorter range`;
    }
    this.reports.set(entry.id, entry);
    await this.persist();
    return this.record(entry);
  }

  /** A fresh report id: 10 upper-case letters and digits, as the service's (e.g. JBLLZT8NW9). */
  private newId(): string {
    for (;;) {
      const bytes = randomBytes(REPORT_ID_LENGTH);
      let id = '';
      for (const b of bytes) id += REPORT_ID_ALPHABET[b % REPORT_ID_ALPHABET.length];
      if (!this.find(id)) return id;
    }
  }

  /** GET /v2/report-requests/{id}: 404 for unknown ids and for reports of other orgs. */
  status(keyOrg: OrgInfo, id: string): ReportRecord {
    const entry = this.find(id);
    if (!entry || entry.org !== keyOrg.org) throw new HttpError(404, `Report not found: ${id}`);
    return this.record(entry);
  }

  private record(entry: ReportEntry): ReportRecord {
    const now = this.ctx.clock.now();
    const base = { reportId: entry.id, report: entry.kind, query: entry.query };
    if (now < entry.readyAt) return { ...base, reportStatus: 'in-progress', message: 'Processing', urls: [] };
    if (entry.failure) return { ...base, reportStatus: 'failed', message: entry.failure, urls: [] };
    const expires = now + FILE_URL_TTL_MS;
    const ext = entry.parquet ? 'parquet' : 'csv.gz';
    const urls = entry.fileDatasourceIds.map((_, i) => {
      const path = `${FILE_PATH_PREFIX}${entry.id}/part-${String(i).padStart(3, '0')}.${ext}`;
      const signature = sign(this.ctx.world.secret, `file:${path}\n${expires}`);
      return `${this.ctx.fileBaseUrl()}${path}?expires=${expires}&signature=${signature}`;
    });
    return {
      ...base,
      reportStatus: 'succeeded',
      message: 'Ready',
      urls,
      urlsExpireAt: new Date(expires).toISOString(),
    };
  }

  /** GET of a signed file URL (no key): the file's bytes, generated as they are sent. */
  file(path: string, search: URLSearchParams): ReportFile {
    const expires = Number(search.get('expires'));
    const signature = search.get('signature') ?? '';
    if (!Number.isFinite(expires) || !verify(this.ctx.world.secret, `file:${path}\n${expires}`, signature)) {
      throw new HttpError(403, 'Signature does not match');
    }
    if (this.ctx.clock.now() > expires) throw new HttpError(403, 'Request has expired');
    const m = /^\/_files\/reports\/([^/]+)\/part-(\d+)\.(csv\.gz|parquet)$/.exec(path);
    const entry = m ? this.find(m[1]) : undefined;
    const ids = entry?.fileDatasourceIds[Number(m?.[2])];
    if (!m || !entry || !ids) throw new HttpError(404, 'No such file');
    const { world, aggregator } = this.worldOf(entry.anchor);
    const files = ids.map((id) => world.byId.get(id) as Datasource);
    const metrics = compileMetrics(
      (selectMetrics(entry.metricSelect, entry.frequency) as { metrics: [] }).metrics,
      (id) => Q[id],
    );
    const plan: RowPlan = {
      datasources: files,
      frequency: entry.frequency,
      from: entry.from,
      to: entry.to,
      metrics,
      qcVersion: entry.qcVersion,
      order: 'datasource-time-asc',
      // A minute measurement taken late belongs to the next minute: not in the file when that is past the end.
      before: entry.to,
    };
    const layout = {
      idColumn: entry.idColumn,
      frequency: entry.frequency,
      labelStyle: entry.labelStyle,
      valueColumns: true,
      qcAssessment: entry.qcAssessment,
      qcFlags: entry.qcFlags,
      locationDecimals: 8,
      sortMetrics: true,
    };
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (entry.parquet) {
      return {
        chunks: streamRows(plan, new ParquetWideWriter(layout, metrics), aggregator),
        contentType: 'application/vnd.apache.parquet',
        name,
        gzipFile: false,
      };
    }
    return {
      chunks: streamRows(plan, new CsvWideWriter(layout, metrics), aggregator),
      contentType: 'application/gzip',
      name,
      gzipFile: true,
    };
  }

  private sources(org: OrgInfo, kind: ReportKind, f: Fields): Datasource[] {
    if (kind === 'datasource-measurements') {
      if (f.boolean('allDatasources')) return org.datasources;
      return resolveDatasources(org, 'datasourceIds', f.stringList('datasourceIds', true) ?? []);
    }
    const field = REPORT_ID_FIELD[kind];
    const { sourceType, noun } = ID_FIELD_SOURCES[field];
    return (f.stringList(field, true) ?? []).flatMap((id) => {
      const found = org.datasources.filter((d) => d.sourceType === sourceType && d.sourceId === id);
      if (found.length === 0) throw badRequest(`${field}: unknown ${noun} '${id}' for org '${org.org}'`);
      return found;
    });
  }
}

/**
 * Whether a file of these datasources holds more than `limit` rows: its visible periods (minute output: those
 * with a measurement), counted until the limit is passed (bounded work whatever the range).
 */
function fileRowsOver(file: readonly Datasource[], entry: ReportRequest, limit: number): boolean {
  const p = PERIOD_MS[entry.frequency];
  const periods = Math.max(0, Math.ceil((entry.to - entry.from) / p));
  if (file.length * periods <= limit) return false;
  let rows = 0;
  for (const ds of file) {
    for (let t = entry.from; t < entry.to; t += p) {
      if (!periodVisible(ds, t, p)) continue;
      if (entry.frequency === 'minute' && !hasMeasurement(ds, t / p)) continue;
      if (++rows > limit) return true;
    }
  }
  return false;
}

/**
 * The record's query: the fields as submitted (unknown ones too), the defaults real replies echo (format,
 * metricLabelStyle), and the contract's columnLabelStyle/fileFormat.
 */
function queryEcho(body: Record<string, unknown>, labelStyle: MetricLabelStyle, fileFormat: string) {
  const format = normalFormat(fileFormat);
  return { format, ...body, metricLabelStyle: labelStyle, columnLabelStyle: labelStyle, fileFormat };
}

function normalFormat(fileFormat: string): 'csv-wide' | 'parquet-wide' {
  return fileFormat === 'parquet' || fileFormat === 'parquet-wide' ? 'parquet-wide' : 'csv-wide';
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out.length ? out : [[]];
}
