// A real result for the air-quality views: an hourly recent query (PM2.5 NowCast and its AQI, NO2, QC)
// over the emulator's demo org, in the renderer's wire format, plus what the model computes from it
// (the page's Summary and Collocation must show these numbers).
import { MeasurementsClient } from '../../../src/core/client/client.node';
import { runCell } from '../../../src/core/run/index.node';
import { cellText, isNumeric, numberAt } from '../../../src/core/table/table';
import { encodeTable } from '../../../src/core/table/wire';
import { systemClock } from '../../../src/core/time/clock';
import { startEmulator, WORLD_ROLES } from '../../../src/emulator';
import { collocation, referenceDatasources, summaryTable } from '../../../src/renderer/model/aq-views';
import { identityRows } from '../../../src/renderer/model/sort';

export const AQ_CELL = `recent
allDatasources: true
outputFrequency: hour
metricSelect: only pm2_5ConcMassNowcast* + no2Conc1HourMean* + pm2_5ConcMass24HourRollingMean
startTime: -2d
qcAssessment: true
qcFlags: true
format: csv-wide`;

export async function encodeEmulatorResult() {
  const emu = await startEmulator({ seed: 1, clock: '2026-11-20T12:00:30Z' });
  try {
    const client = new MeasurementsClient({ clock: systemClock, baseUrl: emu.url, apiKey: emu.apiKey, retry: false });
    const r = await runCell(AQ_CELL, { client, org: emu.org, now: new Date(emu.clock.now()) });
    const table = r.table;
    const rows = identityRows(table.rowCount);
    const summary = summaryTable(table, rows);
    const summaryRows = Array.from({ length: summary.rowCount }, (_, i) =>
      Object.fromEntries(summary.columns.map((c) => [c.name, isNumeric(c) ? numberAt(c, i) : cellText(c, i)])),
    );
    const metricCol = table.columns.findIndex((c) => c.name === 'pm2_5ConcMassNowcast.value');
    const refs = [...referenceDatasources(table, rows)].sort();
    const colloc = emu.facts.datasources.map((d) => d.datasourceId);
    return {
      bytes: encodeTable(table),
      rowCount: table.rowCount,
      summaryRows,
      metric: 'pm2_5ConcMassNowcast.value',
      references: refs,
      datasources: colloc,
      /** The emulator's collocated pair: a sensor at a reference site. */
      pair: { sensor: colloc[WORLD_ROLES.collocatedSensor], reference: colloc[WORLD_ROLES.collocatedReference] },
      collocation: (sensor: string, reference: string) => {
        const c = collocation(table, rows, metricCol, sensor, reference);
        return c && { ...c.hour.fit, targets: c.targets.hour };
      },
    };
  } finally {
    await emu.close();
  }
}
