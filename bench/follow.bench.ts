// 5. Follow every minute over 200 datasources for an hour: one follow cell (allDatasources, minute,
//    csv-wide) through core/follow's followStep and the project's client, against the emulator, whose
//    clock is moved one minute per poll (an emulator hour in seconds). CPU per poll and heap growth
//    between the first and the last poll (target: flat, under 1 MB over the hour).
import { type BenchResult, bundledChild, median, runCommand } from './lib';
import { startEmulatorProcess } from './support/emulator-process';

const DATASOURCES = 200;
const POLLS = 60;

export async function followBench(_runs: number): Promise<BenchResult> {
  const emu = await startEmulatorProcess(['--control', '--datasources', String(DATASOURCES)]);
  try {
    const childJs = await bundledChild('bench/support/follow-child.ts');
    const r = await runCommand(process.execPath, ['--expose-gc', childJs, emu.baseUrl, emu.org, String(POLLS)], {
      env: { MEASUREMENTS_API_KEY: emu.apiKey },
    });
    const cpu = JSON.parse(/@@cpu_ms=(\[.*\])/.exec(r.stderr)?.[1] ?? '[]') as number[];
    const heap = JSON.parse(/@@heap_mb=(\[.*\])/.exec(r.stderr)?.[1] ?? '[]') as number[];
    const rows = Number(/@@rows=(\d+)/.exec(r.stderr)?.[1]);
    const growth = heap[heap.length - 1] - heap[0];
    const lateCpu = median(cpu.slice(-10));
    const earlyCpu = median(cpu.slice(0, 10));
    return {
      name: `follow 1m × ${DATASOURCES} datasources, 1 emulator hour`,
      target: 'CPU per poll flat; heap growth < 1 MB over the hour',
      baseline: '-',
      subject: `followStep × ${POLLS} polls (clock moved 1 min per poll)`,
      subjectMedianMs: median(cpu),
      figures: {
        polls: cpu.length,
        rows,
        cpuPerPollMedianMs: median(cpu),
        cpuFirst10MedianMs: earlyCpu,
        cpuLast10MedianMs: lateCpu,
        heapFirstPollMb: heap[0],
        heapLastPollMb: heap[heap.length - 1],
        heapGrowthMb: growth,
        rssEndMb: Number(/@@rss_mb=([\d.]+)/.exec(r.stderr)?.[1]),
      },
      pass: cpu.length === POLLS && growth < 1 && lateCpu <= 1.5 * earlyCpu + 5,
    };
  } finally {
    await emu.stop();
  }
}
