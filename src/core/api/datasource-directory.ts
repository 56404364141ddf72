// The datasources of one connection (and org) as editors need them: the list for completion and one
// datasource in detail for hovers, each fetched once and kept for a while. Bounded; failures are not kept,
// so the next request tries again. Time comes from the injected Clock.

import type { Clock } from '../time/clock';
import type { DatasourceInfo } from './types';

/** What the directory needs of a client (MeasurementsClient fits, bound to an org). */
export interface DatasourceFetcher {
  list(): Promise<DatasourceInfo[]>;
  detail(datasourceId: string): Promise<DatasourceInfo>;
}

interface DatasourceDirectoryOptions {
  /** How long a reply is reused (default 5 minutes). */
  ttlMs?: number;
  /** Datasources kept in detail (default 200; the oldest goes first). */
  maxDetails?: number;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
  /** The reply, once it arrived. */
  settled?: T;
}

const DATASOURCE_TTL_MS = 5 * 60_000;

export class DatasourceDirectory {
  private listEntry: Entry<DatasourceInfo[]> | undefined;
  private readonly details = new Map<string, Entry<DatasourceInfo>>();
  private readonly ttlMs: number;
  private readonly maxDetails: number;

  constructor(
    private readonly fetcher: DatasourceFetcher,
    private readonly clock: Clock,
    options: DatasourceDirectoryOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DATASOURCE_TTL_MS;
    this.maxDetails = Math.max(1, options.maxDetails ?? 200);
  }

  /** The org's datasources (GET /v2/datasources). */
  list(): Promise<DatasourceInfo[]> {
    if (this.fresh(this.listEntry)) return this.listEntry.value;
    const entry = this.start(
      () => this.fetcher.list(),
      () => {
        if (this.listEntry === entry) this.listEntry = undefined;
      },
    );
    this.listEntry = entry;
    entry.value.then((v) => (entry.settled = v)).catch(() => undefined);
    return entry.value;
  }

  /** The list if a fresh reply is at hand (no request): what checking a cell as you type may use. */
  cached(): DatasourceInfo[] | undefined {
    return this.fresh(this.listEntry) ? this.listEntry.settled : undefined;
  }

  /** One datasource in detail (GET /v2/datasources/{id}). */
  detail(datasourceId: string): Promise<DatasourceInfo> {
    const hit = this.details.get(datasourceId);
    if (this.fresh(hit)) return hit.value;
    this.details.delete(datasourceId);
    while (this.details.size >= this.maxDetails) {
      const oldest = this.details.keys().next().value;
      if (oldest === undefined) break;
      this.details.delete(oldest);
    }
    const entry = this.start(
      () => this.fetcher.detail(datasourceId),
      () => {
        if (this.details.get(datasourceId) === entry) this.details.delete(datasourceId);
      },
    );
    this.details.set(datasourceId, entry);
    return entry.value;
  }

  private fresh<T>(e: Entry<T> | undefined): e is Entry<T> {
    return e !== undefined && this.clock.nowMs() - e.at < this.ttlMs;
  }

  private start<T>(fetch: () => Promise<T>, forget: () => void): Entry<T> {
    const value = fetch();
    value.catch(forget);
    return { at: this.clock.nowMs(), value };
  }
}

/**
 * The ids among `ids` whose datasource is a reference site (sourceType REFERENCE_SITE), sorted: what a
 * result without a sourceType column (json-long) tells the renderer's Collocation view.
 */
export function referenceSites(datasources: readonly DatasourceInfo[], ids: Iterable<string>): string[] {
  const refs = new Set(datasources.filter((d) => d.sourceType === 'REFERENCE_SITE').map((d) => d.datasourceId));
  const out = new Set<string>();
  for (const id of ids) if (refs.has(id)) out.add(id);
  return [...out].sort();
}
