import assert from 'node:assert/strict';
import { checkMetricSelect } from '../../../../src/core/query/metric-select';
import { parseCell } from '../../../../src/core/query/parse';
import { type QuickFix, quickFixes } from '../../../../src/core/query/quick-fix';

const now = new Date('2026-11-20T00:00:00Z');

function apply(text: string, fix: QuickFix): string {
  const lines = text.split('\n');
  const { start, end } = fix.range;
  lines[start.line] = lines[start.line].slice(0, start.column) + fix.newText + lines[start.line].slice(end.column);
  return lines.join('\n');
}

describe('core/query quick fixes (did-you-mean)', () => {
  const cases: [string, string, string][] = [
    ['recnt\nallDatasources: true', 'recnt', 'recent'],
    ['recent\nallDatasorces: true', 'allDatasorces', 'allDatasources'],
    ['recent\nallDatasources: true\noutputFrequency: hourly', 'hourly', 'hour'],
    ['report node-measurement\nallDatasources: true', 'node-measurement', 'node-measurements'],
    [
      'recent\nallDatasources: true\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMassNowcst',
      'pm2_5ConcMassNowcst',
      'pm2_5ConcMassNowcast',
    ],
    ['recent\nallDatasources: true\nmetricSelect: only :pm2 + pm10ConcMas', ':pm2', ':pm'],
  ];
  for (const [text, wrong, right] of cases) {
    it(`replaces '${wrong}' with '${right}', and the diagnostic goes away`, () => {
      for (const service of ['emulator', 'real'] as const) {
        const { diagnostics } = parseCell(text, { now, service });
        const fix = quickFixes(text, diagnostics).find((f) => f.newText === right);
        assert.ok(fix, `${service}: a fix to ${right} among ${JSON.stringify(diagnostics.map((d) => d.message))}`);
        assert.equal(fix.title, `Change '${wrong}' to '${right}'`);
        const fixed = apply(text, fix);
        assert.ok(!fixed.includes(`${wrong}\n`) && fixed.includes(right), fixed);
        const after = parseCell(fixed, { now, service }).diagnostics;
        assert.ok(!after.some((d) => d.code === fix.diagnostic.code && d.message.includes(`'${wrong}'`)), fixed);
      }
    });
  }

  it('no fix without a suggestion, nor for a range that is not one word', () => {
    const text = 'recent\nallDatasources: true\nmetricSelect: only zzzzzzzzzzzz';
    assert.deepEqual(quickFixes(text, parseCell(text, { now }).diagnostics), []);
  });

  it('a typo of a label of another frequency still gets its suggestion, and where it exists', () => {
    // A recent cell without outputFrequency asks for minute output, where there is no NowCast.
    const [p] = checkMetricSelect('only pm2_5ConcMassNowcst', 'minute', 'emulator');
    assert.equal(p.suggestion, 'pm2_5ConcMassNowcast');
    assert.equal(
      p.message,
      "unknown metric label 'pm2_5ConcMassNowcst'; did you mean pm2_5ConcMassNowcast? It exists only for hour output, not minute",
    );
  });
});
