// What every handler needs: the world, the clock, the aggregate cache and the request's org checks.
import type { Aggregator } from './aggregates';
import type { EmulatorClock } from './clock';
import { HttpError } from './http';
import type { RowTextCache } from './row-cache';
import type { Datasource, OrgInfo, World } from './world';

export interface EmulatorContext {
  world: World;
  clock: EmulatorClock;
  aggregator: Aggregator;
  /** Formatted rows of recent queries (reports are not cached: they would only flush it). */
  rowCache: RowTextCache;
  /** Base URL of the API server. */
  baseUrl(): string;
  /** Base URL of the report file host (another origin), for report file URLs. */
  fileBaseUrl(): string;
}

/** The org a request names, if the key may use it; 403 otherwise (the message never repeats the key). */
export function authorizeOrg(ctx: EmulatorContext, keyOrg: OrgInfo, org: string): OrgInfo {
  const target = ctx.world.orgs.get(org);
  if (!target || target !== keyOrg) throw new HttpError(403, `Forbidden: this API key may not access org '${org}'`);
  return target;
}

/** Resolves ids of the org's datasources (as listed by GET /v2/datasources); 400 naming the field otherwise. */
export function resolveDatasources(org: OrgInfo, field: string, ids: readonly string[]): Datasource[] {
  const byId = new Map(org.datasources.map((d) => [d.id, d]));
  return ids.map((id) => {
    const ds = byId.get(id);
    if (!ds) throw new HttpError(400, `${field}: unknown datasource '${id}' for org '${org.org}'`);
    return ds;
  });
}
