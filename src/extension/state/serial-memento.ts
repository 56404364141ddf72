// VS Code's global-state Memento is one object for all keys, and the workbench echoes every write back
// to the extension host, which replaces that whole object with the echo. With two writes in flight (to
// any keys: reports, quota, connections) a read can see the older value and the later write can be lost.
// The extension therefore writes global state through one SerialMemento: writes reach VS Code one at a
// time, each after the echo of the one before, and a key with a write in flight reads the value written.
// Once its writes are done a key reads VS Code's value again (which also carries other windows' writes).
import type * as vscode from 'vscode';

export class SerialMemento implements vscode.Memento {
  /** Keys with a write in flight: the last value written and its write number. */
  private readonly written = new Map<string, { value: unknown; n: number }>();
  private writes = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly inner: vscode.Memento) {}

  keys(): readonly string[] {
    return [...new Set([...this.inner.keys(), ...this.written.keys()])].filter((k) => this.get(k) !== undefined);
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const pending = this.written.get(key);
    const value = pending ? (pending.value as T | undefined) : this.inner.get<T>(key);
    return value === undefined ? defaultValue : value;
  }

  update(key: string, value: unknown): Promise<void> {
    const n = ++this.writes;
    this.written.set(key, { value, n });
    const write = this.queue.then(() => this.inner.update(key, value));
    const settled = () => {
      if (this.written.get(key)?.n === n) this.written.delete(key);
    };
    this.queue = write.then(settled, settled);
    return write;
  }

  /** Resolves once every write made so far has reached VS Code. */
  flushed(): Promise<void> {
    return this.queue;
  }
}
