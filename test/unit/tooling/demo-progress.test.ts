// scripts/demo-progress.mjs: what `npm run demo` prints while a stage runs. Off a terminal (CI, a pipe)
// it used to print the whole title with its hint every 30 s, cut mid-word at 100 columns.
import assert from 'node:assert/strict';
import { fitWords, heartbeatLine, liveLine, startLine, stepLine, stepOf } from '../../../scripts/demo-progress.mjs';

describe('demo progress lines', () => {
  it('off a terminal: the hint once at the start, then a short heartbeat without it', () => {
    assert.equal(
      startLine('toolchain', 'Node 24 and code-server; the first time ~5 min'),
      '  … toolchain (Node 24 and code-server; the first time ~5 min)',
    );
    assert.equal(startLine('build'), '  … build');
    const beat = heartbeatLine('toolchain', 90_000);
    assert.equal(beat, '    toolchain: still working, 1m30s');
    assert.ok(!beat.includes('first time'), 'the hint is not repeated');
  });

  it('the steps a stage names are lines of their own (what apt-get will install, before it does)', () => {
    assert.equal(
      stepOf('[toolchain] apt-get will install libkrb5-dev (to build); nothing already installed is upgraded'),
      'apt-get will install libkrb5-dev (to build); nothing already installed is upgraded',
    );
    assert.equal(stepOf('[toolchain] ready in 0.1s'), undefined, 'the end line says that');
    assert.equal(stepOf('added 312 packages in 9s'), undefined, 'tool output stays in the log');
    assert.equal(stepLine('npm install code-server@4.139.1'), '    · npm install code-server@4.139.1');
  });

  it('a long line is cut at a word, never mid-word', () => {
    const line = liveLine('toolchain', 65_000, 'npm warn deprecated inflight@1.0.6: This module is not supported', 60);
    assert.ok(line.length <= 59, `${line.length}: ${line}`);
    assert.equal(line, '  … toolchain  1m05s  npm warn deprecated inflight@1.0.6:…');
    assert.equal(fitWords('short enough', 40), 'short enough');
    assert.equal(fitWords('abcdefghijklmnopqrstuvwxyz', 10), 'abcdefghi…', 'one long word: cut, marked');
  });
});
