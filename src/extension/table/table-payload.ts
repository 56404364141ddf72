// A Table as plain JSON for a webview message (typed arrays become number arrays; the page rebuilds them).
import type { Table } from '../../core/table/table';

export type TablePayload = {
  rowCount: number;
  columns: Array<Record<string, unknown> & { name: string; kind: string }>;
};

export function tableToPayload(table: Table): TablePayload {
  return {
    rowCount: table.rowCount,
    columns: table.columns.map((c) => {
      if (c.kind === 'number' || c.kind === 'time') {
        // NaN is not JSON: empty cells travel as null.
        return { ...c, values: Array.from(c.values, (v) => (Number.isNaN(v) ? null : v)) };
      }
      return { ...c, codes: Array.from((c as { codes: Int32Array }).codes) };
    }),
  };
}
