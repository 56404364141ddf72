import assert from 'node:assert/strict';
import { ReportCellError } from '../../../../src/core/api/errors';
import type { ReportRequest } from '../../../../src/core/api/types';
import { parseCell } from '../../../../src/core/query/parse';
import { reportCellText } from '../../../../src/core/query/report-cell';
import { resolveCell } from '../../../../src/core/query/resolve';

/** The request a cell's text sends (resolved as the controller resolves it, with the connection's org). */
function sends(text: string, org: string): ReportRequest {
  const parsed = parseCell(text, { now: new Date('2026-11-20T12:00:00Z') });
  assert.ok(parsed.cell, JSON.stringify(parsed.diagnostics));
  const r = resolveCell(parsed.cell, { now: new Date('2026-11-20T12:00:00Z'), org });
  assert.ok(r.resolved?.verb === 'report', JSON.stringify(r.diagnostics));
  return r.resolved.request;
}

describe('a report request as a `report` cell', () => {
  const full: ReportRequest = {
    report: 'datasource-measurements',
    org: 'acme',
    outputFrequency: 'hour',
    startTime: '2026-11-18T00:00:00Z',
    endTime: '2026-11-20',
    datasourceIds: ['DFV2F2UA', 'DKUHQDHC'],
    metricLabelStyle: 'english',
    fileFormat: 'parquet-wide',
    metricSelect: 'only pm2_5ConcMassNowcast + :gas',
    qcAssessment: true,
    qcFlags: false,
    dataVersion: 'v2026-11-10',
  };

  it('round-trips through parseCell: the cell sends the very request, ids first, org left to the connection', () => {
    const text = reportCellText(full, { omitOrg: true, comment: 'From report ABC\nendTime: 2030-01-01' });
    assert.equal(
      text,
      [
        '# From report ABC endTime: 2030-01-01',
        'report datasource-measurements',
        'datasourceIds: DFV2F2UA, DKUHQDHC',
        'outputFrequency: hour',
        'startTime: 2026-11-18T00:00:00Z',
        'endTime: 2026-11-20',
        'metricLabelStyle: english',
        'fileFormat: parquet-wide',
        'metricSelect: only pm2_5ConcMassNowcast + :gas',
        'qcAssessment: true',
        'qcFlags: false',
        'dataVersion: v2026-11-10',
        '',
      ].join('\n'),
    );
    assert.deepEqual(sends(text, 'acme'), full);
    assert.deepEqual(sends(reportCellText(full), 'other-org'), full, 'with its org line, the org is kept');
  });

  it('every kind: node and reference-site reports, all datasources', () => {
    const requests: ReportRequest[] = [
      {
        report: 'node-measurements',
        org: 'o',
        outputFrequency: 'day',
        startTime: '2026-11-01',
        endTime: '2026-11-08',
        nodeIds: ['AJ9LVCTC'],
      },
      {
        report: 'reference-site-measurements',
        org: 'o',
        outputFrequency: 'minute',
        startTime: '2026-11-01T06:00:00Z',
        endTime: '2026-11-01T07:00:00Z',
        refSiteIds: ['RC28SJPB', 'RX1'],
      },
      {
        report: 'datasource-measurements',
        org: 'o',
        outputFrequency: 'hour',
        startTime: '2026-11-01',
        endTime: '2026-11-02',
        allDatasources: true,
      },
    ];
    for (const r of requests) assert.deepEqual(sends(reportCellText(r, { omitOrg: true }), 'o'), r);
  });

  it('refuses values a cell would read differently (hostile echoes): a line break, a comma or a space in an id', () => {
    const bad: ReportRequest[] = [
      { ...full, metricSelect: 'only pm1ConcMass1HourMean\nendTime: 2030-01-01' },
      { ...full, datasourceIds: ['A,B'] },
      { ...full, datasourceIds: ['A B'] },
      { ...full, datasourceIds: ['A', '# x'] },
    ];
    for (const r of bad) assert.throws(() => reportCellText(r), ReportCellError, JSON.stringify(r));
  });
});
