import assert from 'node:assert/strict';
import { errorFromResponse } from '../../../../src/core/api/error-reply';
import {
  CellError,
  MeasurementsError,
  NotebookFormatError,
  OutputError,
  ReportFailedError,
  UnsafePathError,
} from '../../../../src/core/api/errors';
import { quotaReachedText, quotaResetText } from '../../../../src/core/api/quota-text';
import { parseCell } from '../../../../src/core/query';
import { describeFailure } from '../../../../src/core/run/describe-failure.node';

const now = new Date('2026-11-20T20:48:00Z');

function http(status: number, operation = 'getReport', retryAfter?: string): MeasurementsError {
  return errorFromResponse({
    status,
    method: 'GET',
    path: '/x',
    bodyText: '{"message":"said"}',
    operation,
    now,
    retryAfter,
  });
}

function cellError(text: string): CellError {
  return new CellError(parseCell(text, { now, service: 'emulator' }).diagnostics);
}

describe('core/run describeFailure', () => {
  it('a cell: one line per error, compiler style with a source, "line, column" without; allowed values once', () => {
    const e = cellError('recent\nallDatasources: true\noutputFrequency: hourly\nformat: parquet');
    const withSource = describeFailure(e, { source: 'a.measnb#2' });
    assert.equal(withSource.kind, 'invalid-cell');
    assert.equal(withSource.title, 'The cell has errors; nothing was sent');
    assert.deepEqual(withSource.lines, [
      "a.measnb#2:3:18: error: 'hourly' is not a valid outputFrequency; did you mean 'hour'? Allowed: minute, hour, day",
      "a.measnb#2:4:9: error: 'parquet' is not a valid format. Allowed: json-long, csv-wide",
    ]);
    const beside = describeFailure(e).lines;
    assert.equal(
      beside[0],
      "line 3, column 18: 'hourly' is not a valid outputFrequency; did you mean 'hour'? Allowed: minute, hour, day",
    );
    assert.ok(!beside.join('\n').includes('(allowed:'), 'the values are listed once');
  });

  it('a report kind: the kinds are listed once (the message names them without "Allowed")', () => {
    const [line] = describeFailure(cellError('report aggregate\nallDatasources: true')).lines;
    assert.equal(line.split('datasource-measurements').length, 2, line);
  });

  it("the service: quota with its reset time and wait, on the caller's clock or the server's Retry-After", () => {
    const quota = http(429, 'createReport');
    const f = describeFailure(quota, { org: 'demo-org', now });
    assert.equal(f.kind, 'quota');
    assert.deepEqual(f.lines, [
      'Daily report limit reached for org demo-org (30 per UTC day); resets at 00:00 UTC, in 3h12m.',
    ]);
    const server = describeFailure(http(429, 'createReport', '60'), { now });
    assert.match(server.lines[0], /for this org \(30 per UTC day\); resets at 00:00 UTC, in 1m\.$/);
    // Without a clock (a cell's output): the reset's date instead of the wait.
    const noClock = new MeasurementsError('QUOTA_EXCEEDED', 'x', { resetAt: new Date('2026-11-21T00:00:00Z') });
    assert.match(describeFailure(noClock).lines[0], /resets at 00:00 UTC on 2026-11-21\.$/);
  });

  it('the service: each code has its kind', () => {
    const kinds = [
      [http(401), 'auth'],
      [http(403), 'auth'],
      [http(404), 'not-found'],
      [http(400), 'rejected'],
      [http(500), 'unavailable'],
      [new MeasurementsError('INVALID_REQUEST', 'bad field'), 'invalid-request'],
      [new MeasurementsError('NETWORK', 'ECONNREFUSED'), 'unreachable'],
      [new MeasurementsError('TIMEOUT', 'too slow'), 'unreachable'],
      [new MeasurementsError('CANCELLED', 'aborted'), 'cancelled'],
    ] as const;
    for (const [e, kind] of kinds) assert.equal(describeFailure(e).kind, kind, `${e.code} (${e.status})`);
    assert.equal(describeFailure(http(401)).title, 'Not allowed');
    assert.equal(describeFailure(http(500)).title, 'Service error (SERVER_ERROR)');
  });

  it('local failures: notebook file, output, failed report, unsafe folder, system, anything else', () => {
    const nb = describeFailure(new NotebookFormatError('cells[0]', 'not an object'), { source: 'a.measnb' });
    assert.deepEqual(
      [nb.kind, nb.lines],
      ['invalid-notebook', ['a.measnb: not a valid .measnb file: cells[0]: not an object']],
    );
    const out = describeFailure(new OutputError(Object.assign(new Error('no space'), { code: 'ENOSPC' })));
    assert.deepEqual([out.kind, out.lines], ['output', ['Cannot write the output: ENOSPC.']]);
    const record = {
      reportId: 'r1',
      reportStatus: 'failed',
      message: 'boom',
      report: 'node-measurements',
      urls: [],
      query: {},
    } as const;
    const failed = describeFailure(new ReportFailedError({ ...record, urls: [] }));
    assert.deepEqual([failed.kind, failed.lines], ['report-failed', ['Report r1 failed: boom; no files to download.']]);
    assert.equal(describeFailure(new UnsafePathError('leads outside')).kind, 'unsafe-path');
    const sys = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', syscall: 'open' });
    assert.deepEqual([describeFailure(sys).kind, describeFailure(sys).title], ['system', 'ENOENT']);
    assert.deepEqual(describeFailure(new TypeError('x is undefined')), {
      kind: 'internal',
      title: 'TypeError',
      lines: ['x is undefined'],
    });
    assert.deepEqual(describeFailure('a string'), { kind: 'internal', title: 'Error', lines: ['a string'] });
  });

  it('quota text: one wording, the reset in UTC', () => {
    const resetAt = new Date('2026-11-21T00:00:00Z');
    assert.equal(quotaResetText({ resetAt, now }), 'resets at 00:00 UTC, in 3h12m');
    assert.equal(quotaResetText({ now }), 'resets at 00:00 UTC, in 3h12m', 'the next UTC midnight of now');
    assert.equal(quotaResetText({}), 'resets at 00:00 UTC');
    assert.equal(
      quotaReachedText('o', { resetAt }),
      'Daily report limit reached for org o (30 per UTC day); resets at 00:00 UTC on 2026-11-21.',
    );
  });
});
