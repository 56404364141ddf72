// Replies of GET /v2/datasources and GET /v2/datasources/{id} (SERVICE-FACTS), checked field by field:
// the service's data is untrusted, so what the client hands on has the types its callers rely on.
// Unknown fields are kept (the detail reply carries more than the list); wrong-typed ones are replaced.

import { MeasurementsError } from './errors';
import type { DatasourceInfo, DatasourceList } from './types';

/** Longest id accepted from the service; ids end up in paths, cells and hovers. */
const MAX_DATASOURCE_ID_LENGTH = 200;
/** Tags kept per datasource. */
const MAX_DATASOURCE_TAGS = 50;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An id as a client may use it: a non-empty string, bounded, without control characters or spaces. */
export function isUsableId(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_DATASOURCE_ID_LENGTH && !/[\s\p{Cc}]/u.test(v);
}

/** One datasource entry, or undefined when it has no usable datasourceId. */
export function readDatasourceInfo(value: unknown): (DatasourceInfo & Record<string, unknown>) | undefined {
  if (!isRecord(value) || !isUsableId(value.datasourceId)) return undefined;
  const ann = isRecord(value.orgAnnotations) ? value.orgAnnotations : {};
  const tags = Array.isArray(ann.tags) ? ann.tags.filter((t): t is string => typeof t === 'string') : [];
  return {
    ...value,
    datasourceId: value.datasourceId,
    orgAnnotations: {
      ...ann,
      group: typeof ann.group === 'string' ? ann.group : null,
      name: typeof ann.name === 'string' ? ann.name : '',
      tags: tags.slice(0, MAX_DATASOURCE_TAGS),
    },
    currentSubscriptionId: typeof value.currentSubscriptionId === 'string' ? value.currentSubscriptionId : '',
    currentSourceId: isUsableId(value.currentSourceId) ? value.currentSourceId : '',
    sourceType: typeof value.sourceType === 'string' ? value.sourceType : '',
  };
}

/** The list reply; entries without a usable datasourceId are left out. */
export function readDatasourceList(body: unknown, org: string): DatasourceList {
  const b = isRecord(body) ? body : {};
  const entries = Array.isArray(b.datasources) ? b.datasources : [];
  return {
    subscribingOrg: typeof b.subscribingOrg === 'string' ? b.subscribingOrg : org,
    datasources: entries.flatMap((e) => readDatasourceInfo(e) ?? []),
  };
}

/** The detail reply, wrapped as {"datasource": {...}} by the service (a bare object is read too). */
export function readDatasourceDetail(body: unknown, requestedId: string): DatasourceInfo & Record<string, unknown> {
  const inner = isRecord(body) && isRecord(body.datasource) ? body.datasource : body;
  const info = readDatasourceInfo(inner);
  if (!info) {
    throw new MeasurementsError(
      'SERVER_ERROR',
      'The service answered with a datasource that has no usable datasourceId.',
    );
  }
  if (info.datasourceId !== requestedId) {
    throw new MeasurementsError('SERVER_ERROR', 'The service answered with another datasource than the one asked for.');
  }
  return info;
}
