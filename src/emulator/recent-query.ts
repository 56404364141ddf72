// POST /v2/recent-datasource-measurements-query and -continuation: cached recent data, newest first,
// json-long or csv-wide, with signed continuation tokens (24 h) that return only newer periods.
import { CONTINUATION_TOKEN_HEADER } from '../core/api/paths';
import {
  DATA_VERSIONS,
  type DataVersion,
  OUTPUT_FREQUENCIES,
  type OutputFrequency,
  PERIOD_MS,
  RECENT_FORMATS,
  type RecentFormat,
} from '../core/api/types';
import { selectMetrics } from '../core/query/metric-select';
import { compileMetrics } from './aggregates';
import { DAY_MS } from './clock';
import { authorizeOrg, type EmulatorContext, resolveDatasources } from './context';
import { badRequest, HttpError } from './http';
import { defaultStartTime, firstPeriodStart, lastPeriodStart, windowCutoff } from './periods';
import { Fields } from './request-fields';
import { type RowPlan, type RowWriter, streamRows } from './rows';
import { openToken, sealToken } from './signing';
import type { OrgInfo } from './world';
import { Q } from './world';
import { CsvWideWriter } from './writers/csv-wide';
import { JsonLongWriter } from './writers/json-long';

const TOKEN_VALIDITY_MS = DAY_MS;

/** A recent query after validation; what a continuation token carries forward. */
interface RecentQuery {
  org: string;
  allDatasources: boolean;
  datasourceIds?: string[];
  outputFrequency: OutputFrequency;
  format: RecentFormat;
  metricSelect?: string;
  qcAssessment: boolean;
  qcFlags: boolean;
  dataVersion: DataVersion;
  locationRounding?: number;
}

interface TokenPayload {
  v: 1;
  q: RecentQuery;
  /** First period start not yet returned (minute output: the first that may still hold unreturned measurements). */
  from: number;
  /** Minute output: every measurement taken at or before this moment was returned. */
  seenUntil?: number;
  /** Issued at (emulator clock). */
  iat: number;
}

export interface RecentReply {
  chunks: AsyncIterable<string | Uint8Array>;
  contentType: string;
  headers: Record<string, string>;
}

function parseRecentQuery(body: Record<string, unknown>): {
  query: RecentQuery;
  startTime?: number;
  withToken: boolean;
} {
  const f = new Fields(body);
  const org = f.requiredString('org');
  const allDatasources = f.boolean('allDatasources');
  const datasourceIds = f.stringList('datasourceIds', !allDatasources);
  const query: RecentQuery = {
    org,
    allDatasources,
    ...(allDatasources ? {} : { datasourceIds }),
    outputFrequency: f.oneOf('outputFrequency', OUTPUT_FREQUENCIES, 'minute'),
    format: f.oneOf('format', RECENT_FORMATS, 'json-long'),
    metricSelect: f.optionalString('metricSelect'),
    qcAssessment: f.boolean('qcAssessment'),
    qcFlags: f.boolean('qcFlags'),
    dataVersion: f.oneOf('dataVersion', DATA_VERSIONS, 'legacy'),
    locationRounding: f.integer('locationRounding', 0, 10),
  };
  const selection = selectMetrics(query.metricSelect, query.outputFrequency);
  if ('error' in selection) throw badRequest(selection.error);
  return { query, startTime: f.time('startTime', false), withToken: f.boolean('replyWithContinuationToken') };
}

/** What a reply covers: period starts from `from`, and minute measurements at or after `cutoff`. */
interface RecentWindow {
  from: number;
  cutoff: number;
  /** The request echo of json-long replies. */
  echo: Record<string, unknown>;
}

/** The json-long echo: the request as sent (unknown fields too), the defaults filled in, startTime as given or defaulted. */
function requestEcho(
  sent: Record<string, unknown>,
  query: RecentQuery,
  startTime: number,
  withToken: boolean,
): Record<string, unknown> {
  const { allDatasources, datasourceIds, ...rest } = query;
  return {
    ...sent,
    ...rest,
    ...(allDatasources ? { allDatasources } : { datasourceIds }),
    ...(sent.replyWithContinuationToken !== undefined ? { replyWithContinuationToken: withToken } : {}),
    startTime: new Date(startTime).toISOString(),
  };
}

