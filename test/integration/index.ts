// Entry point the extension host loads through extensionTestsPath: runs every compiled
// *.test.js beside it with mocha and the project's counting reporter (lane "host" by default),
// so the lane's counts land in .artifacts/results/<lane>.json like the unit lane's.
import fs from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  process.env.MEASNB_LANE ??= 'host';
  // This bundle lives in out/integration: the reporter is found from the project root.
  const root = path.resolve(__dirname, '../..');
  Mocha.reporters.Base.useColors = false;
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    // One retry: a test that fails once on a loaded machine and then passes is counted as passed and named
    // in the run's last lines as flaky (test/support/counting-reporter.cjs); failing twice fails the lane.
    retries: Number(process.env.MEASNB_HOST_RETRIES ?? 1),
    reporter: path.join(root, 'test/support/counting-reporter.cjs'),
  });
  const grep = process.env.MEASNB_HOST_GREP;
  if (grep) mocha.grep(grep);
  const files = fs
    .readdirSync(__dirname, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.js'))
    .sort((a, b) => firstRank(a) - firstRank(b) || a.localeCompare(b));
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}

/**
 * Suites that check a fresh host run first, in this order: activation (the extension is not active at
 * startup) and sql (activation did not load the SQL engine; any suite that runs a cell or opens a Parquet
 * file may load it). The rest run in name order.
 */
const FIRST = ['activation.test.js', 'sql.test.js'];

function firstRank(file: string): number {
  const i = FIRST.indexOf(path.basename(file));
  return i < 0 ? FIRST.length : i;
}
