// What the host tells the renderer about a result's datasources from the connection's datasource list: the
// reference sites (for results without a sourceType column) and the datasources' names (for the Map's hover
// and the Collocation choices). Bounded: only ids of the result, at most MAX_NAMES names of MAX_NAME_LENGTH.
import { referenceSites } from '../api/datasource-directory';
import type { DatasourceInfo } from '../api/types';
import { connectionStyleSlots } from './line-styles';

const MAX_NAMES = 5000;
export const MAX_NAME_LENGTH = 80;

/** The result's datasource names by id (non-empty names only), bounded in count and length. */
export function datasourceNames(
  datasources: readonly DatasourceInfo[],
  ids: Iterable<string>,
  max = MAX_NAMES,
): Record<string, string> {
  const byId = new Map<string, string>();
  for (const d of datasources) {
    const name = d.orgAnnotations?.name;
    if (typeof name === 'string' && name.trim()) byId.set(d.datasourceId, name.trim().slice(0, MAX_NAME_LENGTH));
  }
  const out: Record<string, string> = {};
  let n = 0;
  for (const id of ids) {
    const name = byId.get(id);
    if (name === undefined || Object.hasOwn(out, id)) continue;
    if (n++ >= max) break;
    out[id] = name;
  }
  return out;
}

/**
 * The ResultInfo fields from the connection's datasources: names and line style slots (from the whole list, so a
 * datasource has one style in every result) always; reference sites only when the result has no sourceType
 * column of its own (json-long, sql results).
 */
export function resultDatasourceInfo(
  datasources: readonly DatasourceInfo[],
  ids: readonly string[],
  hasSourceType: boolean,
): { referenceSites?: string[]; datasourceNames?: Record<string, string>; datasourceStyles?: Record<string, number> } {
  const names = datasourceNames(datasources, ids);
  const styles = connectionStyleSlots(
    datasources.map((d) => d.datasourceId),
    ids,
  );
  return {
    ...(hasSourceType ? {} : { referenceSites: referenceSites(datasources, ids) }),
    ...(Object.keys(names).length ? { datasourceNames: names } : {}),
    ...(Object.keys(styles).length ? { datasourceStyles: styles } : {}),
  };
}
