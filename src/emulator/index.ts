// The local measurements service emulator: startEmulator() for tests, the extension and the CLI.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Aggregator } from './aggregates';
import { type ClockOption, type EmulatorClock, floorTo, HOUR_MS, parseDuration, timeOptionMs, toClock } from './clock';
import type { EmulatorContext } from './context';
import { type FaultConfig, FaultInjector } from './faults';
import { createFileHostServer, FileHostLog, type KeyedFileRequest, type ReportFileEncoding } from './file-host';
import { ReportQuota } from './quota';
import { type ReportPersistence, ReportService } from './reports';
import { RowTextCache } from './row-cache';
import { createEmulatorServer } from './server';
import { EmulatorStateFile } from './state-file';
import { buildWorld, DEMO_ORG, SECOND_ORG, WORLD_ROLES, type World } from './world';

export { nowcast, truncateTo, usEpaAqi } from './air-quality';
export { type ClockOption, type EmulatorClock, ManualClock, OffsetClock, parseDuration } from './clock';
export type { FaultConfig, FaultEndpoint, FaultKind, FaultRule } from './faults';
export type { KeyedFileRequest, ReportFileEncoding } from './file-host';
export { DEMO_ORG, SECOND_ORG, WORLD_ROLES } from './world';

export const DEFAULT_SEED = 1;
export const DEFAULT_REPORT_DELAY_MS = 3000;

export interface EmulatorOptions {
  /** 0 (default) = any free port. Always bound to 127.0.0.1. */
  port?: number;
  seed?: number;
  /** A clock, or the start time of a flowing clock; default: real time. */
  clock?: ClockOption;
  /** How long a report stays in-progress (ms or a duration like "5s"); default 3 s. */
  reportDelayMs?: number | string;
  faults?: FaultConfig;
  /** Adds POST /_emulator/clock and /_emulator/faults (test-only). */
  control?: boolean;
  /** Port of the report file host (a second origin); 0 (default) = any free port. */
  filePort?: number;
  /** Datasources of the demo org (default 20; at least 8). */
  datasources?: number;
  /** Hour where timed events are placed (the move, subscription changes); default: start time floored to the hour. */
  anchor?: string | number | Date;
  /** Bound of the per-hour aggregate cache (entries, about 0.6 kB each; default 60,000). */
  aggregateCacheEntries?: number;
  /** Bound of the formatted-row cache of recent queries (characters; default 16 Mi). */
  rowCacheChars?: number;
  /**
   * A JSON file that keeps the reports and the quota between runs (created if missing). With it and no
   * `port` (`filePort`), the ports of the last run are taken again when free, so stored report file URLs stay valid.
   */
  stateFile?: string;
  /**
   * How report .csv.gz files are served: with `Content-Encoding: gzip` (default; what object stores send for
   * gzip uploads, so plain HTTP clients read CSV text) or `plain-gzip` (an application/gzip body to gunzip).
   */
  reportFileEncoding?: ReportFileEncoding;
  /** Observes every request (method and path, no headers): tests count what a client asked for. */
  onRequest?: (request: { method: string; path: string }) => void;
}

export interface DatasourceFacts {
  datasourceId: string;
  sourceId: string;
  sourceType: string;
}

export interface RunningEmulator {
  url: string;
  org: string;
  apiKey: string;
  /** The second org, whose key may not use the demo org (and vice versa). */
  secondOrg: { org: string; apiKey: string };
  /** Known situations in the data, for tests and demos. */
  facts: {
    anchor: string;
    datasources: DatasourceFacts[];
    moved: string;
    movedAt: string;
    unsubscribed: string;
    unsubscribedPeriods: Array<[string, string]>;
    lateSubscriber: string;
    lateSubscriberFrom: string;
    qcInvalid: string[];
    calibrationMissing: string;
    dailyOutage: string;
  };
  clock: import('./clock').EmulatorClock;
  /**
   * The report file host: report file URLs point at this other origin (as the service's object store).
   * `requestsWithKey` lists the requests to it that carried the API key header (a client must never send it).
   */
  fileHost: { url: string; requests(): number; requestsWithKey(): KeyedFileRequest[] };
  close(): Promise<void>;
}

