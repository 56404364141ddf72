import assert from 'node:assert/strict';
import { parseRetryAfter } from '../../../../src/core/time/backoff';
import { parseHttpDate } from '../../../../src/core/time/http-date';
import { withTimeZone } from '../../../support/time-zone';

describe('core time: HTTP dates (Retry-After)', () => {
  const t = Date.UTC(1994, 10, 6, 8, 49, 37);

  it('reads the three forms of RFC 9110: IMF-fixdate, rfc850-date and asctime, all GMT', () => {
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), t);
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), t);
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), t);
    assert.equal(parseHttpDate('Sat, 21 Nov 2026 00:00:00 GMT'), Date.UTC(2026, 10, 21));
  });

  it('reads an rfc850 two-digit year as at most 50 years ahead of now', () => {
    const now = Date.UTC(2026, 0, 1);
    assert.equal(parseHttpDate('Monday, 01-Jan-74 00:00:00 GMT', now), Date.UTC(2074, 0, 1));
    assert.equal(parseHttpDate('Sunday, 01-Jan-78 00:00:00 GMT', now), Date.UTC(1978, 0, 1));
  });

  it('rejects what is not an HTTP date: ISO text, other zones, impossible days and times', () => {
    for (const text of [
      '2026-11-21T00:00:00Z',
      'Sun, 06 Nov 1994 08:49:37 PST',
      'Sun, 31 Feb 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 24:00:00 GMT',
      'Sun, 06 Foo 1994 08:49:37 GMT',
      '',
      'tomorrow',
    ]) {
      assert.equal(parseHttpDate(text), undefined, text);
    }
  });

  it('is the same instant in every time zone of the machine', () => {
    withTimeZone('Asia/Kolkata', () => {
      assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), t);
      assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), t, 'asctime has no zone: GMT, never local');
    });
  });

  it('gives Retry-After in seconds from delta-seconds or an HTTP date; undefined when unreadable', () => {
    const now = Date.UTC(2026, 10, 20, 23, 59, 0);
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 00:00:00 GMT', now), 60);
    assert.equal(parseRetryAfter('Fri, 20 Nov 2026 23:00:00 GMT', now), 0, 'a past date: now');
    assert.equal(parseRetryAfter('2026-11-21T00:00:00', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
    withTimeZone('Asia/Kolkata', () => {
      assert.equal(parseRetryAfter('Sat Nov 21 00:00:00 2026', now), 60);
    });
  });
});
