// The subset of VS Code's notebook renderer API (vscode-notebook-renderer) this renderer uses.

interface Disposable {
  dispose(): void;
}

export interface OutputItem {
  readonly id: string;
  readonly mime: string;
  readonly metadata?: unknown;
  data(): Uint8Array;
  text(): string;
}

export interface RendererContext<T> {
  postMessage?(message: unknown): void;
  onDidReceiveMessage?(listener: (message: T) => void): Disposable;
  readonly workspace: { readonly isTrusted: boolean };
}

export interface RendererApi {
  renderOutputItem(outputItem: OutputItem, element: HTMLElement, signal?: AbortSignal): void | Promise<void>;
  disposeOutputItem?(id?: string): void;
}
