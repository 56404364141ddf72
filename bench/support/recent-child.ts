// Child process of the recent-query benchmark: one recent query through the project's client,
// parsed into the columnar Table (what a notebook cell does). Prints rows to prove the work was done.
import { MeasurementsClient } from '../../src/core/api/client.node';
import { systemClock } from '../../src/core/time/clock';

async function main(): Promise<void> {
  const [baseUrl, body] = process.argv.slice(2);
  const client = new MeasurementsClient({
    clock: systemClock,
    baseUrl,
    apiKey: process.env.MEASUREMENTS_API_KEY,
    timeoutMs: 600_000,
  });
  const { table } = await client.recentQuery(JSON.parse(body));
  process.stderr.write(`@@rows=${table.rowCount}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
