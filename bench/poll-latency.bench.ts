// 4. Time from a report becoming ready in the emulator to its files on disk, with the project's
//    polling schedule (target ≤ 5 s) vs the vendor script's pattern (a blind 60 s sleep per poll).
//    Several report durations, because a schedule that backs off can miss a report that ends late.

import { type BenchResult, bundledChild, median, runCommand } from './lib';
import { startEmulatorProcess } from './support/emulator-process';

const DELAYS_S = [4, 15, 45, 100];

export async function pollLatencyBench(runs: number, withVendor = true): Promise<BenchResult> {
  const figures: Record<string, number> = {};
  const worst: number[] = [];
  for (const delayS of DELAYS_S) {
    const emu = await startEmulatorProcess(['--report-delay', `${delayS}s`]);
    const ds = await (
      await fetch(`${emu.baseUrl}/v2/datasources?org=${emu.org}`, { headers: { 'x-api-key': emu.apiKey } })
    ).json();
    const id = (ds as { datasources: { datasourceId: string }[] }).datasources[0].datasourceId;
    const child = (mode: string) => async () => {
      const r = await runCommand(
        process.execPath,
        [await bundledChild('bench/support/poll-child.ts'), mode, emu.baseUrl, emu.org, id, String(delayS * 1000)],
        { env: { MEASUREMENTS_API_KEY: emu.apiKey } },
      );
      return Number(/@@latency_ms=(-?\d+)/.exec(r.stderr)?.[1]);
    };
    try {
      const samples: number[] = [];
      // Runs in parallel would share the emulator's quota and CPU; sequential keeps them honest.
      for (let i = 0; i < Math.max(1, Math.min(runs, 2)); i++) samples.push(await child('project')());
      figures[`project_${delayS}s_ms`] = median(samples);
      worst.push(Math.max(...samples));
      if (withVendor && delayS === DELAYS_S[0]) figures[`vendor_${delayS}s_ms`] = await child('vendor')();
    } finally {
      await emu.stop();
    }
  }
  const subject = Math.max(...worst);
  const vendor = figures[`vendor_${DELAYS_S[0]}s_ms`];
  return {
    name: 'report ready → files on disk',
    target: '≤ 5 s (vendor: up to 60 s)',
    baseline: 'vendor pattern: sleep 60 s, poll (one run)',
    subject: `project schedule, worst over reports of ${DELAYS_S.join('/')} s`,
    baselineMedianMs: vendor,
    subjectMedianMs: subject,
    ratio: vendor ? subject / vendor : undefined,
    figures,
    pass: subject <= 5000,
  };
}
