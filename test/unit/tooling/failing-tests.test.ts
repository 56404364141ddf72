// CI keeps only the last lines of a run. The counting reporter records each failing test's title and
// error head, and scripts/test-summary.mjs (the last thing .ci/run prints) names them above the total.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

/** Runs a suite file (its lines) with mocha and the counting reporter as lane "host", results in dir. */
function runSuite(dir: string, name: string, lines: string[], mochaArgs: string[] = []) {
  const spec = path.join(dir, name);
  fs.writeFileSync(spec, lines.join('\n'));
  const run = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/mocha/bin/mocha.js'),
      '--no-config',
      ...mochaArgs,
      '--reporter',
      path.join(ROOT, 'test/support/counting-reporter.cjs'),
      spec,
    ],
    { env: { ...process.env, MEASNB_LANE: 'host', MEASNB_RESULTS_DIR: dir }, encoding: 'utf8' },
  );
  const recorded = JSON.parse(fs.readFileSync(path.join(dir, 'host.json'), 'utf8'));
  return { run, recorded };
}

/** What scripts/test-summary.mjs prints for the given lanes (the last lines of .ci/run). */
function summary(dir: string, lanes: string) {
  return spawnSync(process.execPath, [path.join(ROOT, 'scripts/test-summary.mjs'), lanes], {
    env: { ...process.env, MEASNB_RESULTS_DIR: dir },
    encoding: 'utf8',
  });
}

describe('failing tests named in the last lines of a run', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-failing-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a lane with a failing test: the summary names the lane, the test and its error, then the total', () => {
    const { run, recorded } = runSuite(dir, 'sample.test.cjs', [
      "const assert = require('node:assert/strict');",
      "describe('sample suite', () => {",
      "  it('passes', () => {});",
      "  it('compares two counts', () => assert.equal(1 + 1, 3, 'the counts differ'));",
      '});',
    ]);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(recorded.passes, 1);
    assert.equal(recorded.failures, 1);
    assert.equal(recorded.failed.length, 1);
    assert.equal(recorded.failed[0].title, 'sample suite compares two counts');
    assert.match(recorded.failed[0].error, /the counts differ/);
    assert.match(recorded.failed[0].error, /sample\.test\.cjs:\d+/, 'the frame in the test file');

    const printed = summary(dir, 'host');
    assert.equal(printed.status, 1);
    const lines = printed.stdout.trimEnd().split('\n');
    assert.equal(lines.at(-1), '1 passed, 1 failed');
    const at = lines.findIndex((l) => l.includes('✘ host: sample suite compares two counts'));
    assert.ok(at > 0, printed.stdout);
    assert.match(lines[at + 1] ?? '', /the counts differ/);
  });

  it('a test that passes only on its retry counts as passed and is named as flaky, with its first error', () => {
    const { run, recorded } = runSuite(
      dir,
      'flaky.test.cjs',
      [
        "const assert = require('node:assert/strict');",
        'let tries = 0;',
        "describe('flaky suite', () => {",
        "  it('steady', () => {});",
        "  it('settles on the second try', () => assert.ok(++tries > 1, 'not yet settled'));",
        '});',
      ],
      ['--retries', '1'],
    );
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /↻ retrying "settles on the second try" after: not yet settled/);
    assert.deepEqual([recorded.passes, recorded.failures, recorded.failed.length], [2, 0, 0]);
    assert.equal(recorded.flaky.length, 1);
    assert.equal(recorded.flaky[0].title, 'flaky suite settles on the second try');

    const printed = summary(dir, 'host');
    assert.equal(printed.status, 0);
    assert.match(
      printed.stdout,
      /passed on a retry \(flaky: the first try failed\) \(1\):\n {2}↻ host: flaky suite settles/,
    );
    assert.match(printed.stdout, /not yet settled/);
    assert.equal(printed.stdout.trimEnd().split('\n').at(-1), '2 passed, 0 failed');
  });

  it('a run with no failing test prints no failing-tests block', () => {
    fs.writeFileSync(path.join(dir, 'unit.json'), JSON.stringify({ lane: 'unit', passes: 3, failures: 0, failed: [] }));
    const printed = summary(dir, 'unit');
    assert.equal(printed.status, 0);
    assert.doesNotMatch(printed.stdout, /failing tests/);
    assert.equal(printed.stdout.trimEnd().split('\n').at(-1), '3 passed, 0 failed');
  });
});
