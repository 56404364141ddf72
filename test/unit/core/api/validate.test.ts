import assert from 'node:assert/strict';
import { describeIssues, validateRecentQuery, validateReportRequest } from '../../../../src/core/api/validate';

const fields = (issues: { field: string }[]) => issues.map((i) => i.field).sort();

const base = { org: 'acme', outputFrequency: 'hour', startTime: '2026-11-01', endTime: '2026-11-02T00:00:00Z' };

describe('request validation', () => {
  it('accepts a valid request of every report kind', () => {
    assert.deepEqual(validateReportRequest({ ...base, report: 'datasource-measurements', datasourceIds: ['D1'] }), []);
    assert.deepEqual(validateReportRequest({ ...base, report: 'datasource-measurements', allDatasources: true }), []);
    assert.deepEqual(validateReportRequest({ ...base, report: 'node-measurements', nodeIds: ['N1'] }), []);
    assert.deepEqual(
      validateReportRequest({
        ...base,
        report: 'reference-site-measurements',
        refSiteIds: ['S1'],
        metricLabelStyle: 'english',
        fileFormat: 'parquet-wide',
        metricSelect: 'only pm2_5ConcMassNowcast',
        qcAssessment: true,
        qcFlags: false,
        dataVersion: 'v2026-11-10',
      }),
      [],
    );
  });

  it('requires the fields of each kind', () => {
    assert.deepEqual(fields(validateReportRequest({})), ['endTime', 'org', 'outputFrequency', 'report', 'startTime']);
    assert.deepEqual(fields(validateReportRequest({ ...base, report: 'node-measurements' })), ['nodeIds']);
    assert.deepEqual(fields(validateReportRequest({ ...base, report: 'reference-site-measurements' })), ['refSiteIds']);
    const ds = validateReportRequest({ ...base, report: 'datasource-measurements', allDatasources: false });
    assert.deepEqual(fields(ds), ['datasourceIds']);
    assert.match(ds[0].message, /unless allDatasources/);
    assert.deepEqual(fields(validateReportRequest({ ...base, report: 'datasource-measurements', datasourceIds: [] })), [
      'datasourceIds',
    ]);
  });

  it('rejects fields of another kind and unknown fields', () => {
    const issues = validateReportRequest({
      ...base,
      report: 'node-measurements',
      nodeIds: ['N'],
      datasourceIds: ['D'],
    });
    assert.deepEqual(fields(issues), ['datasourceIds']);
    assert.deepEqual(fields(validateRecentQuery({ org: 'acme', allDatasources: true, bogus: 1 })), ['bogus']);
  });

  it('checks enums and names the allowed values', () => {
    const issues = validateReportRequest({
      ...base,
      report: 'node-measurements',
      nodeIds: ['N'],
      outputFrequency: 'weekly',
      fileFormat: 'xlsx',
      metricLabelStyle: 'fancy',
      dataVersion: 'v3',
    });
    assert.deepEqual(fields(issues), ['dataVersion', 'fileFormat', 'metricLabelStyle', 'outputFrequency']);
    const freq = issues.find((i) => i.field === 'outputFrequency')!;
    assert.deepEqual(freq.allowed, ['minute', 'hour', 'day']);
    assert.match(freq.message, /minute, hour, day/);
    assert.deepEqual(fields(validateReportRequest({ ...base, report: 'weekly-digest' })), ['report']);
  });

  it('requires startTime before endTime', () => {
    const same = validateReportRequest({ ...base, report: 'node-measurements', nodeIds: ['N'], endTime: '2026-11-01' });
    assert.deepEqual(fields(same), ['endTime']);
    assert.match(describeIssues(same), /startTime .* must be before endTime/);
    const offsets = { startTime: '2026-11-01T10:00:00+02:00', endTime: '2026-11-01T08:30:00Z' };
    assert.deepEqual(validateReportRequest({ ...base, ...offsets, report: 'node-measurements', nodeIds: ['N'] }), []);
  });

  it('accepts ISO dates and timestamps and rejects anything else', () => {
    assert.deepEqual(
      fields(validateReportRequest({ ...base, startTime: 'last week', report: 'node-measurements', nodeIds: ['N'] })),
      ['startTime'],
    );
  });

  it('checks recent query fields: datasourceIds unless allDatasources, integer locationRounding, formats', () => {
    assert.deepEqual(
      validateRecentQuery({ org: 'acme', datasourceIds: ['D1'], locationRounding: 3, format: 'csv-wide' }),
      [],
    );
    assert.deepEqual(fields(validateRecentQuery({ org: 'acme' })), ['datasourceIds']);
    assert.deepEqual(fields(validateRecentQuery({ allDatasources: true })), ['org']);
    assert.deepEqual(
      fields(validateRecentQuery({ org: 'acme', allDatasources: 'yes', locationRounding: 1.5, format: 'csv' })),
      ['allDatasources', 'datasourceIds', 'format', 'locationRounding'],
    );
    assert.deepEqual(fields(validateRecentQuery({ org: 'acme', allDatasources: true, startTime: 'soon' })), [
      'startTime',
    ]);
  });
});
