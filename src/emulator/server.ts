// The HTTP server: routing, the API key, fault injection, and the test-only control endpoints.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { API_KEY_HEADER, PATHS } from '../core/api/paths';
import { sleep } from '../core/time/clock';
import { parseIsoMs } from '../core/time/iso';
import { parseDuration } from './clock';
import type { EmulatorContext } from './context';
import { getDatasource, listDatasources } from './datasources';
import {
  checkFaultConfig,
  type FaultConfig,
  type FaultDecision,
  type FaultEndpoint,
  type FaultInjector,
} from './faults';
import type { FileHostLog } from './file-host';
import { badRequest, HttpError, readJsonBody, sendInjectedError, sendJson, sendStream } from './http';
import { continueRecentQuery, type RecentReply, startRecentQuery } from './recent-query';
import type { ReportService } from './reports';
import type { OrgInfo } from './world';

const CONTROL_PREFIX = '/_emulator/';

interface ServerParts {
  ctx: EmulatorContext;
  reports: ReportService;
  faults: FaultInjector;
  control: boolean;
  /** Observes every request (method and path; never headers or the key). */
  onRequest?: (request: { method: string; path: string }) => void;
  /** The report file host (a second origin): GET /_emulator/file-host tells what it saw. */
  fileHost?: { url(): string; log: FileHostLog };
}

function endpointOf(method: string, path: string): FaultEndpoint | undefined {
  if (path === PATHS.root) return 'root';
  if (path === PATHS.reportRequests && method === 'POST') return 'reportCreate';
  if (path.startsWith(`${PATHS.reportRequests}/`) || path.startsWith('/v2/report-request/')) return 'reportStatus';
  if (path === PATHS.recentQuery) return 'recentQuery';
  if (path === PATHS.continuation) return 'continuation';
  if (path === PATHS.datasources || path.startsWith(`${PATHS.datasources}/`)) return 'datasources';
  return undefined;
}

function keyOrg(parts: ServerParts, req: IncomingMessage): OrgInfo {
  const key = req.headers[API_KEY_HEADER];
  const org = typeof key === 'string' ? parts.ctx.world.byKey.get(key) : undefined;
  if (!org) throw new HttpError(403, 'Forbidden');
  return org;
}

function requireMethod(req: IncomingMessage, method: string): void {
  if (req.method !== method) throw new HttpError(405, `Method ${req.method} is not allowed here; use ${method}`);
}

/** A %-decoded path segment; a malformed escape is the client's error (400), not the emulator's. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('The path has a malformed %-escape');
  }
}

function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', 'http://emulator.invalid');
  } catch {
    throw badRequest('The request target is not a valid URL path');
  }
}

/** Clock moves must land on a time every part of the emulator can print: years 1970 to 9999. */
const LATEST_CLOCK_MS = Date.UTC(10000, 0, 1) - 1;

function checkClockTarget(ms: number, what: string): number {
  if (!Number.isFinite(ms) || ms < 0 || ms > LATEST_CLOCK_MS) {
    throw badRequest(`${what} would move the clock outside years 1970 to 9999`);
  }
  return ms;
}

async function route(parts: ServerParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = requestUrl(req);
  const path = url.pathname;
  const method = req.method ?? 'GET';
  const { ctx, reports } = parts;
  parts.onRequest?.({ method, path });

  if (path.startsWith(CONTROL_PREFIX)) {
    if (!parts.control) throw new HttpError(404, `Not found: ${path}`);
    return control(parts, req, res, path);
  }

  const endpoint = endpointOf(method, path);
  if (!endpoint) throw new HttpError(404, `Not found: ${path}`);
  const fault = parts.faults.decide(endpoint);
  if (fault.latencyMs > 0) await sleep(fault.latencyMs);
  if (fault.error) {
    req.resume();
    return sendInjectedError(res, fault.error);
  }
  if (fault.reset && endpoint !== 'recentQuery' && endpoint !== 'continuation' && endpoint !== 'reportFile') {
    req.socket.destroy();
    return;
  }

  switch (endpoint) {
    case 'root':
      return sendJson(res, 200, { message: 'measurements service emulator', now: new Date(ctx.clock.now()) });
    case 'reportCreate': {
      const org = keyOrg(parts, req);
      return sendJson(res, 200, await reports.create(org, await readJsonBody(req), fault.reportFailed));
    }
    case 'reportStatus': {
      requireMethod(req, 'GET');
      const org = keyOrg(parts, req);
      const id = decodeSegment(path.slice(path.lastIndexOf('/') + 1));
      const record = reports.status(org, id);
      // A status the client does not know (fault report-status): no files with it.
      const shown = fault.reportStatus
        ? { ...record, reportStatus: fault.reportStatus, message: '', urls: [] }
        : record;
      return sendJson(res, 200, shown);
    }
    case 'recentQuery':
    case 'continuation':
      return sendRecent(parts, endpoint, req, res, fault);
    case 'datasources': {
      requireMethod(req, 'GET');
      const org = keyOrg(parts, req);
      if (path === PATHS.datasources) return sendJson(res, 200, listDatasources(ctx, org, url.searchParams));
      const id = decodeSegment(path.slice(PATHS.datasources.length + 1));
      // Wrapped as the real service does (a public client reads {"datasource": {...}}).
      return sendJson(res, 200, { datasource: getDatasource(ctx, org, id, url.searchParams) });
    }
  }
}

