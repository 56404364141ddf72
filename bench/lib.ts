// Side-by-side benchmarking: a baseline and the project's subject run alternately in the same
// session, several times; medians and the ratio are what we report (never a single timing).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface Sample {
  ms: number;
  maxRssMb?: number;
  bytes?: number;
}

export interface BenchResult {
  name: string;
  target: string;
  baseline: string;
  subject: string;
  baselineMedianMs?: number;
  subjectMedianMs?: number;
  ratio?: number;
  /** Extra measured figures (peak memory, throughput, DOM rows...). */
  figures: Record<string, number | string>;
  pass: boolean;
  note?: string;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export async function sideBySide<S extends Sample = Sample>(
  runs: number,
  baseline: () => Promise<Sample>,
  subject: () => Promise<S>,
): Promise<{ baseline: Sample[]; subject: S[] }> {
  const out = { baseline: [] as Sample[], subject: [] as S[] };
  // One warm-up each (disk cache, JIT), then alternate so drift hits both equally.
  await baseline();
  await subject();
  for (let i = 0; i < runs; i++) {
    out.baseline.push(await baseline());
    out.subject.push(await subject());
  }
  return out;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  stdoutFile?: string;
  cwd?: string;
}

/** Runs a command to completion; wall time, and peak RSS when it is a node process run with report-rss.cjs. */
export function runCommand(cmd: string, args: string[], opts: RunOptions = {}): Promise<Sample & { stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const out = opts.stdoutFile ? fs.openSync(opts.stdoutFile, 'w') : 'ignore';
    const child = spawn(cmd, args, {
      env: { ...process.env, ...opts.env },
      cwd: opts.cwd,
      stdio: ['ignore', out, 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
      if (stderr.length > 1e6) stderr = stderr.slice(-1e5);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (typeof out === 'number') fs.closeSync(out);
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      const m = /@@maxrss_kb=(\d+)/.exec(stderr);
      resolve({ ms, maxRssMb: m ? Number(m[1]) / 1024 : undefined, stderr });
    });
  });
}

/** Runs a node script to its end: its exit code and its stdout and stderr together (for @@ result lines). */
export function runNodeScript(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

export const NODE_RSS = ['--require', path.resolve('bench/support/report-rss.cjs')];

export function fmt(n: number | undefined, digits = 1): string {
  return n === undefined ? '-' : n.toFixed(digits);
}

export function printTable(results: BenchResult[]): void {
  const rows = results.map((r) => [
    r.pass ? 'PASS' : 'MISS',
    r.name,
    r.target,
    fmt(r.baselineMedianMs, 0),
    fmt(r.subjectMedianMs, 0),
    r.ratio === undefined ? '-' : `${r.ratio.toFixed(2)}x`,
    Object.entries(r.figures)
      .map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v, v < 10 ? 2 : 1) : v}`)
      .join(' '),
  ]);
  const head = ['', 'benchmark', 'target', 'baseline ms', 'subject ms', 'ratio', 'figures'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

export function writeResults(results: BenchResult[]): string {
  const dir = path.resolve('.artifacts/bench');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const body = JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2);
  fs.writeFileSync(file, body);
  fs.writeFileSync(path.join(dir, 'latest.json'), body);
  return file;
}

/**
 * Bundles a benchmark child (TypeScript) into plain JS once, so that the measured process carries
 * no transpiler: its start-up time and peak RSS are the project's own.
 */
export async function bundledChild(entry: string): Promise<string> {
  const esbuild = await import('esbuild');
  const outfile = path.resolve('.artifacts/bench/children', `${path.basename(entry, '.ts')}.cjs`);
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['@duckdb/node-api', '@duckdb/node-bindings'], // native: required from node_modules at run time
    logLevel: 'silent',
  });
  return outfile;
}
