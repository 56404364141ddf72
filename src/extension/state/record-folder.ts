// The files behind SharedRecords: one JSON file per record in one folder, written through the project's
// one writer (core/io/part-file.node.ts: `<file>.part`, renamed when whole). Writes are queued: one at a
// time, in the order they were asked for, so two writes of a record never interleave and the last one
// asked for is the one on disk. A record reads its new value at once; until its write is done, a reading
// of the folder (another window changed something) keeps it rather than the older file. File names are a
// hash of the record's key: nothing from the service becomes a path here.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileViaPart } from '../../core/io/part-file.node';

interface StoredRecord {
  key: string;
  value: unknown;
}

interface Entry<T> {
  value: T;
  text: string;
}

/** A write asked for and not yet done: the record it writes, or undefined for a removal. */
interface Pending<T> {
  entry: Entry<T> | undefined;
}

export class RecordFolder<T> {
  private records = new Map<string, Entry<T>>();
  /** The last write asked for, per key, while it is queued or running. */
  private readonly pending = new Map<string, Pending<T>>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly dir: string,
    /** Checks a stored value (files can be damaged or edited): undefined drops the record from view. */
    private readonly check: (value: unknown) => T | undefined,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.reload();
  }

  values(): T[] {
    return [...this.records.values()].map((r) => r.value);
  }

  entries(): [string, T][] {
    return [...this.records].map(([k, r]) => [k, r.value]);
  }

  get(key: string): T | undefined {
    return this.records.get(key)?.value;
  }

  has(key: string): boolean {
    return this.records.has(key);
  }

  /** Sets a record now; the promise settles when its file is written (a complete file or the old one). */
  put(key: string, value: T): Promise<void> {
    const text = JSON.stringify({ key, value } satisfies StoredRecord);
    const entry = { value, text };
    this.records.set(key, entry);
    return this.enqueue(key, entry, () => writeFileViaPart(this.fileOf(key), text, { within: this.dir }));
  }

  /** Removes a record now; the promise settles when its file is gone. */
  delete(key: string): Promise<void> {
    this.records.delete(key);
    return this.enqueue(key, undefined, () => rm(this.fileOf(key), { force: true }));
  }

  /** Settles when every write asked for so far is done (failed ones included). */
  flushed(): Promise<void> {
    return this.queue;
  }

  private enqueue(key: string, entry: Entry<T> | undefined, write: () => Promise<void>): Promise<void> {
    const mine: Pending<T> = { entry };
    this.pending.set(key, mine);
    const done = this.queue.then(write).finally(() => {
      if (this.pending.get(key) === mine) this.pending.delete(key);
    });
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** Reads the folder again (records still being written keep their new value); true when any record differs. */
  reload(): boolean {
    const next = this.readFolder();
    for (const [key, p] of this.pending) {
      if (p.entry) next.set(key, p.entry);
      else next.delete(key);
    }
    const same = next.size === this.records.size && [...next].every(([k, r]) => this.records.get(k)?.text === r.text);
    this.records = next;
    return !same;
  }

  private readFolder(): Map<string, Entry<T>> {
    const next = new Map<string, Entry<T>>();
    let names: string[] = [];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      // The folder is gone: no records.
    }
    for (const name of names) {
      let text: string;
      try {
        text = fs.readFileSync(path.join(this.dir, name), 'utf8');
      } catch {
        continue; // removed meanwhile
      }
      const parsed = parseRecord(text);
      if (!parsed || this.fileOf(parsed.key) !== path.join(this.dir, name)) continue;
      const value = this.check(parsed.value);
      if (value !== undefined) next.set(parsed.key, { value, text });
    }
    return next;
  }

  /** The record's file (a `.json` name; its `.part` while being written is never read as a record). */
  fileOf(key: string): string {
    return path.join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`);
  }
}

function parseRecord(text: string): StoredRecord | undefined {
  try {
    const v = JSON.parse(text) as Partial<StoredRecord>;
    return v && typeof v === 'object' && typeof v.key === 'string' && 'value' in v
      ? { key: v.key, value: v.value }
      : undefined;
  } catch {
    return undefined;
  }
}
