// How the Calendar, Trend and Profiles name the zone they count days, hours and months in.
import assert from 'node:assert/strict';
import { UTC, zoneOf } from '../../../../src/core/time/zone';
import { zoneText } from '../../../../src/renderer/model/view-zone';

describe('renderer: the views zone', () => {
  it('names an IANA zone as local time, and UTC as UTC', () => {
    assert.equal(zoneText(zoneOf('America/Denver')), 'local time (America/Denver)');
    assert.equal(zoneText(UTC), 'UTC');
  });
});
