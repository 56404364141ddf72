// Records every window of this VS Code shares (the tracked reports, the quota marks), one JSON file per
// record in a folder of the extension's global storage (`record-folder.ts`: written through the one
// writer, one write at a time). VS Code's global state cannot do this: it keeps an extension's keys as
// ONE stored value, each window holds its own copy and writes it back whole, and other windows learn of a
// write only later (asynchronously); so two windows writing at about the same time replace each other's
// records, whichever key they use. Files do not: each window writes only the records it changes, a
// window reads the folder again when it changes (a file watcher; also on focus), and writes to different
// records never meet.
import fs from 'node:fs';
import * as vscode from 'vscode';
import { RecordFolder } from './record-folder';

export class SharedRecords<T> implements vscode.Disposable {
  private readonly folder: RecordFolder<T>;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Records changed: written here, or by another window (seen by the watcher or on focus). */
  readonly onDidChange = this.changed.event;
  private watcher?: fs.FSWatcher;
  private reloadTimer?: NodeJS.Timeout;
  private readonly focusSub?: vscode.Disposable;

  constructor(
    readonly dir: string,
    /** Checks a stored value (files can be damaged or edited): undefined drops the record from view. */
    check: (value: unknown) => T | undefined,
    options: { watch?: boolean } = {},
  ) {
    this.folder = new RecordFolder(dir, check);
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
    return this.folder.values();
  }

  entries(): [string, T][] {
    return this.folder.entries();
  }

  get(key: string): T | undefined {
    return this.folder.get(key);
  }

  /** Sets one record (read at once); settles when its file is written: a complete file or the old one. */
  put(key: string, value: T): Promise<void> {
    const written = this.folder.put(key, value);
    this.changed.fire();
    return written;
  }

  /** Removes one record (at once); settles when its file is gone. */
  delete(key: string): Promise<void> {
    const had = this.folder.has(key);
    const removed = this.folder.delete(key);
    if (had) this.changed.fire();
    return removed;
  }

  /** Settles when every write asked for so far is done (what deactivation waits for). */
  flushed(): Promise<void> {
    return this.folder.flushed();
  }

  /** Reads the folder again; fires onDidChange when any record differs from what was known. */
  reload(): void {
    if (this.folder.reload()) this.changed.fire();
  }

  private scheduleReload(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => this.reload(), 50);
  }

  dispose(): void {
    clearTimeout(this.reloadTimer);
    this.watcher?.close();
    this.focusSub?.dispose();
    this.changed.dispose();
  }
}
