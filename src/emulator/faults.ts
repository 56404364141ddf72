// Fault injection for tests (off by default): latency, 5xx (with a JSON, HTML or empty body, and a
// Retry-After if asked, as real gateways send), connection reset mid-body, truncated gzip, failed reports,
// a report status the client does not know. Per endpoint, by count (the next N requests) or rate (seeded, reproducible).

import { mulberry32 } from '../core/aq/bootstrap';
import { parseHttpDate } from '../core/time/http-date';
import { parseDuration } from './clock';
import type { BodyDamage } from './http';

const FAULT_ENDPOINTS = [
  'root',
  'datasources',
  'reportCreate',
  'reportStatus',
  'reportFile',
  'recentQuery',
  'continuation',
] as const;
export type FaultEndpoint = (typeof FAULT_ENDPOINTS)[number];
const FAULT_KINDS = ['latency', 'error', 'reset', 'truncate-gzip', 'report-failed', 'report-status'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  kind: FaultKind;
  /** Endpoints it applies to; all when missing or "*". */
  endpoint?: FaultEndpoint | FaultEndpoint[] | '*';
  /** Applies to the next `count` matching requests... */
  count?: number;
  /** ...or to each matching request with this probability (0..1). Neither: every matching request. */
  rate?: number;
  /** latency: delay before replying ("2s" or ms). */
  latency?: string | number;
  /** error: HTTP status (default 503). */
  status?: number;
  /** error: the body: the emulator's JSON {"message"} (default), a gateway's HTML page, or nothing. */
  body?: ErrorBody;
  /** error: a Retry-After header: delta-seconds (a number or digits) or an HTTP date. */
  retryAfter?: number | string;
  /** reset / truncate-gzip: body bytes sent before the damage (default 1024). */
  afterBytes?: number;
  /** report-status: the status a status check answers instead (default "queued"; lower-case letters and -). */
  reportStatus?: string;
}

export interface FaultConfig {
  seed?: number;
  rules: FaultRule[];
}

const ERROR_BODIES = ['json', 'html', 'empty'] as const;
type ErrorBody = (typeof ERROR_BODIES)[number];

/** An injected error reply: its status, body kind and Retry-After header (if any). */
export interface InjectedError {
  status: number;
  body: ErrorBody;
  retryAfter?: string;
}

export interface FaultDecision {
  latencyMs: number;
  error?: InjectedError;
  /** reset before any byte of a non-streamed reply, or damage of a streamed body. */
  reset: boolean;
  damage?: BodyDamage;
  reportFailed: boolean;
  /** The status a report status check answers instead of the real one. */
  reportStatus?: string;
}

/** Longest injectable latency: beyond it a test would only hang. */
const MAX_FAULT_LATENCY_MS = 10 * 60_000;
const MAX_FAULT_RULES = 100;

