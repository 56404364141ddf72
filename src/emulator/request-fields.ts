// Field checks of incoming requests: each failure is a 400 whose message names the field. Lenient as the
// real service is: fields an endpoint does not know are accepted and ignored (and echoed where the request
// is echoed); booleans may come as the strings "true"/"false".
import { parseIsoMs } from '../core/time/iso';
import { badRequest } from './http';

export class Fields {
  constructor(private readonly body: Record<string, unknown>) {}

  has(name: string): boolean {
    return this.body[name] !== undefined && this.body[name] !== null;
  }

  requiredString(name: string): string {
    const v = this.body[name];
    if (v === undefined || v === null || v === '') throw badRequest(`${name} is required`);
    if (typeof v !== 'string') throw badRequest(`${name} must be a string`);
    return v;
  }

  optionalString(name: string): string | undefined {
    if (!this.has(name)) return undefined;
    const v = this.body[name];
    if (typeof v !== 'string') throw badRequest(`${name} must be a string`);
    return v;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback?: T): T {
    const v = fallback === undefined ? this.requiredString(name) : (this.optionalString(name) ?? fallback);
    if (!allowed.includes(v as T)) throw badRequest(`${name} must be one of ${allowed.join(', ')} (got '${v}')`);
    return v as T;
  }

  boolean(name: string): boolean {
    if (!this.has(name)) return false;
    const v = this.body[name];
    if (v === 'true' || v === 'false') return v === 'true';
    if (typeof v !== 'boolean') throw badRequest(`${name} must be true or false`);
    return v;
  }

  time(name: string, required: boolean): number | undefined {
    const v = required ? this.requiredString(name) : this.optionalString(name);
    if (v === undefined) return undefined;
    const ms = parseIsoMs(v);
    if (ms === undefined) throw badRequest(`${name} must be an ISO 8601 date or timestamp (got '${v}')`);
    return ms;
  }

  stringList(name: string, required: boolean): string[] | undefined {
    if (!this.has(name)) {
      if (required) throw badRequest(`${name} is required`);
      return undefined;
    }
    const v = this.body[name];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x === '')) {
      throw badRequest(`${name} must be an array of non-empty strings`);
    }
    if (required && v.length === 0) throw badRequest(`${name} must not be empty`);
    return v as string[];
  }

  integer(name: string, min: number, max: number): number | undefined {
    if (!this.has(name)) return undefined;
    const v = this.body[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw badRequest(`${name} must be an integer from ${min} to ${max}`);
    }
    return v;
  }
}
