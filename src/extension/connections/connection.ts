// A connection: a name, a base URL and an org. Its API key is never part of it (SecretStorage only).
import type { ServiceKind } from '../../core/query/metric-select';
export interface Connection {
  id: string;
  name: string;
  baseUrl: string;
  org: string;
}

export const LOCAL_EMULATOR_ID = 'local-emulator';
export const LOCAL_EMULATOR_NAME = 'Local emulator';

export function isLocalEmulator(c: Pick<Connection, 'id'> | string): boolean {
  return (typeof c === 'string' ? c : c.id) === LOCAL_EMULATOR_ID;
}

/**
 * How cells for this connection are checked: the built-in emulator owns the metric catalogue (what it does not
 * know is refused); any other connection is a real service, which decides itself (unknown labels: warnings).
 */
export function serviceKindOf(c: Pick<Connection, 'id'>): ServiceKind {
  return isLocalEmulator(c) ? 'emulator' : 'real';
}

/** A warning for a base URL that would send the key in clear text (http to a host that is not local). */
export function insecureUrlWarning(baseUrl: string): string | undefined {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname) || u.hostname.endsWith('.localhost');
  if (u.protocol === 'http:' && !local) {
    return `${u.origin} is not https: the API key would travel unencrypted. Use https unless this is a trusted local service.`;
  }
  return undefined;
}

/** Problems with a base URL typed by the user, or undefined when it is usable. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  try {
    const u = new URL(baseUrl.trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'The base URL must start with https:// or http://';
    if (u.username || u.password) return 'Do not put credentials in the URL; the API key is asked for separately.';
    return undefined;
  } catch {
    return 'Not a URL (example: https://api.example.com)';
  }
}

export function newConnectionId(): string {
  return `conn-${crypto.randomUUID()}`;
}
