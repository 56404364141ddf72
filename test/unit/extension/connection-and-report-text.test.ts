// Pure helpers of the extension layer (no vscode import): URL checks of a connection, report texts.
import assert from 'node:assert/strict';
import { baseUrlProblem, insecureUrlWarning } from '../../../src/extension/connections/connection';
import { ageText, describeReport, expiryText } from '../../../src/extension/reports/tracked-report';

describe('extension: connection URLs', () => {
  it('warns about http to a host that is not local, and only then', () => {
    assert.match(String(insecureUrlWarning('http://api.example.com')), /not https/);
    assert.equal(insecureUrlWarning('https://api.example.com'), undefined);
    assert.equal(insecureUrlWarning('http://127.0.0.1:8080'), undefined);
    assert.equal(insecureUrlWarning('http://localhost:3000'), undefined);
    assert.equal(insecureUrlWarning('http://[::1]:3000'), undefined);
  });

  it('rejects what is not an http(s) URL, and credentials in the URL', () => {
    assert.match(String(baseUrlProblem('api.example.com')), /Not a URL/);
    assert.match(String(baseUrlProblem('ftp://api.example.com')), /https:\/\/ or http:\/\//);
    assert.match(String(baseUrlProblem('https://user:secret@api.example.com')), /credentials/);
    assert.equal(baseUrlProblem('https://api.example.com/prefix'), undefined);
  });
});

describe('extension: report texts', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it('describes a report by kind, time range and frequency from the query echo', () => {
    const d = describeReport({
      reportId: 'r1',
      reportStatus: 'succeeded',
      message: 'Ready',
      report: 'node-measurements',
      urls: [],
      query: { startTime: '2026-11-18T00:00:00Z', endTime: '2026-11-20T06:30:00Z', outputFrequency: 'hour' },
    });
    assert.deepEqual(d, { kind: 'node-measurements', range: '2026-11-18 → 2026-11-20T06:30Z', frequency: 'hour' });
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
});
