// Child of the poll-latency benchmark: creates a report on the emulator, then either follows the
// project's schedule (waitForReport) or the vendor script's pattern (sleep 60 s, poll, up to 12 times),
// downloads the files, and prints when they were on disk relative to when the report became ready.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { waitForReport } from '../../src/core/reports';
import { downloadReportFiles } from '../../src/core/reports/download.node';
import { systemClock } from '../../src/core/time/clock';

async function main(): Promise<void> {
  const [mode, baseUrl, org, datasourceId, delayMsText] = process.argv.slice(2);
  const delayMs = Number(delayMsText);
  const client = new MeasurementsClient({ clock: systemClock, baseUrl, apiKey: process.env.MEASUREMENTS_API_KEY });
  const end = new Date(Math.floor(Date.now() / 3600_000) * 3600_000);
  const created = await client.createReport({
    org,
    report: 'datasource-measurements',
    datasourceIds: [datasourceId],
    outputFrequency: 'hour',
    startTime: new Date(end.getTime() - 24 * 3600_000).toISOString(),
    endTime: end.toISOString(),
  });
  const readyAt = Date.now() + delayMs; // the emulator flips the status after reportDelayMs (upper bound of readiness)
  let record = created;
  if (mode === 'vendor') {
    for (let i = 0; i < 12 && record.reportStatus === 'in-progress'; i++) {
      await new Promise((r) => setTimeout(r, 60_000));
      record = await client.getReport(created.reportId);
    }
  } else {
    record = await waitForReport(client, created.reportId, { initial: created, clock: systemClock });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measnb-poll-'));
  await downloadReportFiles(client, record, dir);
  const latency = Date.now() - readyAt;
  fs.rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`@@latency_ms=${latency}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