/** A short, safe description of any JSON value for an error message (nested values are not walked). */
function describe(v: unknown): string {
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

function checkRule(rule: unknown): string | undefined {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return 'faults: each rule must be an object';
  const r = rule as Record<string, unknown>;
  if (!FAULT_KINDS.includes(r.kind as FaultKind)) return `faults: kind must be one of ${FAULT_KINDS.join(', ')}`;
  if (r.endpoint !== undefined && r.endpoint !== '*') {
    const eps = Array.isArray(r.endpoint) ? r.endpoint : [r.endpoint];
    for (const e of eps) if (!FAULT_ENDPOINTS.includes(e)) return `faults: unknown endpoint ${describe(e)}`;
  }
  if (r.rate !== undefined && !(typeof r.rate === 'number' && r.rate >= 0 && r.rate <= 1)) {
    return 'faults: rate must be a number within 0..1';
  }
  if (r.count !== undefined && !(Number.isSafeInteger(r.count) && (r.count as number) >= 0)) {
    return 'faults: count must be a non-negative integer';
  }
  if (r.latency !== undefined) {
    let ms = Number.NaN;
    try {
      if (typeof r.latency === 'string' || typeof r.latency === 'number') ms = parseDuration(r.latency);
    } catch {
      // reported below
    }
    if (!(ms >= 0 && ms <= MAX_FAULT_LATENCY_MS)) {
      return `faults: latency must be a duration from 0 to 10m (got ${describe(r.latency)})`;
    }
  }
  if (
    r.status !== undefined &&
    !(Number.isInteger(r.status) && (r.status as number) >= 400 && (r.status as number) <= 599)
  ) {
    return `faults: status must be an HTTP error status from 400 to 599 (got ${describe(r.status)})`;
  }
  const errorShapeProblem = checkErrorShape(r);
  if (errorShapeProblem) return errorShapeProblem;
  if (r.reportStatus !== undefined && !(typeof r.reportStatus === 'string' && /^[a-z-]{1,40}$/.test(r.reportStatus))) {
    return `faults: reportStatus must be 1 to 40 lower-case letters or - (got ${describe(r.reportStatus)})`;
  }
  if (r.afterBytes !== undefined && !(Number.isSafeInteger(r.afterBytes) && (r.afterBytes as number) >= 0)) {
    return `faults: afterBytes must be a non-negative integer (got ${describe(r.afterBytes)})`;
  }
  return undefined;
}

/** The body and Retry-After of an error rule. */
function checkErrorShape(r: Record<string, unknown>): string | undefined {
  if (r.body !== undefined && !ERROR_BODIES.includes(r.body as ErrorBody)) {
    return `faults: body must be one of ${ERROR_BODIES.join(', ')} (got ${describe(r.body)})`;
  }
  const ra = r.retryAfter;
  if (ra === undefined) return undefined;
  const seconds =
    typeof ra === 'number' ? Number.isSafeInteger(ra) && ra >= 0 : typeof ra === 'string' && /^\d{1,9}$/.test(ra);
  if (seconds || (typeof ra === 'string' && ra.length <= 64 && parseHttpDate(ra) !== undefined)) return undefined;
  return `faults: retryAfter must be seconds (a non-negative integer) or an HTTP date (got ${describe(ra)})`;
}

/** Checks a fault configuration (from code or POST /_emulator/faults); returns an error text or undefined. */
export function checkFaultConfig(config: unknown): string | undefined {
  if (typeof config !== 'object' || config === null || !Array.isArray((config as FaultConfig).rules)) {
    return 'faults: expected {"rules": [...]}';
  }
  const { rules, seed } = config as { rules: unknown[]; seed?: unknown };
  if (rules.length > MAX_FAULT_RULES) return `faults: at most ${MAX_FAULT_RULES} rules`;
  if (seed !== undefined && !Number.isSafeInteger(seed))
    return `faults: seed must be an integer (got ${describe(seed)})`;
  for (const rule of rules) {
    const error = checkRule(rule);
    if (error) return error;
  }
  return undefined;
}

export class FaultInjector {
  private rules: Array<FaultRule & { remaining?: number }> = [];
  private random = mulberry32(0);

  constructor(config?: FaultConfig) {
    if (config) this.configure(config);
  }

  configure(config: FaultConfig): void {
    const error = checkFaultConfig(config);
    if (error) throw new Error(error);
    this.rules = config.rules.map((r) => ({ ...r, remaining: r.count }));
    this.random = mulberry32(config.seed ?? 0);
  }

  get active(): number {
    return this.rules.length;
  }

  decide(endpoint: FaultEndpoint): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, reset: false, reportFailed: false };
    for (const rule of this.rules) {
      const eps = rule.endpoint === undefined || rule.endpoint === '*' ? undefined : [rule.endpoint].flat();
      if (eps && !eps.includes(endpoint)) continue;
      if (rule.remaining !== undefined) {
        if (rule.remaining <= 0) continue;
        rule.remaining--;
      } else if (rule.rate !== undefined && this.random() >= rule.rate) continue;
      const afterBytes = rule.afterBytes ?? 1024;
      switch (rule.kind) {
        case 'latency':
          decision.latencyMs += parseDuration(rule.latency ?? 1000);
          break;
        case 'error':
          decision.error = {
            status: rule.status ?? 503,
            body: rule.body ?? 'json',
            retryAfter: rule.retryAfter === undefined ? undefined : String(rule.retryAfter),
          };
          break;
        case 'reset':
          decision.reset = true;
          decision.damage = { kind: 'reset', afterBytes };
          break;
        case 'truncate-gzip':
          decision.damage = { kind: 'truncate', afterBytes };
          break;
        case 'report-failed':
          decision.reportFailed = true;
          break;
        case 'report-status':
          decision.reportStatus = rule.reportStatus ?? 'queued';
          break;
      }
    }
    return decision;
  }
}
