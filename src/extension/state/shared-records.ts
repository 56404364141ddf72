// Records every window of this VS Code shares (the tracked reports, the quota marks), one JSON file per
// record in a folder of the extension's global storage. VS Code's global state cannot do this: it keeps
// an extension's keys as ONE stored value, each window holds its own copy and writes it back whole, and
// other windows learn of a write only later (asynchronously); so two windows writing at about the same
// time replace each other's records, whichever key they use. Files do not: each window writes only the
// records it changes (write a temporary file, rename it over the old one), a window reads the folder
// again when it changes (a file watcher; also on focus), and writes to different records never meet.
// File names are a hash of the record's key: nothing from the service becomes a path here.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';

interface StoredRecord {
  key: string;
  value: unknown;
}

export class SharedRecords<T> implements vscode.Disposable {
  private records = new Map<string, { value: T; text: string }>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Records changed: written here, or by another window (seen by the watcher or on focus). */
  readonly onDidChange = this.changed.event;
  private watcher?: fs.FSWatcher;
  private reloadTimer?: NodeJS.Timeout;
  private readonly focusSub?: vscode.Disposable;

  constructor(
    readonly dir: string,
    /** Checks a stored value (files can be damaged or edited): undefined drops the record from view. */
    private readonly check: (value: unknown) => T | undefined,
    options: { watch?: boolean } = {},
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.reload();
    if (options.watch !== false) {
      try {
        this.watcher = fs.watch(dir, () => this.scheduleReload());
        this.watcher.on('error', () => this.watcher?.close());
      } catch {
        // No watcher (e.g. the inotify limit): focus changes still bring other windows' records in.
      }
      this.focusSub = vscode.window.onDidChangeWindowState((s) => {
        if (s.focused) this.reload();
      });
    }
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

  /** Writes one record (atomically: a complete file or the old one, never half of it). */
  put(key: string, value: T): void {
    const text = JSON.stringify({ key, value } satisfies StoredRecord);
    const file = this.fileOf(key);
    const tmp = `${file}.${randomUUID()}.tmp`;
    fs.writeFileSync(tmp, text, { flag: 'wx' });
    fs.renameSync(tmp, file);
    this.records.set(key, { value, text });
    this.changed.fire();
  }

  delete(key: string): void {
    fs.rmSync(this.fileOf(key), { force: true });
    if (this.records.delete(key)) this.changed.fire();
  }

  /** Reads the folder again; fires onDidChange when any record differs from what was known. */
  reload(): void {
    const next = new Map<string, { value: T; text: string }>();
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
    const same = next.size === this.records.size && [...next].every(([k, r]) => this.records.get(k)?.text === r.text);
    this.records = next;
    if (!same) this.changed.fire();
  }

  private scheduleReload(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => this.reload(), 50);
  }

  private fileOf(key: string): string {
    return path.join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`);
  }

  dispose(): void {
    clearTimeout(this.reloadTimer);
    this.watcher?.close();
    this.focusSub?.dispose();
    this.changed.dispose();
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
