// Ids in cells: which datasources each id key offers for completion, the id under a position, and the
// hover that describes it (name, group, tags, source). Names and tags come from the service: they are
// shown as escaped, bounded Markdown text, never as markup.

import { isMeasurementsError } from '../api/errors';
import type { DatasourceInfo } from '../api/types';
import { boundedLine, markdownText } from '../text/markdown';
import { ID_KEYS, type IdKey } from './fields';

/** What a lookup needs: the list (for node and reference site ids) and one datasource in detail. */
export interface DatasourceLookup {
  list(): Promise<DatasourceInfo[]>;
  detail(datasourceId: string): Promise<DatasourceInfo>;
  /** The list when it is at hand without a request (cached), for checks as you type. */
  cached?(): DatasourceInfo[] | undefined;
}

/** The id a datasource has under a key (its datasourceId, or its node / reference site id). */
export function idUnder(key: IdKey, d: DatasourceInfo): string {
  return d[ID_KEYS[key].idField];
}

/** The datasources whose ids a key takes: all for datasourceIds, one source type for nodeIds and refSiteIds. */
export function datasourcesFor(key: IdKey, list: readonly DatasourceInfo[]): DatasourceInfo[] {
  const spec = ID_KEYS[key];
  return list.filter((d) => idUnder(key, d) !== '' && (!spec.sourceType || d.sourceType === spec.sourceType));
}

/** One line for a completion item: name · source type · group (plain text, bounded). */
export function datasourceDetail(d: DatasourceInfo): string | undefined {
  const parts = [d.orgAnnotations.name, d.sourceType, d.orgAnnotations.group ?? ''].filter(Boolean);
  return parts.length ? boundedLine(parts.join(' · '), 120) : undefined;
}

/** Name, group, tags and source of a datasource as Markdown; every service value escaped. */
export function datasourceMarkdown(d: DatasourceInfo): string {
  const a = d.orgAnnotations;
  const name = a.name ? `**${markdownText(a.name, 120)}**` : '*(no name)*';
  const tags = a.tags.slice(0, 20).map((t) => markdownText(t, 40));
  const more = a.tags.length > 20 ? ` (and ${a.tags.length - 20} more)` : '';
  return [
    name,
    `Datasource: ${markdownText(d.datasourceId)}`,
    `Group: ${a.group ? markdownText(a.group, 120) : '(none)'}`,
    `Tags: ${tags.length ? tags.join(', ') + more : '(none)'}`,
    `Source: ${markdownText(d.sourceType || 'unknown type', 40)} ${markdownText(d.currentSourceId || '(unknown id)')}`,
  ].join('\n\n');
}

/** Hover Markdown for an id: the datasource it names, or a short reason why it cannot be shown. Never throws. */
export async function describeId(key: IdKey, id: string, lookup: DatasourceLookup): Promise<string> {
  const spec = ID_KEYS[key];
  const shown = markdownText(id);
  try {
    let datasourceId = id;
    if (spec.idField !== 'datasourceId') {
      const match = datasourcesFor(key, await lookup.list()).find((d) => idUnder(key, d) === id);
      if (!match) return `${shown}: no datasource of this connection has this ${spec.noun}.`;
      datasourceId = match.datasourceId;
    }
    return datasourceMarkdown(await lookup.detail(datasourceId));
  } catch (e) {
    return `${shown}: could not look up this ${spec.noun}: ${lookupFailure(e)}`;
  }
}

/** Why a lookup failed, in a few words, as Markdown (any message from elsewhere is escaped and bounded). */
export function lookupFailure(e: unknown): string {
  if (isMeasurementsError(e, 'NOT_FOUND')) return 'not found on this connection (404).';
  if (isMeasurementsError(e, 'NETWORK') || isMeasurementsError(e, 'TIMEOUT')) return 'the service is not reachable.';
  if (isMeasurementsError(e, 'UNAUTHORIZED') || isMeasurementsError(e, 'FORBIDDEN')) {
    return "the service refused the connection's API key for this org.";
  }
  return markdownText(e instanceof Error ? e.message : String(e), 160);
}
