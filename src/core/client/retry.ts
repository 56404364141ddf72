// Retry policy of the client: jittered exponential back-off with a bound.
import { sleep } from '../time/clock';

export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry). */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A 429 whose Retry-After asks for longer than this is not retried (it is a quota, not a blip). */
  maxRetryAfterMs: number;
  /** Source of jitter in [0, 1); injectable for tests. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  maxRetryAfterMs: 30_000,
  random: Math.random,
};

export function retryPolicy(options: Partial<RetryPolicy> | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY_POLICY, maxRetries: 0 };
  return { ...DEFAULT_RETRY_POLICY, ...options };
}

/**
 * Delay before retry number `attempt` (0-based): "equal jitter" over base·2^attempt, capped, so
 * clients that failed together do not come back together; never shorter than the server's Retry-After.
 */
export function backoffDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = ceiling / 2 + (policy.random() * ceiling) / 2;
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** What the retry layer should do after a failed attempt. */
export interface RetryDecision {
  retry: boolean;
  /** The server asked to wait this long (Retry-After); longer than the policy allows = not retried. */
  retryAfterMs?: number;
}

/**
 * The retry layer (like undici's retry handler, but over a whole exchange including its body): runs
 * `attempt` until it succeeds, `decide` says a failure is not worth another try, the policy's retries
 * are used up, or the signal aborts the back-off sleep (which then rejects with the signal's reason).
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T>,
  decide: (error: unknown) => RetryDecision,
  signal?: AbortSignal,
  onRetry?: () => void,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (e) {
      const d = decide(e);
      const tooLong = d.retryAfterMs !== undefined && d.retryAfterMs > policy.maxRetryAfterMs;
      if (!d.retry || tooLong || n >= policy.maxRetries) throw e;
      await sleep(backoffDelayMs(policy, n, d.retryAfterMs), signal);
      onRetry?.();
    }
  }
}

/** Transport error codes that mean the connection failed before any byte of the request was sent. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function transportErrorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 4 && cur && typeof cur === 'object'; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function failedBeforeSending(e: unknown): boolean {
  const code = transportErrorCode(e);
  if (code && NOT_SENT_CODES.has(code)) return true;
  // AggregateError from happy-eyeballs connects: every attempt was refused.
  const errors = (e as { errors?: unknown[] })?.errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every(failedBeforeSending);
}
