// Fault injection for tests (off by default): latency, 5xx, connection reset mid-body, truncated gzip,
// failed reports. Per endpoint, by count (the next N requests) or rate (seeded, reproducible).
import { parseDuration } from './clock';
import { seededRandom } from './hash';
import type { BodyDamage } from './http';

export const FAULT_ENDPOINTS = [
  'root',
  'datasources',
  'reportCreate',
  'reportStatus',
  'reportFile',
  'recentQuery',
  'continuation',
] as const;
export type FaultEndpoint = (typeof FAULT_ENDPOINTS)[number];
export const FAULT_KINDS = ['latency', 'error', 'reset', 'truncate-gzip', 'report-failed'] as const;
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
  /** reset / truncate-gzip: body bytes sent before the damage (default 1024). */
  afterBytes?: number;
}

export interface FaultConfig {
  seed?: number;
  rules: FaultRule[];
}

export interface FaultDecision {
  latencyMs: number;
  errorStatus?: number;
  /** reset before any byte of a non-streamed reply, or damage of a streamed body. */
  reset: boolean;
  damage?: BodyDamage;
  reportFailed: boolean;
}

/** Checks a fault configuration (from code or POST /_emulator/faults); returns an error text or undefined. */
export function checkFaultConfig(config: unknown): string | undefined {
  if (typeof config !== 'object' || config === null || !Array.isArray((config as FaultConfig).rules)) {
    return 'faults: expected {"rules": [...]}';
  }
  for (const rule of (config as FaultConfig).rules) {
    if (!FAULT_KINDS.includes(rule?.kind)) return `faults: kind must be one of ${FAULT_KINDS.join(', ')}`;
    const eps = rule.endpoint === undefined || rule.endpoint === '*' ? [] : [rule.endpoint].flat();
    for (const e of eps) if (!FAULT_ENDPOINTS.includes(e)) return `faults: unknown endpoint '${e}'`;
    if (rule.rate !== undefined && !(rule.rate >= 0 && rule.rate <= 1)) return 'faults: rate must be within 0..1';
    if (rule.count !== undefined && !(Number.isInteger(rule.count) && rule.count >= 0)) {
      return 'faults: count must be a non-negative integer';
    }
    if (rule.latency !== undefined) {
      try {
        parseDuration(rule.latency);
      } catch {
        return `faults: latency is not a duration: ${rule.latency}`;
      }
    }
  }
  return undefined;
}

export class FaultInjector {
  private rules: Array<FaultRule & { remaining?: number }> = [];
  private random = seededRandom(0);

  constructor(config?: FaultConfig) {
    if (config) this.configure(config);
  }

  configure(config: FaultConfig): void {
    const error = checkFaultConfig(config);
    if (error) throw new Error(error);
    this.rules = config.rules.map((r) => ({ ...r, remaining: r.count }));
    this.random = seededRandom(config.seed ?? 0);
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
          decision.errorStatus = rule.status ?? 503;
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
      }
    }
    return decision;
  }
}
