// VS Code's global-state Memento is one object for all keys, and the workbench echoes every write back
// to the extension host, which replaces that whole object with the echo. With two writes in flight (to
// any keys: reports, quota, connections) a read can see the older value and the later write can be lost.
// The extension therefore writes global state through one SerialMemento: reads come from its own copy of
// the keys it wrote, and writes reach VS Code one at a time, each after the echo of the one before.
import type * as vscode from 'vscode';

export class SerialMemento implements vscode.Memento {
  private readonly written = new Map<string, unknown>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly inner: vscode.Memento) {}

  keys(): readonly string[] {
    return [...new Set([...this.inner.keys(), ...this.written.keys()])].filter((k) => this.get(k) !== undefined);
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const value = this.written.has(key) ? (this.written.get(key) as T | undefined) : this.inner.get<T>(key);
    return value === undefined ? defaultValue : value;
  }

  update(key: string, value: unknown): Promise<void> {
    this.written.set(key, value);
    const write = this.queue.then(() => this.inner.update(key, value));
    this.queue = write.then(
      () => undefined,
      () => undefined,
    );
    return write;
  }

  /** Resolves once every write made so far has reached VS Code. */
  flushed(): Promise<void> {
    return this.queue;
  }
}
