// The emulator's reports and quota kept in a small JSON file (optional), so a restarted emulator still
// knows the reports it made: the extension's local connection restarts with every window, and the
// Reports view keeps their ids. Report files are never stored: they are regenerated from the request
// and the world the report was made in (a pure function of seed, anchor and datasource count).
import fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileViaPart } from '../core/io/part-file.node';

/** Who made a report, when, in which world, and how it ends: the same in memory and in the file. */
export interface ReportLifecycle {
  id: string;
  org: string;
  /** The world's anchor when the report was made (its data depends on it; a restarted emulator may have another). */
  anchor: number;
  createdAt: number;
  readyAt: number;
  /** Why the report failed (an injected fault, or a Parquet file too big to build), if it did. */
  failure?: string;
}

/** A report as stored: its lifecycle, its request and the datasource ids of each file. */
export interface StoredReport extends ReportLifecycle {
  /** The validated request (the entry without its datasources). */
  request: Record<string, unknown>;
  fileDatasourceIds: string[][];
}

export interface StoredQuota {
  [org: string]: { day: number; count: number };
}

interface EmulatorState {
  version: 1;
  seed: number;
  datasources: number;
  /** The port last listened on: taken again when free, so stored file URLs keep working. */
  port?: number;
  /** The file host's port last listened on (report file URLs point there). */
  filePort?: number;
  reports: StoredReport[];
  quota: StoredQuota;
}

/** The most reports kept (oldest dropped first): the file stays small. */
const MAX_STORED_REPORTS = 1000;

/** Tries of one save: another emulator writing the same file at that moment makes a try fail. */
const SAVE_TRIES = 3;

export class EmulatorStateFile {
  /** The saves under way, one after the other. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly seed: number,
    private readonly datasources: number,
  ) {}

  /** The stored state if it was written for the same seed and datasource count; otherwise an empty one. */
  load(): EmulatorState {
    const empty: EmulatorState = {
      version: 1,
      seed: this.seed,
      datasources: this.datasources,
      reports: [],
      quota: {},
    };
    let parsed: Partial<EmulatorState>;
    try {
      parsed = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return empty; // missing or unreadable: start afresh (it is rewritten on the next change)
    }
    const port = typeof parsed.port === 'number' ? parsed.port : undefined;
    const filePort = typeof parsed.filePort === 'number' ? parsed.filePort : undefined;
    if (parsed.version !== 1 || parsed.seed !== this.seed || parsed.datasources !== this.datasources) {
      return { ...empty, port, filePort };
    }
    return {
      ...empty,
      port,
      filePort,
      reports: Array.isArray(parsed.reports) ? parsed.reports : [],
      quota: parsed.quota && typeof parsed.quota === 'object' ? parsed.quota : {},
    };
  }

  /**
   * Writes the state through core's one writer (a whole file or the old one: `<file>.part` renamed), one
   * save after the other; resolves when this one is on disk. Reports already in the file that this run
   * does not know (another emulator on the same file) are kept: each try merges with the file as it is.
   */
  save(state: EmulatorState): Promise<void> {
    this.writing = this.writing.then(() => this.write(state));
    return this.writing;
  }

  private async write(state: EmulatorState): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    for (let tries = 1; ; tries++) {
      try {
        return await writeFileViaPart(this.file, JSON.stringify(this.merged(state)));
      } catch {
        // Another emulator's save at the same moment (or a passing file-system error): merge again and
        // retry; after the last try the next save writes the state.
        if (tries >= SAVE_TRIES) return;
      }
    }
  }

  /** The state with the reports and quota of the file as it is now (another emulator's) kept. */
  private merged(state: EmulatorState): EmulatorState {
    const onDisk = this.load();
    const ours = new Set(state.reports.map((r) => r.id));
    const theirs = onDisk.reports.filter((r) => !ours.has(r.id));
    const reports = [...theirs, ...state.reports].sort((a, b) => a.createdAt - b.createdAt);
    const quota = { ...state.quota };
    for (const [org, q] of Object.entries(onDisk.quota)) {
      const mine = quota[org];
      if (!mine || q.day > mine.day || (q.day === mine.day && q.count > mine.count)) quota[org] = q;
    }
    return { ...state, quota, reports: reports.slice(-MAX_STORED_REPORTS) };
  }
}
