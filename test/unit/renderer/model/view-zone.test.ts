// The zone the Calendar, Trend and Profiles count days, hours and months in: UTC for the table's UTC mode, a Zone
// given by the panel context as it is, and the browser's IANA zone for 'local' (the process's TZ here).
import assert from 'node:assert/strict';
import { UTC, zoneOf } from '../../../../src/core/time/zone';
import { viewZone, zoneText } from '../../../../src/renderer/model/view-zone';
import { withTimeZone } from '../../../support/time-zone';

describe('renderer: the views zone', () => {
  it("'utc' is UTC; a Zone stays that zone; 'local' is the runtime's IANA zone, named in the note", () => {
    assert.equal(viewZone('utc'), UTC);
    const denver = zoneOf('America/Denver');
    assert.equal(viewZone(denver), denver);
    withTimeZone('America/Denver', () => {
      const local = viewZone('local');
      assert.equal(local.name, 'America/Denver');
      assert.equal(zoneText(local), 'local time (America/Denver)');
    });
    assert.equal(zoneText(UTC), 'UTC');
  });
});
