// npm run bench [-- --runs N] [-- --only name,name] [-- --sql-mb 1000] [-- --stats-mb 100]: every benchmark, baseline and
// subject side by side.
import { archiveBench } from './archive.bench';
import { csvTableBench } from './csv-table.bench';
import { downloadBench } from './download.bench';
import { emulatorThroughputBench } from './emulator-throughput.bench';
import { extensionBench } from './extension.bench';
import { followBench } from './follow.bench';
import { hostRendererBench } from './host-renderer.bench';
import { type BenchResult, printTable, writeResults } from './lib';
import { pollLatencyBench } from './poll-latency.bench';
import { putTableBench } from './put-table.bench';
import { recentQueryBench } from './recent-query.bench';
import { rendererBench, rendererViewsBench } from './renderer.bench';
import { sqlBench } from './sql.bench';
import { statsBench, summaryBench } from './stats.bench';
import { tableFileBench } from './table-file.bench';

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
const sqlMb = args.includes('--sql-mb') ? Number(args[args.indexOf('--sql-mb') + 1]) : undefined;
const statsMb = args.includes('--stats-mb') ? Number(args[args.indexOf('--stats-mb') + 1]) : undefined;

const benches: Array<[string, (runs: number) => Promise<BenchResult | BenchResult[]>]> = [
  ['recent-query', recentQueryBench],
  ['download', downloadBench],
  ['csv-table', csvTableBench],
  ['emulator', emulatorThroughputBench],
  ['poll-latency', pollLatencyBench],
  ['follow', followBench],
  ['renderer', rendererBench],
  ['renderer-views', rendererViewsBench],
  ['extension', extensionBench],
  ['host-renderer', hostRendererBench],
  ['sql', (n) => sqlBench(n, sqlMb)],
  ['put-table', putTableBench],
  ['table-file', tableFileBench],
  ['stats', (n) => statsBench(n, statsMb)],
  ['summary-stats', (n) => summaryBench(n, statsMb)],
  ['archive', archiveBench],
];

async function main(): Promise<void> {
  const results: BenchResult[] = [];
  for (const [name, bench] of benches) {
    if (only && !only.includes(name)) continue;
    console.error(`running ${name} ...`);
    try {
      results.push(...[await bench(runs)].flat());
    } catch (e) {
      results.push({ name, target: '', baseline: '', subject: '', figures: {}, pass: false, note: String(e) });
      console.error(e);
    }
  }
  printTable(results);
  console.log(`results: ${writeResults(results)}`);
  process.exitCode = results.every((r) => r.pass) ? 0 : 1;
}
main();
