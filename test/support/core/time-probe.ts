// Run as a child process under a given TZ (see time.test.ts): reads a JSON list of texts on stdin and
// prints, for each, what every entry point that takes a time makes of it (epoch ms, or null).
import { validateReportRequest } from '../../../src/core/api/validate';
import { parseTime } from '../../../src/core/query/time';
import { TimeBuilder } from '../../../src/core/table/builders';
import type { Column } from '../../../src/core/table/table';
import { Fields } from '../../../src/emulator/request-fields';
import { parseOperand } from '../../../src/renderer/model/filter';

export type ProbeRow = [
  query: number | null,
  validate: boolean,
  emulator: number | null,
  table: number | null,
  filter: number | null,
];

const timeColumn: Column = { name: 't', kind: 'time', values: new Float64Array(0) };

export function probe(text: string): ProbeRow {
  const q = parseTime(text);
  const query = 'value' in q && q.value.kind === 'absolute' ? q.value.ms : null;
  const request = { report: 'node-measurements', nodeIds: ['N'], org: 'o', outputFrequency: 'hour' };
  const issues = validateReportRequest({ ...request, startTime: text, endTime: '9999-12-31' });
  const validate = !issues.some((i) => i.field === 'startTime');
  let emulator: number | null;
  try {
    emulator = new Fields({ t: text }).time('t', true) ?? null;
  } catch {
    emulator = null;
  }
  const builder = new TimeBuilder();
  const table = builder.push(text) ? builder.finish({ name: 't' }).values[0] : null;
  const filter = parseOperand(text, timeColumn) ?? null;
  return [query, validate, emulator, table, filter];
}

if (process.argv[1]?.endsWith('time-probe.ts')) {
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    input += chunk;
  });
  process.stdin.on('end', () => {
    const texts: string[] = JSON.parse(input);
    process.stdout.write(
      JSON.stringify({ januaryOffset: new Date(2026, 0, 1).getTimezoneOffset(), rows: texts.map(probe) }),
    );
  });
}
