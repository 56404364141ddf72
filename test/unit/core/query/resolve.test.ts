import assert from 'node:assert/strict';
import { type ParsedCell, parseCell, resolveCell } from '../../../../src/core/query';

const NOW = new Date('2026-11-21T12:34:56Z');
function cellOf(text: string): ParsedCell {
  const r = parseCell(text, { now: NOW });
  assert.ok(r.cell, JSON.stringify(r.diagnostics));
  return r.cell;
}

describe('query language: resolveCell', () => {
  it('turns a recent cell into the API request with times resolved at run time', () => {
    const r = resolveCell(
      cellOf('recent\ndatasourceIds: A, B\noutputFrequency: hour\nformat: csv-wide\nstartTime: -6h\nqcFlags: true'),
      { now: NOW, org: 'demo' },
    );
    assert.deepEqual(r.resolved, {
      verb: 'recent',
      request: {
        org: 'demo',
        datasourceIds: ['A', 'B'],
        outputFrequency: 'hour',
        format: 'csv-wide',
        startTime: '2026-11-21T06:34:56.000Z',
        qcFlags: true,
      },
    });
  });

  it('resolves now, today and relative days; keeps absolute times as written', () => {
    const r = resolveCell(
      cellOf(
        'report datasource-measurements\nallDatasources: true\noutputFrequency: day\nstartTime: 2026-11-01\nendTime: today',
      ),
      { now: NOW, org: 'demo' },
    );
    assert.equal(r.resolved?.verb, 'report');
    assert.deepEqual(r.resolved?.verb === 'report' && r.resolved.request, {
      org: 'demo',
      report: 'datasource-measurements',
      outputFrequency: 'day',
      startTime: '2026-11-01',
      endTime: '2026-11-21T00:00:00.000Z',
      allDatasources: true,
    });
    const n = resolveCell(cellOf('recent\nallDatasources: true\nstartTime: now'), { now: NOW, org: 'o' });
    assert.equal(n.resolved?.verb === 'recent' && n.resolved.request.startTime, NOW.toISOString());
  });

  it('a cell org wins over the connection org; no org at all is a diagnostic', () => {
    const c = cellOf('datasources\norg: other');
    assert.deepEqual(resolveCell(c, { now: NOW, org: 'demo' }).resolved, { verb: 'datasources', org: 'other' });
    const none = resolveCell(cellOf('recent\nallDatasources: true'), { now: NOW });
    assert.equal(none.resolved, undefined);
    assert.match(none.diagnostics[0].message, /No org/);
  });

  it('follow asks for a continuation token and keeps its interval', () => {
    const r = resolveCell(cellOf('follow every 30s\ndatasourceIds: A'), { now: NOW, org: 'demo' });
    assert.deepEqual(r.resolved, {
      verb: 'follow',
      everyMs: 30_000,
      request: { org: 'demo', datasourceIds: ['A'], replyWithContinuationToken: true },
    });
  });

  it('re-checks the order of times at run time (today vs a relative time depends on the clock)', () => {
    const cell = cellOf(
      'report datasource-measurements\nallDatasources: true\noutputFrequency: hour\nstartTime: today\nendTime: -1h',
    );
    // At 12:34 it is fine; at 00:30 the next day, -1h is before today's midnight.
    assert.ok(resolveCell(cell, { now: NOW, org: 'o' }).resolved);
    const late = resolveCell(cell, { now: new Date('2026-11-22T00:30:00Z'), org: 'o' });
    assert.equal(late.resolved, undefined);
    assert.match(late.diagnostics[0].message, /must be before endTime/);
    assert.equal(late.diagnostics[0].range.start.line, 4);
  });
});