function facts(world: World): RunningEmulator['facts'] {
  const demo = world.orgs.get(DEMO_ORG)?.datasources ?? [];
  const iso = (ms: number) => new Date(ms).toISOString();
  const unsub = demo[WORLD_ROLES.unsubscribed];
  return {
    anchor: iso(world.anchor),
    datasources: demo.map((d) => ({ datasourceId: d.id, sourceId: d.sourceId, sourceType: d.sourceType })),
    moved: demo[WORLD_ROLES.moved].id,
    movedAt: iso(demo[WORLD_ROLES.moved].locations[1].from),
    unsubscribed: unsub.id,
    unsubscribedPeriods: unsub.subscriptions
      .slice(0, -1)
      .map(([, to], i) => [iso(to), iso(unsub.subscriptions[i + 1][0])]),
    lateSubscriber: demo[WORLD_ROLES.lateSubscriber].id,
    lateSubscriberFrom: iso(demo[WORLD_ROLES.lateSubscriber].subscriptions[0][0]),
    qcInvalid: demo.filter((d) => d.qcInvalid).map((d) => d.id),
    calibrationMissing: demo[WORLD_ROLES.calibrationMissing].id,
    dailyOutage: demo[WORLD_ROLES.dailyOutage].id,
  };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const clock = toClock(options.clock);
  const seed = options.seed ?? DEFAULT_SEED;
  const anchor = floorTo(options.anchor === undefined ? clock.now() : timeOptionMs(options.anchor, 'anchor'), HOUR_MS);
  const datasourceCount = options.datasources ?? 20;
  const world = buildWorld(seed, anchor, datasourceCount);
  const stateFile = options.stateFile ? new EmulatorStateFile(options.stateFile, seed, datasourceCount) : undefined;
  const state = stateFile?.load();
  let baseUrl = '';
  let fileBaseUrl = '';
  let port = 0;
  let filePort = 0;
  const ctx: EmulatorContext = {
    world,
    clock,
    aggregator: new Aggregator(options.aggregateCacheEntries),
    rowCache: new RowTextCache(options.rowCacheChars),
    baseUrl: () => baseUrl,
    fileBaseUrl: () => fileBaseUrl,
  };
  const quota = new ReportQuota(undefined, state?.quota);
  const persistence: ReportPersistence | undefined =
    stateFile && state
      ? {
          restored: state.reports,
          reload: () => stateFile.load().reports,
          worldAt: (past) => buildWorld(seed, past, datasourceCount),
          save: (stored) => stateFile.save({ ...state, port, filePort, reports: stored, quota: quota.snapshot() }),
        }
      : undefined;
  const reportDelayMs = parseDuration(options.reportDelayMs ?? DEFAULT_REPORT_DELAY_MS);
  const reports = new ReportService(ctx, quota, reportDelayMs, persistence);
  const faults = new FaultInjector(options.faults);
  const observer = { onRequest: options.onRequest };
  const log = new FileHostLog();
  const files = createFileHostServer({ reports, faults, log, encoding: options.reportFileEncoding, ...observer });
  const control = options.control ?? false;
  const server = createEmulatorServer({
    ctx,
    reports,
    faults,
    control,
    ...observer,
    fileHost: { url: () => fileBaseUrl, log },
  });
  ({ port, filePort } = await listenBoth(server, files.server, options, state));
  baseUrl = `http://127.0.0.1:${port}`;
  fileBaseUrl = `http://127.0.0.1:${filePort}`;
  if (stateFile && state && (state.port !== port || state.filePort !== filePort)) {
    await stateFile.save({ ...state, port, filePort, quota: quota.snapshot() });
  }
  return running(world, server, baseUrl, clock, {
    url: fileBaseUrl,
    requests: () => log.requests,
    requestsWithKey: () => [...log.withKey],
    close: () => closeServer(files.server).then(files.close),
  });
}

/** Listens with the API server and the file host, on the last run's ports when free (its file URLs point there). */
async function listenBoth(
  api: Server,
  files: Server,
  options: EmulatorOptions,
  last: { port?: number; filePort?: number } | undefined,
): Promise<{ port: number; filePort: number }> {
  const port = await listenOn(api, options.port ?? last?.port ?? 0, options.port === undefined && !!last?.port);
  const wanted = options.filePort ?? last?.filePort ?? 0;
  try {
    return { port, filePort: await listenOn(files, wanted, options.filePort === undefined && !!last?.filePort) };
  } catch (e) {
    await closeServer(api);
    throw e;
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Listens on 127.0.0.1:`port` (0: any free port; `orAnyPort`: any when `port` is taken); the port it got. */
async function listenOn(server: Server, port: number, orAnyPort: boolean): Promise<number> {
  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      const failed = (e: Error) => reject(e);
      server.once('error', failed);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', failed);
        resolve();
      });
    });
  await (orAnyPort ? listen(port).catch(() => listen(0)) : listen(port));
  return (server.address() as AddressInfo).port;
}

function running(
  world: World,
  server: Server,
  baseUrl: string,
  clock: EmulatorClock,
  fileHost: RunningEmulator['fileHost'] & { close(): Promise<void> },
): RunningEmulator {
  const demo = world.orgs.get(DEMO_ORG);
  const second = world.orgs.get(SECOND_ORG);
  if (!demo || !second) throw new Error('emulator world has no demo org');
  return {
    url: baseUrl,
    org: demo.org,
    apiKey: demo.apiKey,
    secondOrg: { org: second.org, apiKey: second.apiKey },
    facts: facts(world),
    clock,
    fileHost: { url: fileHost.url, requests: fileHost.requests, requestsWithKey: fileHost.requestsWithKey },
    close: async () => {
      await Promise.all([closeServer(server), fileHost.close()]);
    },
  };
}
