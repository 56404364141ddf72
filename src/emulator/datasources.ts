// GET /v2/datasources?org= and GET /v2/datasources/{id}?org= (SERVICE-FACTS shapes).
import type { DatasourceInfo, DatasourceList } from '../core/api/types';
import { authorizeOrg, type EmulatorContext } from './context';
import { badRequest, HttpError } from './http';
import { type Datasource, isSubscribed, locationAt, type OrgInfo, statusesAt } from './world';

function info(ds: Datasource): DatasourceInfo {
  return {
    datasourceId: ds.id,
    orgAnnotations: { group: ds.group, name: ds.name, tags: [...ds.tags] },
    currentSubscriptionId: ds.subscriptionId,
    currentSourceId: ds.sourceId,
    sourceType: ds.sourceType,
  };
}

function orgParam(ctx: EmulatorContext, keyOrg: OrgInfo, search: URLSearchParams): OrgInfo {
  const org = search.get('org');
  if (!org) throw badRequest('org is required (query parameter ?org=)');
  return authorizeOrg(ctx, keyOrg, org);
}

/** The org's datasources subscribed now. */
export function listDatasources(ctx: EmulatorContext, keyOrg: OrgInfo, search: URLSearchParams): DatasourceList {
  const org = orgParam(ctx, keyOrg, search);
  const now = ctx.clock.now();
  return {
    subscribingOrg: org.org,
    datasources: org.datasources.filter((d) => isSubscribed(d, now)).map(info),
  };
}

export function getDatasource(
  ctx: EmulatorContext,
  keyOrg: OrgInfo,
  id: string,
  search: URLSearchParams,
): DatasourceInfo & Record<string, unknown> {
  const org = orgParam(ctx, keyOrg, search);
  const now = ctx.clock.now();
  const ds = org.datasources.find((d) => d.id === id);
  if (!ds || !isSubscribed(ds, now)) throw new HttpError(404, `Datasource not found: ${id}`);
  const loc = locationAt(ds, now);
  const measured = statusesAt(ds, now).flatMap((status, q) => (ds.measures[q] ? [status] : []));
  return {
    ...info(ds),
    location: { lat: Number(loc.lat.toFixed(6)), lon: Number(loc.lon.toFixed(6)) },
    statuses: [...new Set(measured)],
  };
}
