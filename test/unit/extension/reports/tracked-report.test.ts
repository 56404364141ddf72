// extension/reports/tracked-report.ts: the texts of a report (pure: no vscode import).
import assert from 'node:assert/strict';
import type { ReportRecord } from '../../../../src/core/api/types';
import { ageText, describeReport, expiryText } from '../../../../src/extension/reports/tracked-report';
import { withTimeZone } from '../../../support/time-zone';

describe('extension: report texts', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const record = (query: Record<string, unknown>, report = 'datasource-measurements') =>
    ({ reportId: 'r1', reportStatus: 'succeeded', message: 'Ready', report, urls: [], query }) as ReportRecord;

  it('labels a report by what tells it apart: a short range, the frequency and how many datasources', () => {
    const d = describeReport(
      record({
        startTime: '2026-11-01T00:00:00.000Z',
        endTime: '2026-11-08T00:00:00.000Z',
        outputFrequency: 'hour',
        datasourceIds: Array.from({ length: 12 }, (_, i) => `D${i}`),
      }),
    );
    assert.equal(d.label, 'Nov 1–8 · hour · 12 ds');
    assert.equal(d.kind, 'datasource-measurements');
    assert.equal(d.fullRange, '2026-11-01T00:00Z → 2026-11-08T00:00Z', 'exact, without milliseconds');
    const other = describeReport(
      record({ startTime: '2026-11-18', endTime: '2026-11-20', outputFrequency: 'day', allDatasources: true }),
    );
    assert.equal(other.label, 'Nov 18–20 · day · all ds');
    assert.notEqual(other.label, d.label);
  });

  it('short ranges across months and years, with times of day when not at midnight; nodes and sites', () => {
    const label = (q: Record<string, unknown>, kind?: string) => describeReport(record(q, kind)).label;
    assert.equal(label({ startTime: '2026-11-28', endTime: '2026-12-02', nodeIds: ['n1'] }), 'Nov 28 – Dec 2 · 1 node');
    assert.equal(
      label({ startTime: '2025-12-30', endTime: '2026-01-02', refSiteIds: ['a', 'b'] }),
      'Dec 30, 2025 – Jan 2, 2026 · 2 sites',
    );
    assert.equal(
      label({ startTime: '2026-11-18T06:00:00Z', endTime: '2026-11-18T12:30:00.000Z', outputFrequency: 'minute' }),
      'Nov 18 06:00 – 12:30 · minute',
    );
    assert.equal(
      label({ startTime: '2026-11-18T22:00:00Z', endTime: '2026-11-19T02:00:00Z' }),
      'Nov 18 22:00 – Nov 19 02:00',
    );
    assert.equal(label({}), 'time range unknown');
    assert.equal(label({ startTime: 'soon', endTime: 'later' }), 'soon → later', 'what the service sent, not a crash');
  });

  it('labels are in UTC unless a zone is given (the same text in every time zone the machine has)', () => {
    const r = record({ startTime: '2026-11-18T00:00:00Z', endTime: '2026-11-20T00:00:00Z' });
    assert.equal(describeReport(r).range, 'Nov 18–20');
    assert.equal(describeReport(r, 'Asia/Kolkata').range, 'Nov 18 05:30 – Nov 20 05:30');
  });

  it('says how old a report is and when its links expire', () => {
    assert.equal(ageText('2026-11-21T11:59:30Z', now), '30s ago');
    assert.equal(ageText('2026-11-21T11:15:00Z', now), '45m ago');
    assert.equal(ageText('2026-11-20T12:00:00Z', now), '1d ago');
    assert.equal(expiryText(undefined, now), undefined);
    assert.equal(expiryText('2026-11-21T11:00:00Z', now), 'links expired');
    assert.equal(expiryText('2026-11-21T12:30:00Z', now), 'links expire in 30m');
    assert.equal(expiryText('2026-11-22T00:00:00Z', now), 'links expire in 12h');
  });

  it('reads zone-less times as UTC in any time zone of the machine (never as local time)', () => {
    withTimeZone('Asia/Kolkata', () => {
      const d = describeReport(record({ startTime: '2026-11-18T06:00:00', endTime: '2026-11-18T12:30:00' }));
      assert.equal(d.fullRange, '2026-11-18T06:00Z → 2026-11-18T12:30Z');
      assert.equal(d.range, 'Nov 18 06:00 – 12:30');
    });
  });
});
