// Which transport failures the client's retry layer may repeat (the policy itself, its back-off and
// Retry-After, is core/time/backoff.ts).

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
