// The emulator's air-quality roles, read through the renderer's own model: a sensor collocated with a
// reference site (same place, PM = 1.3 × reference + 2) and a smoky datasource with exceedances.
import assert from 'node:assert/strict';
import { MeasurementsClient } from '../../../src/core/client/client.node';
import { runCell } from '../../../src/core/run/index.node';
import { systemClock } from '../../../src/core/time/clock';
import { type RunningEmulator, startEmulator } from '../../../src/emulator';
import { COLLOCATED_BIAS, WORLD_ROLES } from '../../../src/emulator/world';
import {
  collocation,
  datasourceLocations,
  exceedanceRows,
  mapPoints,
  nearestReference,
  referenceDatasources,
} from '../../../src/renderer/model/aq-views';
import { identityRows } from '../../../src/renderer/model/sort';

describe('emulator air-quality roles', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator({ seed: 1, clock: '2026-11-20T12:00:30Z' });
  });
  after(() => emu.close());

  it('the collocated sensor sits at its reference site and reads 1.3 × reference + 2 (OLS on the hourly means)', async () => {
    const ids = emu.facts.datasources.map((d) => d.datasourceId);
    const sensor = ids[WORLD_ROLES.collocatedSensor];
    const reference = ids[WORLD_ROLES.collocatedReference];
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const cell = `recent\ndatasourceIds: ${sensor}, ${reference}\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMass1HourMean\nstartTime: -2d\nformat: csv-wide`;
    const { table } = await runCell(cell, { client, org: emu.org, now: new Date(emu.clock.now()) });
    const rows = identityRows(table.rowCount);
    assert.deepEqual([...referenceDatasources(table, rows)], [reference]);
    const metric = table.columns.findIndex((c) => c.name.startsWith('pm2_5ConcMass1HourMean'));
    const c = collocation(table, rows, metric, sensor, reference)!.hour;
    assert.ok(c.fit.n >= 40, `paired hours: ${c.fit.n}`);
    assert.ok(Math.abs(c.fit.slope - COLLOCATED_BIAS.slope) < 0.05, `slope ${c.fit.slope}`);
    assert.ok(Math.abs(c.fit.intercept - COLLOCATED_BIAS.intercept) < 1, `intercept ${c.fit.intercept}`);
    assert.ok(c.fit.r2 > 0.95, `R² ${c.fit.r2}`);
    // Pairing by place picks that reference site by itself (the nearest within 1 km, haversine).
    const near = nearestReference(datasourceLocations(table, rows), sensor, referenceDatasources(table, rows));
    assert.equal(near?.reference, reference);
    assert.ok(near!.km < 1e-6, `${near!.km} km`);
    const points = mapPoints(table, rows, metric);
    const [a, b] = [sensor, reference].map((id) => points.find((p) => p.group === id)!.track.at(-1)!);
    assert.deepEqual([a.lat, a.lon], [b.lat, b.lon]);
  });

  it('the smoky datasource exceeds the PM2.5 NowCast USG breakpoint in its episodes; its neighbour does not', async () => {
    const ids = emu.facts.datasources.map((d) => d.datasourceId);
    const smoky = ids[WORLD_ROLES.smoky];
    const calm = ids[0];
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const cell = `recent\ndatasourceIds: ${smoky}, ${calm}\noutputFrequency: hour\nmetricSelect: only pm2_5ConcMassNowcast\nstartTime: -2d`;
    const { table } = await runCell(cell, { client, org: emu.org, now: new Date(emu.clock.now()) });
    const metric = table.columns.findIndex((c) => c.name.startsWith('pm2_5ConcMassNowcast'));
    const rows = exceedanceRows(table, identityRows(table.rowCount), metric, 35.4);
    const bySource = Object.fromEntries(rows.map((r) => [r.group, r]));
    assert.ok(bySource[smoky].periods >= 8, `smoky hours above: ${bySource[smoky].periods}`);
    assert.ok(bySource[smoky].longestRun >= 8, `longest run: ${bySource[smoky].longestRun}`);
    assert.equal(bySource[calm].periods, 0);
  });
});
