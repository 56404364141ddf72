// `measnb emulator`: prints how to connect (one JSON line with --json), serves, stops on Ctrl-C.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import readline from 'node:readline';
import { API_KEY_HEADER, PATHS } from '../../../src/core/api/paths';

const MAIN = path.resolve(__dirname, '../../../src/cli/main.ts');

function startCli(args: string[]): { child: ChildProcess; lines: AsyncIterableIterator<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'emulator', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const rl = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return { child, lines: rl[Symbol.asyncIterator]() };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  const [code] = await exited;
  return code as number | null;
}

describe('measnb emulator (CLI)', function () {
  this.timeout(30_000);

  it('--json prints exactly one JSON line {baseUrl, org, apiKey} once listening, and stops on Ctrl-C', async () => {
    const { child, lines } = startCli(['--json', '--port', '0', '--report-delay', '1s']);
    try {
      const first = await lines.next();
      const info = JSON.parse(first.value as string);
      assert.deepEqual(Object.keys(info), ['baseUrl', 'org', 'apiKey']);
      assert.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(info.org, 'demo-org');
      const res = await fetch(`${info.baseUrl}${PATHS.datasources}?org=${info.org}`, {
        headers: { [API_KEY_HEADER]: info.apiKey },
      });
      assert.equal(res.status, 200);
      // 20 datasources, one of which (the late subscriber) is subscribed only from the next hour.
      assert.equal((await res.json()).datasources.length, 19);
    } finally {
      assert.equal(await stop(child), 0);
    }
  });

  it('without --json it prints the URL, org and key for people; --control enables the clock endpoint', async () => {
    const { child, lines } = startCli(['--control', '--seed', '3', '--datasources', '12']);
    try {
      const text: string[] = [];
      for (let line = await lines.next(); !line.done; line = await lines.next()) {
        text.push(line.value);
        if (line.value.startsWith('Press Ctrl-C')) break;
      }
      const out = text.join('\n');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      assert.ok(url, out);
      assert.match(out, /org: +demo-org/);
      assert.match(out, /API key: +emu_[0-9a-f]{32}/);
      assert.match(out, /\/_emulator\/clock/);
      const res = await fetch(`${url}/_emulator/clock`, { method: 'POST', body: '{"advance":"1h"}' });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    } finally {
      assert.equal(await stop(child), 0);
    }
  });
});
