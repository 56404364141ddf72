// `measnb emulator`: prints how to connect (one JSON line with --json), serves, stops on Ctrl-C.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { API_KEY_HEADER, PATHS } from '../../src/core/api/paths';

const MAIN = path.resolve(__dirname, '../../src/cli/main.ts');

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

  it('--state keeps the reports between runs and takes the last port again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-emu-cli-'));
    const state = path.join(dir, 'state.json');
    const run = async () => {
      const cli = startCli(['--json', '--state', state, '--report-delay', '0s']);
      return { ...cli, info: JSON.parse((await cli.lines.next()).value as string) };
    };
    try {
      const first = await run();
      let reportId: string;
      try {
        const res = await fetch(`${first.info.baseUrl}${PATHS.reportRequests}`, {
          method: 'POST',
          headers: { [API_KEY_HEADER]: first.info.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({
            org: first.info.org,
            report: 'datasource-measurements',
            allDatasources: true,
            outputFrequency: 'day',
            startTime: '2026-11-01',
            endTime: '2026-11-02',
          }),
        });
        assert.equal(res.status, 200);
        reportId = (await res.json()).reportId;
      } finally {
        assert.equal(await stop(first.child), 0);
      }
      const second = await run();
      try {
        assert.equal(second.info.baseUrl, first.info.baseUrl, 'the same port');
        const res = await fetch(`${second.info.baseUrl}${PATHS.reportRequest(reportId)}`, {
          headers: { [API_KEY_HEADER]: second.info.apiKey, connection: 'close' },
        });
        assert.equal(res.status, 200);
        assert.equal((await res.json()).reportStatus, 'succeeded');
      } finally {
        assert.equal(await stop(second.child), 0);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
