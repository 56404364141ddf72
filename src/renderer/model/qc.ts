// Status and QC readability: which cells are marked, and the tone of a status value.
import { type Column, isNumeric, type Table } from '../../core/table/table';

type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

const READY_STATUSES = new Set(['sensor-ready', 'calibrated-ready']);
const WARN_STATUSES = new Set([
  'calibration-missing',
  'calibration-processing',
  'calibrated-reprocessing',
  'calibration-unknown',
]);

/** A metric status value's tone; values the service may add later stay neutral. */
export function statusTone(status: string): Tone {
  if (READY_STATUSES.has(status)) return 'ok';
  if (WARN_STATUSES.has(status)) return 'warn';
  return 'neutral';
}

export function qcAssessmentTone(value: string): Tone {
  if (value === 'invalid') return 'bad';
  if (value === 'valid') return 'ok';
  return 'neutral';
}

/** A flag of severity I (`QC.I.<group>.<n>`) makes a value invalid. */
export function hasInvalidFlag(flags: readonly string[]): boolean {
  return flags.some((f) => /^QC\.I\./i.test(f));
}

/** The metric label a `<label>.<field>` column belongs to, or undefined for a plain column. */
function metricStem(column: Column): string | undefined {
  if (!column.metric?.field) return undefined;
  const dot = column.name.lastIndexOf('.');
  return dot > 0 ? column.name.slice(0, dot) : undefined;
}

/**
 * For each column, the index of the qcAssessment column of the same metric (or -1), so that a value
 * whose assessment is `invalid` can be marked in its own cell too. Also maps a numeric column to the
 * metric's qcFlags column when there is no qcAssessment column.
 */
export function qcSiblings(table: Table): { assessment: Int32Array; flags: Int32Array } {
  const n = table.columns.length;
  const assessment = new Int32Array(n).fill(-1);
  const flags = new Int32Array(n).fill(-1);
  const byStem = new Map<string, { assessment?: number; flags?: number }>();
  table.columns.forEach((c, i) => {
    const stem = metricStem(c);
    if (!stem) return;
    const entry = byStem.get(stem) ?? {};
    if (c.kind === 'qcAssessment' || c.metric?.field === 'qcAssessment') entry.assessment = i;
    if (c.kind === 'qcFlags' || c.metric?.field === 'qcFlags') entry.flags = i;
    byStem.set(stem, entry);
  });
  table.columns.forEach((c, i) => {
    const stem = metricStem(c);
    if (!stem || !isNumeric(c)) return;
    const entry = byStem.get(stem);
    if (entry?.assessment !== undefined) assessment[i] = entry.assessment;
    if (entry?.flags !== undefined) flags[i] = entry.flags;
  });
  return { assessment, flags };
}

/**
 * The one decision of QC-invalid values: for one column, a per-row test. A value is invalid when its own
 * column (qcAssessment `invalid`, qcFlags with a severity-I flag) or its metric's qcAssessment column (else
 * its qcFlags column) says so. Decided once per distinct assessment or flag list, then looked up by
 * dictionary code, so passes over every row stay fast. Undefined when the column has no QC.
 */
export function qcInvalidTest(
  table: Table,
  siblings: { assessment: Int32Array; flags: Int32Array },
  col: number,
): ((row: number) => boolean) | undefined {
  const column = table.columns[col];
  if (!column) return undefined;
  const own = column.kind === 'qcAssessment' || column.kind === 'qcFlags';
  const a = siblings.assessment[col] ?? -1;
  const f = siblings.flags[col] ?? -1;
  const source = own ? column : a >= 0 ? table.columns[a] : f >= 0 ? table.columns[f] : undefined;
  if (!source || isNumeric(source)) return undefined;
  const flags = own ? column.kind === 'qcFlags' : a < 0;
  const dict: ReadonlyArray<string | string[]> = source.dict;
  const bad = Uint8Array.from(dict, (d) => ((flags ? hasInvalidFlag(d as string[]) : d === 'invalid') ? 1 : 0));
  const codes = source.codes;
  return (row) => {
    const c = codes[row];
    return c >= 0 && bad[c] === 1;
  };
}

/**
 * qcInvalidTest for any column of a table, each column's test built on first use and kept (the table
 * widget asks per drawn cell). `(col, row) => boolean`.
 */
export function qcInvalidLookup(table: Table): (col: number, row: number) => boolean {
  const siblings = qcSiblings(table);
  const tests = new Map<number, ((row: number) => boolean) | undefined>();
  return (col, row) => {
    let test = tests.get(col);
    if (test === undefined && !tests.has(col)) {
      test = qcInvalidTest(table, siblings, col);
      tests.set(col, test);
    }
    return test?.(row) === true;
  };
}
