// Child process of the recent-query benchmark: one recent query through the project's client,
// parsed into the columnar Table (what a notebook cell does). Prints rows to prove the work was done.
import { MeasurementsClient } from '../../src/core/client/client.node';
import { systemClock } from '../../src/core/time/clock';

async function main(): Promise<void> {
  const [baseUrl, body] = process.argv.slice(2);
  const t0 = performance.now();
  const client = new MeasurementsClient({
    clock: systemClock,
    baseUrl,
    apiKey: process.env.MEASUREMENTS_API_KEY,
    timeoutMs: 600_000,
  });
  const { table } = await client.recentQuery(JSON.parse(body));
  // From the request to the Table inside the running process: what a notebook cell waits for in the
  // extension host, where node has started long before (the whole process's time is the benchmark's).
  process.stderr.write(`@@rows=${table.rowCount}\n@@query_ms=${performance.now() - t0}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
