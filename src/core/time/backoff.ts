// Back-off: the one policy for "that failed, wait, try again", and the one reader of Retry-After. Two
// users: the client's retry layer (withRetries, a few quick retries inside one call) and the polling loop
// (repeat.ts errorDelayMs, which never gives up while someone watches). Both wait base·2^n capped, never
// shorter than the server's Retry-After (read by retryAfterMs), and both wait through the injected clock.
import type { WaitClock } from './clock';
import { parseHttpDate } from './http-date';

/** Exponential back-off: base·2^attempt, capped; with `random`, "equal jitter" over that (half fixed, half random). */
export interface Backoff {
  /** Wait before the first retry; doubled for each further one. */
  baseMs: number;
  /** The cap of that wait. */
  maxMs: number;
  /** Source of jitter in [0, 1), so clients that failed together do not come back together; absent: none. */
  random?: () => number;
}

/** Delay before retry number `attempt` (0-based), never shorter than `retryAfterMs` (the server's ask). */
export function backoffDelayMs(backoff: Backoff, attempt: number, retryAfterMs?: number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(Math.max(0, attempt), 30));
  const waited = backoff.random ? ceiling / 2 + (backoff.random() * ceiling) / 2 : ceiling;
  return Math.max(waited, retryAfterMs ?? 0);
}

/** Seconds from a Retry-After header (delta-seconds or HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const t = parseHttpDate(v, nowMs);
  if (t === undefined) return undefined;
  return Math.max(0, Math.ceil((t - nowMs) / 1000));
}

/**
 * How long a failure says to wait: the Retry-After the server sent with it (core/api/errors keeps it on
 * the error as `retryAfterSeconds`, only when the server sent one), in ms; undefined when it sent none.
 */
export function retryAfterMs(error: unknown): number | undefined {
  const seconds = (error as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** The polling loop's back-off (repeat.ts): 2 s doubling to 60 s, no jitter (one loop per report). */
export const DEFAULT_ERROR_BACKOFF: Backoff = { baseMs: 2000, maxMs: 60_000 };

/** The wait after `consecutive` transient errors in a row (1 = the first), at least the error's Retry-After. */
export function errorDelayMs(consecutive: number, error: unknown, backoff: Backoff = DEFAULT_ERROR_BACKOFF): number {
  return backoffDelayMs(backoff, consecutive - 1, retryAfterMs(error));
}

/** The client's retries inside one call. */
export interface RetryPolicy extends Backoff {
  /** Retries after the first attempt (0 = never retry). */
  maxRetries: number;
  /** A failure whose Retry-After asks for longer than this is not retried (a quota, not a blip). */
  maxRetryAfterMs: number;
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseMs: 250,
  maxMs: 8000,
  maxRetryAfterMs: 30_000,
  random: Math.random,
};

export function retryPolicy(options: Partial<RetryPolicy> | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY_POLICY, maxRetries: 0 };
  return { ...DEFAULT_RETRY_POLICY, ...options };
}

/** What the retry layer should do after a failed attempt. */
export interface RetryDecision {
  retry: boolean;
  /** The server asked to wait this long (retryAfterMs); longer than the policy allows = not retried. */
  retryAfterMs?: number;
}

interface RetryOptions {
  policy: RetryPolicy;
  /** The caller's one clock: the back-off waits on it (tests pass a virtual one). */
  clock: WaitClock;
  /** Aborts the back-off wait (which then rejects with the signal's reason). */
  signal?: AbortSignal;
  onRetry?: () => void;
}

/**
 * The retry layer (like undici's retry handler, but over a whole exchange including its body): runs
 * `attempt` until it succeeds, `decide` says a failure is not worth another try, the policy's retries
 * are used up, or the signal aborts the back-off wait.
 */
export async function withRetries<T>(
  options: RetryOptions,
  attempt: (n: number) => Promise<T>,
  decide: (error: unknown) => RetryDecision,
): Promise<T> {
  const { policy } = options;
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (e) {
      const d = decide(e);
      const tooLong = d.retryAfterMs !== undefined && d.retryAfterMs > policy.maxRetryAfterMs;
      if (!d.retry || tooLong || n >= policy.maxRetries) throw e;
      await options.clock.sleep(backoffDelayMs(policy, n, d.retryAfterMs), options.signal);
      options.onRetry?.();
    }
  }
}
