// Starts the built emulator (dist/cli.js emulator --json) as a child process for benchmarks,
// so its CPU and memory are its own; reads its peak RSS from /proc.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';

export interface EmulatorProcess {
  baseUrl: string;
  org: string;
  apiKey: string;
  child: ChildProcess;
  peakRssMb(): number;
  stop(): Promise<void>;
}

export async function startEmulatorProcess(args: string[] = []): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, ['dist/cli.js', 'emulator', '--json', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`emulator exited ${code}`)));
  });
  const info = JSON.parse(line) as { baseUrl: string; org: string; apiKey: string };
  return {
    ...info,
    child,
    peakRssMb() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}