/** Builds the reply for the periods [from, newest]; `withToken` adds the next continuation token. */
function recentReply(
  ctx: EmulatorContext,
  keyOrg: OrgInfo,
  query: RecentQuery,
  window: RecentWindow,
  withToken: boolean,
  continuation: boolean,
): RecentReply {
  const { from, cutoff } = window;
  const org = authorizeOrg(ctx, keyOrg, query.org);
  const datasources = query.allDatasources
    ? org.datasources
    : resolveDatasources(org, 'datasourceIds', query.datasourceIds ?? []);
  const now = ctx.clock.now();
  const frequency = query.outputFrequency;
  const p = PERIOD_MS[frequency];
  const last = lastPeriodStart(frequency, now);
  const selection = selectMetrics(query.metricSelect, frequency);
  if ('error' in selection) throw badRequest(selection.error);
  const metrics = compileMetrics(selection.metrics, (id) => Q[id]);
  const plan: RowPlan = {
    datasources,
    frequency,
    from,
    to: last + p,
    metrics,
    qcVersion: query.dataVersion === 'v2026-11-10',
    order: 'time-desc',
    // Minute measurements are taken at irregular moments: none after now, none before the cut-off.
    notBefore: cutoff,
    before: now + 1,
  };
  const headers: Record<string, string> = {};
  if (withToken) headers[CONTINUATION_TOKEN_HEADER] = nextToken(ctx, query, from, last, now);
  const { writer, contentType } = replyWriter(ctx, query, metrics, window, continuation);
  return { chunks: streamRows(plan, writer, ctx.aggregator, ctx.rowCache), contentType, headers };
}

/**
 * The continuation token of a reply. Minute: the next reply starts at the measurements taken after now (the
 * current and previous minute may still have some); hour and day: at the next complete period.
 */
function nextToken(ctx: EmulatorContext, query: RecentQuery, from: number, last: number, now: number): string {
  const p = PERIOD_MS[query.outputFrequency];
  const payload: TokenPayload =
    query.outputFrequency === 'minute'
      ? { v: 1, q: query, from: Math.max(from, last - p), seenUntil: now, iat: now }
      : { v: 1, q: query, from: Math.max(from, last + p), iat: now };
  return sealToken(ctx.world.secret, payload);
}

/** The writer of a reply's format (csv-wide or json-long) and its content type. */
function replyWriter(
  ctx: EmulatorContext,
  query: RecentQuery,
  metrics: RowPlan['metrics'],
  window: RecentWindow,
  continuation: boolean,
): { writer: RowWriter; contentType: string } {
  if (query.format === 'csv-wide') {
    const layout = {
      idColumn: 'datasourceId' as const,
      frequency: query.outputFrequency,
      labelStyle: 'canonical' as const,
      valueColumns: false,
      qcAssessment: query.qcAssessment,
      qcFlags: query.qcFlags,
      locationDecimals: query.locationRounding ?? 6,
      // As in real files: metric columns sorted by label (never rely on the order).
      sortMetrics: true,
    };
    return { contentType: 'text/csv; charset=utf-8', writer: new CsvWideWriter(layout, metrics) };
  }
  const writer = new JsonLongWriter(metrics, {
    request: window.echo,
    qcAssessment: query.qcAssessment,
    qcFlags: query.qcFlags,
    locationDecimals: query.locationRounding ?? 5,
    omitEmptyLocations: continuation,
    seed: ctx.world.seed,
    periodMs: PERIOD_MS[query.outputFrequency],
  });
  return { contentType: 'application/json', writer };
}

export function startRecentQuery(ctx: EmulatorContext, keyOrg: OrgInfo, body: Record<string, unknown>): RecentReply {
  const { query, startTime, withToken } = parseRecentQuery(body);
  const now = ctx.clock.now();
  const asked = startTime ?? defaultStartTime(query.outputFrequency, now);
  const cutoff = windowCutoff(query.outputFrequency, now, asked);
  const window = {
    from: firstPeriodStart(query.outputFrequency, cutoff),
    cutoff,
    echo: requestEcho(body, query, asked, withToken),
  };
  return recentReply(ctx, keyOrg, query, window, withToken, false);
}

export function continueRecentQuery(ctx: EmulatorContext, keyOrg: OrgInfo, body: Record<string, unknown>): RecentReply {
  const f = new Fields(body);
  const org = f.requiredString('org');
  const token = f.requiredString('continuationToken');
  authorizeOrg(ctx, keyOrg, org);
  const payload = openToken<TokenPayload>(ctx.world.secret, token);
  if (payload?.v !== 1) throw badRequest('continuationToken is invalid');
  const now = ctx.clock.now();
  if (now - payload.iat > TOKEN_VALIDITY_MS) {
    throw badRequest(
      `continuationToken has expired (issued ${new Date(payload.iat).toISOString()}; tokens are valid for 24 hours); start a new query`,
    );
  }
  if (payload.q.org !== org) throw new HttpError(400, `continuationToken was issued for another org than '${org}'`);
  const frequency = payload.q.outputFrequency;
  const after = payload.seenUntil === undefined ? payload.from : payload.seenUntil + 1;
  const cutoff = windowCutoff(frequency, now, after);
  const from = Math.max(payload.from, firstPeriodStart(frequency, cutoff));
  const echo = requestEcho({ ...payload.q }, payload.q, after, true);
  return recentReply(ctx, keyOrg, payload.q, { from, cutoff, echo }, true, true);
}
