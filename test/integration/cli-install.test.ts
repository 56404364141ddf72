// "Install measnb on PATH" in the real extension host: the launcher it writes runs the CLI bundled in
// the installed extension, with the host's own Node.js; a file it did not write is not replaced.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { INSTALL_CLI_COMMAND } from '../../src/extension/commands/cli-command';
import { api } from './helpers';

describe('Install measnb on PATH', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-bin-'));
  before(() => api());

  it('writes a launcher that runs the bundled CLI (a query against an in-process emulator)', async () => {
    const target = await vscode.commands.executeCommand<string>(INSTALL_CLI_COMMAND, { dir });
    assert.equal(target, path.join(dir, process.platform === 'win32' ? 'measnb.cmd' : 'measnb'));
    const { stdout } = await promisify(execFile)(target, ['query', '-e', 'datasources', '--emulator', '--csv'], {
      env: { ...process.env, MEASUREMENTS_API_KEY: '' },
    });
    assert.match(stdout.split('\n')[0], /^datasourceId,/);
    assert.ok(stdout.trim().split('\n').length > 5, 'the emulator’s datasources');
    // Running it again replaces its own launcher.
    assert.equal(await vscode.commands.executeCommand<string>(INSTALL_CLI_COMMAND, { dir }), target);
  });

  it('never replaces a measnb it did not write', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-bin-'));
    const target = path.join(other, process.platform === 'win32' ? 'measnb.cmd' : 'measnb');
    fs.writeFileSync(target, '#!/bin/sh\necho mine\n');
    const result = await vscode.commands.executeCommand(INSTALL_CLI_COMMAND, { dir: other });
    assert.equal(result, undefined, 'the command refused');
    assert.equal(fs.readFileSync(target, 'utf8'), '#!/bin/sh\necho mine\n');
  });
});
