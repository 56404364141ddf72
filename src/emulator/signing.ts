// HMAC signatures: opaque continuation tokens and pre-signed report file URLs.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function sign(secret: Buffer, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

export function verify(secret: Buffer, text: string, signature: string): boolean {
  const expected = Buffer.from(sign(secret, text));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** payload -> "<base64url json>.<signature>"; the JSON is not meant to be read by clients. */
export function sealToken(secret: Buffer, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(secret, `token:${body}`)}`;
}

/** The payload of a token sealed with this secret, or undefined when forged or damaged. */
export function openToken<T>(secret: Buffer, token: string): T | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  const body = token.slice(0, dot);
  if (!verify(secret, `token:${body}`, token.slice(dot + 1))) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}
