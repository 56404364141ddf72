// A child process for the readers' hostile-input tests: reads files as the table editor does
// (readTableFile) and prints one JSON line with each outcome, its time and the process's peak RSS, so a
// test measures memory in a process of its own (the test runner's peak says nothing about one read).
//   node --import tsx hostile-read-child.ts <maxRows> <warm-up file> <file>...
// Before each read it writes "start <file>" to stderr: a read that never ends is named by the parent.
import fs from 'node:fs';
import { TableFileError } from '../../../src/core/api/errors';
import { readTableFile } from '../../../src/core/sql/file-read.node';

export interface ChildRead {
  file: string;
  /** 'table' or the error's name and code. */
  outcome: string;
  /** The error's message (and its cause's), when it failed. */
  message?: string;
  ms: number;
  rows?: number;
}

export interface ChildReport {
  /** Peak RSS (MiB) after a first small read, before the inputs: the baseline. */
  baseMiB: number;
  /** Peak RSS (MiB) at the end. */
  peakMiB: number;
  reads: ChildRead[];
}

/** The process's peak resident set (VmHWM on Linux, getrusage elsewhere), in MiB. */
export function peakRssMiB(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

async function readOne(file: string, maxRows: number): Promise<ChildRead> {
  process.stderr.write(`start ${file}\n`);
  const t0 = performance.now();
  try {
    const r = await readTableFile(file, { maxRows });
    return { file, outcome: 'table', ms: performance.now() - t0, rows: r.table.rowCount };
  } catch (e) {
    const err = e as Error & { code?: string; cause?: Error & { code?: string } };
    const cause = err.cause ? ` <- ${err.cause.name}/${err.cause.code ?? ''}` : '';
    return {
      file,
      outcome: `${err instanceof TableFileError ? 'TableFileError' : err.name}/${err.code ?? ''}${cause}`,
      message: err.message,
      ms: performance.now() - t0,
    };
  }
}

async function main(): Promise<void> {
  const [maxRowsArg, warmUp, ...files] = process.argv.slice(2);
  const maxRows = Number(maxRowsArg);
  // Warm up (modules loaded, the reader compiled) on a valid file, so the baseline includes them.
  await readOne(warmUp, maxRows);
  const baseMiB = peakRssMiB();
  const reads: ChildRead[] = [];
  for (const file of files) reads.push(await readOne(file, maxRows));
  const report: ChildReport = { baseMiB, peakMiB: peakRssMiB(), reads };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

void main();
