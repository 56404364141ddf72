// The built-in "Local emulator" connection: the emulator bundle (dist/emulator.js) is required lazily on
// first use and started in-process on 127.0.0.1, so the extension bundle stays small and a user who never
// picks the emulator never loads it. Its reports and quota live in a state file in the extension's global
// storage, and it takes its last port again when free: after a reload (a new emulator) the reports in the
// Reports view are still known, and their file URLs still work.
import path from 'node:path';

import type { RunningEmulator, startEmulator } from '../../emulator/index';
import { requireTrust } from '../trust';

/** What dist/emulator.js exports (the type only: the bundle itself is required on first use). */
interface EmulatorModule {
  startEmulator: typeof startEmulator;
}

export class LocalEmulator {
  private running?: Promise<RunningEmulator>;

  constructor(
    private readonly extensionPath: string,
    /** Where the emulator keeps its reports and quota between windows and reloads. */
    private readonly stateFile?: string,
  ) {}

  get started(): boolean {
    return this.running !== undefined;
  }

  /** Starts it (once); refused in Restricted Mode (UntrustedWorkspaceError): nothing is loaded then. */
  start(): Promise<RunningEmulator> {
    if (!this.running) requireTrust('Starting the local emulator');
    this.running ??= (async () => {
      const bundle = path.join(this.extensionPath, 'dist', 'emulator.js');
      // A plain require of a path computed at run time: esbuild leaves it alone (not bundled).
      const mod = require(bundle) as EmulatorModule;
      return mod.startEmulator({ stateFile: this.stateFile });
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
