// Shared helpers of the emulator tests (test/unit/emulator, and core tests that need a raw emulator): a
// started emulator on a frozen clock, and raw HTTP calls.
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { API_KEY_HEADER, PATHS } from '../../src/core/api/paths';
import { type EmulatorOptions, ManualClock, type RunningEmulator, startEmulator } from '../../src/emulator/index';

import { NOW } from './now';

export { HOUR, MINUTE, NOW } from './now';

/** Parsed JSON replies: tests inspect them field by field. */
// biome-ignore lint/suspicious/noExplicitAny: replies are checked by assertions, not by types
export type Json = any;

export interface TestEmulator extends RunningEmulator {
  manual: ManualClock;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** POST with the key; the parsed JSON reply (asserting nothing). */
  json(path: string, body: unknown): Promise<{ status: number; body: Json; headers: Headers }>;
  advance(duration: string): Promise<void>;
  recent(body: Record<string, unknown>): Promise<{ status: number; body: Json; text: string; headers: Headers }>;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const manual = new ManualClock(NOW);
  const emu = await startEmulator({ clock: manual, control: true, reportDelayMs: 5000, ...options });
  const keyHeaders = { [API_KEY_HEADER]: emu.apiKey, 'content-type': 'application/json' };
  const post = (path: string, body: unknown, headers: Record<string, string> = keyHeaders) =>
    fetch(emu.url + path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const get = (path: string, headers: Record<string, string> = keyHeaders) => fetch(emu.url + path, { headers });
  return {
    ...emu,
    manual,
    post,
    get,
    async json(path, body) {
      const res = await post(path, body);
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    async advance(duration) {
      const res = await post('/_emulator/clock', { advance: duration }, { 'content-type': 'application/json' });
      if (res.status !== 200) throw new Error(`clock advance failed: ${res.status}`);
      await res.arrayBuffer();
    },
    async recent(body) {
      return readReply(await post(PATHS.recentQuery, { org: emu.org, ...body }));
    },
  };
}

/** Parses csv text into its header and rows (csv-parse: an independent reader of what the emulator writes). */
/** A report request of the emulator's first datasource, hourly over 05:00–08:00 of NOW's day, with `extra`. */
export function reportRequest(emu: TestEmulator, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    org: emu.org,
    report: 'datasource-measurements',
    datasourceIds: [emu.facts.datasources[0].datasourceId],
    outputFrequency: 'hour',
    startTime: '2026-11-20T05:00:00Z',
    endTime: '2026-11-20T08:00:00Z',
    ...extra,
  };
}

/** Creates that report (the reply must be 200); its record. */
export async function createReport(emu: TestEmulator, extra: Record<string, unknown> = {}): Promise<Json> {
  const r = await emu.json(PATHS.reportRequests, reportRequest(emu, extra));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

export function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const lines = parse(text, { relax_column_count: true }) as string[][];
  return { header: lines[0] ?? [], rows: lines.slice(1) };
}

/** Rows as objects keyed by header. */
export function csvObjects(text: string): Record<string, string>[] {
  const { header, rows } = parseCsv(text);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

/** A report csv.gz file's text: fetch decodes a Content-Encoding (the default); a plain gzip body is gunzipped here. */
export async function downloadGzipText(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url);
  if (res.status !== 200) return { status: res.status, text: await res.text() };
  const bytes = Buffer.from(await res.arrayBuffer());
  const encoded = res.headers.get('content-encoding') === 'gzip';
  return { status: 200, text: (encoded ? bytes : gunzipSync(bytes)).toString('utf8') };
}

export interface Ping {
  wallMs: number;
  /** CPU time the process spent while the ping waited: what a blocked event loop burns. */
  cpuMs: number;
}

/**
 * How long a ping was held up by a blocked event loop, at most: a block costs both wall time and the
 * process's CPU time, so it is bounded by the smaller. Wall time alone also counts the process being
 * descheduled on a loaded machine; CPU time alone also counts other threads working in parallel (zlib's
 * pool, GC helpers).
 */
export function blockedMs(p: Ping): number {
  return Math.min(p.cpuMs, p.wallMs);
}

/** The ping held up longest (blockedMs), with a line describing it. */
export function worstPing(pings: Ping[]): { blocked: number; detail: string } {
  const worst = pings.reduce((w, p) => (blockedMs(p) > blockedMs(w) ? p : w));
  const detail = `worst ping: ${Math.round(worst.cpuMs)} ms CPU, ${Math.round(worst.wallMs)} ms wall, of ${pings.length}`;
  return { blocked: blockedMs(worst), detail };
}

/** Runs `heavy` while pinging GET / back to back (client and emulator share this process's event loop). */
export async function pingDuring(
  emu: TestEmulator,
  heavy: () => Promise<void>,
): Promise<{ pings: Ping[]; took: number }> {
  await (await emu.get('/')).arrayBuffer(); // the connection is set up before anything is timed
  const pings: Ping[] = [];
  let done = false;
  const pinger = (async () => {
    while (!done) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      const res = await emu.get('/');
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET / answered ${res.status}`);
      const used = process.cpuUsage(cpu);
      pings.push({ wallMs: performance.now() - t, cpuMs: (used.user + used.system) / 1000 });
    }
  })();
  const started = performance.now();
  try {
    await heavy();
  } finally {
    done = true;
    await pinger;
  }
  return { pings, took: performance.now() - started };
}

/** A reply's status, text, headers and its body parsed as JSON (undefined when it is not JSON). */
export async function readReply(
  res: Response,
): Promise<{ status: number; body: Json; text: string; headers: Headers }> {
  const text = await res.text();
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text, headers: res.headers };
}
