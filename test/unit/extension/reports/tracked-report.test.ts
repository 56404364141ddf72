// extension/reports/tracked-report.ts: the texts of a report (pure: no vscode import).
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import type { ReportRecord } from '../../../../src/core/api/types';
import {
  ageText,
  describeReport,
  expiryText,
  notifiesWhenFinished,
  reportTooltip,
} from '../../../../src/extension/reports/tracked-report';
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
      'Nov 18 06:00 – 12:30 · minute · datasource',
      'no scope: the kind, short',
    );
    assert.equal(
      label({ startTime: '2026-11-18T22:00:00Z', endTime: '2026-11-19T02:30:00Z', nodeIds: ['n'] }),
      'Nov 18 22:00 – Nov 19 02:30 · 1 node',
    );
    assert.equal(label({}, 'node-measurements'), 'time range unknown · node');
    assert.equal(
      label({ startTime: 'soon', endTime: 'later', allDatasources: true }),
      'soon → later · all ds',
      'what the service sent, not a crash',
    );
  });

  it('a range across days in whole hours reads as its start and length, to fit a default-width sidebar', () => {
    const d = describeReport(
      record({
        startTime: '2026-11-25T12:38:00Z',
        endTime: '2026-11-26T12:38:00Z',
        outputFrequency: 'hour',
        datasourceIds: Array.from({ length: 12 }, (_, i) => `D${i}`),
      }),
    );
    // Was "Nov 25 12:38 – Nov 26 12:38 · hour · 12 ds" (43 characters; a 300 px sidebar cut it after "h").
    assert.equal(d.label, 'Nov 25 12:38 +24h · hour · 12 ds');
    assert.ok(d.label.length <= 34, `${d.label.length} characters`);
    assert.equal(d.fullRange, '2026-11-25T12:38Z → 2026-11-26T12:38Z', 'the tooltip keeps both ends');
    const late = describeReport(record({ startTime: '2026-11-18T22:00:00Z', endTime: '2026-11-19T02:00:00Z' }));
    assert.equal(late.range, 'Nov 18 22:00 +4h');
    const week = describeReport(record({ startTime: '2026-11-18T06:00:00Z', endTime: '2026-11-25T06:00:00Z' }));
    assert.equal(week.range, 'Nov 18 06:00 – Nov 25 06:00', 'a week or more: both ends');
  });

  it('labels are in UTC unless a zone is given (the same text in every time zone the machine has)', () => {
    const r = record({ startTime: '2026-11-18T00:00:00Z', endTime: '2026-11-20T00:00:00Z' });
    assert.equal(describeReport(r).range, 'Nov 18–20');
    assert.equal(describeReport(r, 'Asia/Kolkata').range, 'Nov 18 05:30 +48h');
  });

  it('a report a cell started ends without a notification (the cell shows it); others notify', () => {
    const t = { connectionId: 'c', reportId: 'r1', record: record({}), addedAt: '2026-11-21T11:00:00Z', files: [] };
    assert.equal(notifiesWhenFinished(t), true, 'Create Report, Re-run, Add Report by Id');
    assert.equal(notifiesWhenFinished({ ...t, startedBy: 'cell' }), false);
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

  it('its tooltip shows service text as text: no link, image, HTML or code span forms from it', () => {
    const hostile =
      '![p](http://host/x.png) [click](command:workbench.action.quit) <img src=x onerror=alert(1)> `code` *b* http://host/auto';
    const tooltip = reportTooltip(
      {
        connectionId: 'c',
        reportId: 'r1',
        record: { ...record({ startTime: hostile }, `kind ${hostile}`), reportStatus: 'failed', message: hostile },
        addedAt: '2026-11-21T11:00:00Z',
        lastError: `line one\n${hostile}`,
        files: [],
      },
      now,
      '**Its connection was removed.**',
    );
    // Rendered by a CommonMark renderer that even allows HTML and linkifies: nothing but text and <strong>.
    const html = new MarkdownIt({ html: true, linkify: true }).render(tooltip);
    assert.doesNotMatch(html, /<(a|img|code|em|script)\b/);
    assert.match(html, /<strong>Its connection was removed\.<\/strong>/, "the extension's own Markdown stays");
    assert.match(html, /!\[p\]\(http:\/\/host\/x\.png\)/, 'the value reads as it was sent');
    assert.match(html, /Last error: line one !\[p\]/, 'on one line');
  });
});
