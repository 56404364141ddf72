// 3. csv-wide file -> Table with the project's reader vs DuckDB's read_csv on one thread (SET threads = 1)
//    into an in-memory table, same file (target ≤ 1.0×), and the Table's peak memory per million rows ×
//    20 columns. Both times are the read alone, in a fresh process each.
import fs from 'node:fs';
import path from 'node:path';
import { type BenchResult, bundledChild, median, NODE_RSS, runCommand, sideBySide } from './lib';

const ROWS = 1_000_000;
const METRICS = 17; // + datasourceId, time, status = 20 columns

/** A csv-wide file of `rows` rows × 20 columns (~146 bytes a row), written once (kept when it exists). */
export function makeCsv(file: string, rows = ROWS): void {
  if (fs.existsSync(file)) return;
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  const metricNames = Array.from({ length: METRICS }, (_, i) => `pm2_5ConcMass1HourMean.value${i ? `_${i}` : ''}`);
  fs.writeSync(fd, `datasourceId,time,pm2_5ConcMass1HourMean.status,${metricNames.join(',')}\n`);
  const t0 = Date.UTC(2026, 10, 1);
  let chunk = '';
  for (let r = 0; r < rows; r++) {
    const vals = new Array(METRICS);
    for (let m = 0; m < METRICS; m++) vals[m] = (((r * 31 + m * 17) % 5000) / 100).toFixed(2);
    chunk += `D${(r % 500).toString().padStart(7, '0')},${new Date(t0 + r * 60_000).toISOString()},${r % 7 ? 'sensor-ready' : 'calibrated-ready'},${vals.join(',')}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(fd, chunk);
      chunk = '';
    }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
}

export async function csvTableBench(runs: number): Promise<BenchResult> {
  const dir = path.resolve('.artifacts/bench/data');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `csv-wide-${ROWS}x20.csv`);
  makeCsv(file);
  // Bundled: no transpiler in the measured processes (their peak RSS is the parser's own).
  const childJs = await bundledChild('bench/support/parse-child.ts');
  const child = (mode: string) => async () => {
    const r = await runCommand(process.execPath, [...NODE_RSS, childJs, mode, file]);
    const rows = Number(/@@rows=(\d+)/.exec(r.stderr)?.[1]);
    if (rows !== ROWS) throw new Error(`${mode} parsed ${rows} rows, expected ${ROWS}`);
    return { ms: Number(/@@parse_ms=([\d.]+)/.exec(r.stderr)?.[1]), maxRssMb: r.maxRssMb };
  };
  const s = await sideBySide(runs, child('baseline'), child('subject'));
  const b = median(s.baseline.map((x) => x.ms));
  const p = median(s.subject.map((x) => x.ms));
  const ratio = p / b;
  return {
    name: 'csv-wide → Table',
    target: '≤ 1.0× DuckDB read_csv (1 thread)',
    baseline: 'DuckDB read_csv → in-memory table, SET threads = 1',
    subject: 'parseCsvWide (columnar Table)',
    baselineMedianMs: b,
    subjectMedianMs: p,
    ratio,
    figures: {
      fileMb: fs.statSync(file).size / 1e6,
      subjectPeakRssMbPerMillionRows: median(s.subject.map((x) => x.maxRssMb ?? Number.NaN)),
      duckdbPeakRssMb: median(s.baseline.map((x) => x.maxRssMb ?? Number.NaN)),
    },
    pass: ratio <= 1.0,
  };
}
