// Child of the download benchmark: the project's client streams one report file URL to disk
// (gzip decoded), as `measnb report download` does.

import { keepWasmOnBaselineCompiler } from '../../src/cli/v8-tuning';
import { MeasurementsClient } from '../../src/core/client/client.node';
import { systemClock } from '../../src/core/time/clock';

// The process measnb runs downloads in: the CLI's V8 settings (see src/cli/v8-tuning.ts).
keepWasmOnBaselineCompiler();

async function main(): Promise<void> {
  const [url, dest] = process.argv.slice(2);
  // The client is configured with a key, as in real use; the file URL must be fetched without it.
  const client = new MeasurementsClient({
    clock: systemClock,
    baseUrl: 'http://127.0.0.1:1/',
    apiKey: 'bench-key',
    timeoutMs: 3_600_000,
  });
  const { bytes } = await client.downloadReportFile(url, dest);
  process.stderr.write(`@@bytes=${bytes}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
