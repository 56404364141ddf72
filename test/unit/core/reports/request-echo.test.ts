import assert from 'node:assert/strict';
import type { ReportRecord, ReportRequest } from '../../../../src/core/api/types';
import { MeasurementsClient } from '../../../../src/core/client/client.node';
import { reportRequestFromRecord } from '../../../../src/core/reports/request-echo';
import { systemClock } from '../../../../src/core/time/clock';
import { ManualClock, type RunningEmulator, startEmulator } from '../../../../src/emulator';

describe("a report's request from its record's query echo", () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator({ seed: 2, clock: new ManualClock(Date.parse('2026-11-20T12:00:00Z')) });
  });
  after(() => emu.close());

  it("the emulator's echo gives back the request sent (defaults it filled in left out)", async () => {
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const sent: ReportRequest = {
      report: 'datasource-measurements',
      org: emu.org,
      outputFrequency: 'day',
      startTime: '2026-11-10',
      endTime: '2026-11-12T00:00:00Z',
      datasourceIds: emu.facts.datasources.slice(0, 2).map((d) => d.datasourceId),
      metricLabelStyle: 'english',
      qcFlags: true,
    };
    const record = await client.createReport(sent);
    assert.deepEqual(reportRequestFromRecord(record, 'unused'), { request: sent });
  });

  it("the contract's echo names, the connection's org when none is echoed; a bad echo is refused with why", () => {
    const record = (query: Record<string, unknown>, report = 'datasource-measurements'): ReportRecord => ({
      reportId: 'R1',
      reportStatus: 'failed',
      message: '',
      report,
      urls: [],
      query,
    });
    const echo = {
      datasourceIds: ['D1'],
      startTime: '2026-11-01T00:00:00Z',
      endTime: '2026-11-02T00:00:00Z',
      outputFrequency: 'hour',
      columnLabelStyle: 'english',
      fileFormat: 'csv',
    };
    assert.deepEqual(reportRequestFromRecord(record(echo), 'acme'), {
      request: {
        report: 'datasource-measurements',
        org: 'acme',
        datasourceIds: ['D1'],
        startTime: '2026-11-01T00:00:00Z',
        endTime: '2026-11-02T00:00:00Z',
        outputFrequency: 'hour',
        metricLabelStyle: 'english',
        fileFormat: 'csv',
      },
    });
    const noTimes = reportRequestFromRecord(record({ datasourceIds: ['D1'], outputFrequency: 'hour' }), 'acme');
    assert.match('error' in noTimes ? noTimes.error : '', /startTime is required/);
    const unknown = reportRequestFromRecord(record(echo, 'weather-report'), 'acme');
    assert.match('error' in unknown ? unknown.error : '', /report kind "weather-report" is unknown/);
  });
});
