// The built-in "Local emulator" connection: the emulator bundle (dist/emulator.js) is required lazily on
// first use and started in-process on a free 127.0.0.1 port, so the extension bundle stays small and a
// user who never picks the emulator never loads it.
import path from 'node:path';

export interface RunningEmulator {
  url: string;
  org: string;
  apiKey: string;
  close(): Promise<void>;
}

interface EmulatorModule {
  startEmulator(options: { port?: number; host?: string }): Promise<RunningEmulator>;
}

export class LocalEmulator {
  private running?: Promise<RunningEmulator>;

  constructor(private readonly extensionPath: string) {}

  get started(): boolean {
    return this.running !== undefined;
  }

  start(): Promise<RunningEmulator> {
    this.running ??= (async () => {
      const bundle = path.join(this.extensionPath, 'dist', 'emulator.js');
      // A plain require of a path computed at run time: esbuild leaves it alone (not bundled).
      const mod = require(bundle) as EmulatorModule;
      return mod.startEmulator({ port: 0 });
    })();
    this.running.catch(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    const r = this.running;
    this.running = undefined;
    if (r) await (await r).close();
  }
}
