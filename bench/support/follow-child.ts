// Child process of the follow benchmark: one follow cell over every datasource of the org (the real
// path: core/follow followStep through the project's client), polled once per emulator minute for an
// emulator hour. The emulator's clock is moved 1 minute before each poll (no real waiting). Prints the
// CPU time of each poll and the heap after a full GC at the first and the last poll.
import { MeasurementsClient } from '../../src/core/client/client.node';
import { type FollowState, followStep } from '../../src/core/follow';
import { systemClock } from '../../src/core/time/clock';

const [baseUrl, org, pollsText] = process.argv.slice(2);
const polls = Number(pollsText);
const gc = (globalThis as { gc?: () => void }).gc;

async function clock(advance?: string): Promise<Date> {
  const res = await fetch(`${baseUrl}/_emulator/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance: advance ?? '0m' }),
  });
  return new Date(((await res.json()) as { now: string }).now);
}

function heapMb(): number {
  gc?.();
  return process.memoryUsage().heapUsed / 1e6;
}

async function main(): Promise<void> {
  const client = new MeasurementsClient({
    clock: systemClock,
    baseUrl,
    apiKey: process.env.MEASUREMENTS_API_KEY,
    timeoutMs: 120_000,
  });
  const now = await clock();
  const request = {
    org,
    allDatasources: true,
    outputFrequency: 'minute' as const,
    startTime: new Date(now.getTime() - 5 * 60_000).toISOString(),
    format: 'csv-wide' as const,
  };
  let state: FollowState | undefined;
  const cpu: number[] = [];
  const heap: number[] = [];
  let rows = 0;
  for (let i = 0; i <= polls; i++) {
    const at = i === 0 ? now : await clock('1m');
    const before = process.cpuUsage();
    const step = await followStep({ client, request, state, now: at });
    const used = process.cpuUsage(before);
    state = step.state;
    rows += step.table.rowCount;
    if (i > 0) cpu.push((used.user + used.system) / 1000); // the first is the start query, not a poll
    if (i === 1 || i === polls) heap.push(heapMb());
  }
  process.stderr.write(`@@cpu_ms=${JSON.stringify(cpu)}\n@@heap_mb=${JSON.stringify(heap)}\n@@rows=${rows}\n`);
  process.stderr.write(`@@rss_mb=${process.memoryUsage().rss / 1e6}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