/** POST of a recent query or its continuation: the rows streamed as they are made. */
async function sendRecent(
  parts: ServerParts,
  endpoint: 'recentQuery' | 'continuation',
  req: IncomingMessage,
  res: ServerResponse,
  fault: FaultDecision,
): Promise<void> {
  requireMethod(req, 'POST');
  const org = keyOrg(parts, req);
  const body = await readJsonBody(req);
  const reply: RecentReply =
    endpoint === 'recentQuery' ? startRecentQuery(parts.ctx, org, body) : continueRecentQuery(parts.ctx, org, body);
  return sendStream(req, res, reply.chunks, {
    contentType: reply.contentType,
    gzip: 'negotiate',
    headers: reply.headers,
    damage: fault.damage,
  });
}

/**
 * POST /_emulator/clock {"advance":"25h"} | {"set":"<ISO>"}; POST /_emulator/faults {"rules":[...]};
 * GET /_emulator/file-host: the file host's URL, its request count and the requests that carried the key.
 */
async function control(parts: ServerParts, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const clock = parts.ctx.clock;
  if (path === `${CONTROL_PREFIX}clock`) {
    if (req.method === 'POST') {
      const body = await readJsonBody(req);
      if (typeof body.advance === 'string' || typeof body.advance === 'number') {
        let ms: number;
        try {
          ms = parseDuration(body.advance);
        } catch {
          throw badRequest(`advance must be a duration such as "25h" (got '${String(body.advance).slice(0, 40)}')`);
        }
        checkClockTarget(clock.now() + ms, 'advance');
        clock.advance(ms);
      } else if (typeof body.set === 'string') {
        const ms = parseIsoMs(body.set);
        if (ms === undefined) throw badRequest(`set must be an ISO 8601 timestamp (got '${body.set.slice(0, 40)}')`);
        clock.set(checkClockTarget(ms, 'set'));
      } else throw badRequest('expected {"advance":"<duration>"} or {"set":"<ISO timestamp>"}');
    }
    return sendJson(res, 200, { now: new Date(clock.now()).toISOString() });
  }
  if (path === `${CONTROL_PREFIX}faults`) {
    requireMethod(req, 'POST');
    const body = await readJsonBody(req);
    const error = checkFaultConfig(body);
    if (error) throw badRequest(error);
    parts.faults.configure(body as unknown as FaultConfig);
    return sendJson(res, 200, { rules: parts.faults.active });
  }
  if (path === `${CONTROL_PREFIX}file-host` && parts.fileHost) {
    requireMethod(req, 'GET');
    const { url, log } = parts.fileHost;
    return sendJson(res, 200, { url: url(), requests: log.requests, requestsWithKey: log.withKey });
  }
  throw new HttpError(404, `Not found: ${path}`);
}

export function createEmulatorServer(parts: ServerParts): Server {
  return createServer((req, res) => {
    route(parts, req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof HttpError) {
        // Drain the request so the connection stays usable for keep-alive clients.
        req.resume();
        sendJson(res, err.status, { message: err.message }, err.headers);
        return;
      }
      // Unexpected: a generic reply (never a stack trace in a body); the details go to the emulator's log only.
      req.resume();
      sendJson(res, 500, { message: 'Internal error in the emulator' });
      console.error('[emulator]', err);
    });
  });
}
