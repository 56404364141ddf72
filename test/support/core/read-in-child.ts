// Reads table files in a child process of its own (hostile-read-child.ts), so that a test measures one
// read's time and peak RSS, and a read that never ends is killed and named.
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { ChildReport } from './hostile-read-child';

const CHILD = path.join(__dirname, 'hostile-read-child.ts');

/** Reads `files` with readTableFile in a child (after `warmUp`): each outcome and time, and the child's peak RSS. */
export function readInChild(maxRows: number, warmUp: string, files: string[], timeoutMs: number): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CHILD, String(maxRows), warmUp, ...files],
      { timeout: timeoutMs, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error) {
          const started = stderr.trim().split('\n').pop();
          reject(new Error(`the child failed or took over ${timeoutMs} ms (last: ${started}): ${error.message}`));
        } else resolve(JSON.parse(stdout) as ChildReport);
      },
    );
  });
}
