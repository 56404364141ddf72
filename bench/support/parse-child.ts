// Child process of the csv->Table benchmark: parses one file either with a bare csv-parse loop
// (baseline) or with the project's parseCsvWide (subject), and prints its own parse time.
import fs from 'node:fs';
import { parse } from 'csv-parse';
import { parseCsvWide } from '../../src/core/table/csv-read.node';

const [mode, file] = process.argv.slice(2);

async function bare(): Promise<number> {
  let rows = 0;
  const parser = fs.createReadStream(file).pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }));
  for await (const _record of parser) rows++;
  return rows - 1;
}

async function subject(): Promise<number> {
  const table = await parseCsvWide(fs.createReadStream(file));
  return table.rowCount;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const rows = await (mode === 'baseline' ? bare() : subject());
  const ms = performance.now() - t0;
  process.stderr.write(`@@parse_ms=${ms}\n@@rows=${rows}\n`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
