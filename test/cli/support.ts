// Spawning the BUILT measnb (dist/cli.js) as a user would, against an emulator started in the test.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { NOW_ENV } from '../../src/core/time/clock';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator';

export const ROOT = resolve(__dirname, '../..');
export const CLI = join(ROOT, 'dist/cli.js');

let built: Promise<void> | undefined;

/** `npm run build` once per test process, so the tests run the bundle users get. */
export function ensureBuilt(): Promise<void> {
  built ??= promisify(execFile)('npm', ['run', 'build', '--silent'], { cwd: ROOT }).then(() => undefined);
  return built;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Called with each stdout chunk (for long-running commands). */
  onStdout?: (chunk: Buffer, child: ReturnType<typeof spawn>) => void;
  onStderr?: (chunk: Buffer, child: ReturnType<typeof spawn>) => void;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env, stdio: 'pipe' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => {
      out.push(c);
      options.onStdout?.(c, child);
    });
    child.stderr.on('data', (c: Buffer) => {
      err.push(c);
      options.onStderr?.(c, child);
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolvePromise({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'measnb-cli-'));
}

/**
 * The connection of a test emulator, as a user passes it: flags plus the key in the environment. The
 * CLI's clock starts where the emulator's clock is at each call (MEASNB_NOW), so relative times and
 * cache-depth checks never depend on the date the suite runs on.
 */
export function connection(emu: { url: string; org: string; apiKey: string; clock: { now(): number } }) {
  return {
    args: ['--base-url', emu.url, '--org', emu.org],
    get env(): Record<string, string> {
      return { MEASUREMENTS_API_KEY: emu.apiKey, [NOW_ENV]: new Date(emu.clock.now()).toISOString() };
    },
  };
}

export type Connection = ReturnType<typeof connection>;

/** What a CLI suite runs against: the built measnb, an emulator, its connection and a temporary folder. */
export interface CliEmulator {
  emu: RunningEmulator;
  conn: Connection;
  dir: string;
}

/** Builds measnb (once), starts an emulator with `options` and makes a temporary folder. */
export async function startCliEmulator(options: EmulatorOptions = {}): Promise<CliEmulator> {
  await ensureBuilt();
  const emu = await startEmulator(options);
  return { emu, conn: connection(emu), dir: await tempDir() };
}

/** Closes what startCliEmulator started (either may be unset when its start failed). */
export async function stopCliEmulator(emu: RunningEmulator | undefined, dir: string | undefined): Promise<void> {
  await emu?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}
