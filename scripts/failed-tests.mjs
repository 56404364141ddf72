// The failing tests of a run, and those that passed only on a retry, printed just above the total
// line: CI keeps only a long log's last lines, and a count alone ("host: 88 passed, 1 failed") does
// not say which test to look at.

/**
 * @param {{ lane: string, failed?: { title: string, error: string }[], flaky?: { title: string, error: string }[] }[]} lanes
 */
export function printFailedTests(lanes) {
  printBlock(
    'passed on a retry (flaky: the first try failed)',
    lanes.flatMap((l) => (l.flaky ?? []).map((f) => ({ lane: l.lane, mark: '↻', ...f }))),
  );
  printBlock(
    'failing tests',
    lanes.flatMap((l) => (l.failed ?? []).map((f) => ({ lane: l.lane, mark: '✘', ...f }))),
  );
}

function printBlock(heading, rows) {
  if (rows.length === 0) return;
  console.log(`\n[test] ${heading} (${rows.length}):`);
  for (const { lane, mark, title, error } of rows) {
    console.log(`  ${mark} ${lane}: ${title}`);
    for (const line of String(error).split('\n')) console.log(`      ${line}`);
  }
}
