// Ids the connection does not have: with its datasources at hand (the editor's cached list), an id in
// datasourceIds, nodeIds or refSiteIds that none of them has is a warning naming the closest ids. A warning,
// not an error: the list may be older than a datasource just added; the service decides.
import type { DatasourceInfo } from '../api/types';
import { idsIn } from './completion';
import { datasourcesFor, idUnder } from './datasource-ids';
import type { Diagnostic } from './diagnostics';
import { ID_KEYS, type IdKey } from './fields';
import { didYouMean, editDistance } from './suggest';

/** Ids checked per cell, and closest ids named per warning (bounded work on a huge list or cell). */
const MAX_IDS_CHECKED = 500;
const CLOSEST = 3;

export function unknownIdDiagnostics(text: string, datasources: readonly DatasourceInfo[]): Diagnostic[] {
  if (datasources.length === 0) return [];
  const known = new Map<IdKey, string[]>();
  for (const key of Object.keys(ID_KEYS) as IdKey[]) {
    known.set(
      key,
      datasourcesFor(key, datasources).map((d) => idUnder(key, d)),
    );
  }
  const out: Diagnostic[] = [];
  for (const { key, id, range } of idsIn(text).slice(0, MAX_IDS_CHECKED)) {
    const ids = known.get(key) ?? [];
    if (ids.includes(id)) continue;
    const closest = closestIds(id, ids);
    out.push({
      severity: 'warning',
      code: 'unknown-id',
      range,
      message: `no datasource of this connection has the ${ID_KEYS[key].noun} '${id}'${closest.length ? `; closest: ${closest.join(', ')}` : ''}`,
      suggestion: didYouMean(id, ids),
    });
  }
  return out;
}

function closestIds(id: string, ids: readonly string[]): string[] {
  const lower = id.toLowerCase();
  return ids
    .map((c) => ({ c, d: editDistance(lower, c.toLowerCase()) }))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, CLOSEST)
    .map((x) => x.c);
}
