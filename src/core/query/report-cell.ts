// A report request written back as a `report` cell ("Open as Notebook Cell" in the Reports view): one
// `key: value` line per field, in the documented order. The text is checked by parsing it again: a
// request whose values a cell cannot hold as they are (a line break, a comma inside an id, a comment
// sign) is refused rather than written as a cell that would send something else.

import { ReportCellError } from '../api/errors';
import type { ReportRequest } from '../api/types';
import { REPORT_FIELDS } from '../api/validate';
import { parseCell } from './parse';
import { buildRequest } from './resolve';

export interface ReportCellOptions {
  /** A `#` comment line above the verb line (line breaks become spaces). */
  comment?: string;
  /** Leave the `org:` line out (the notebook's connection gives the org). */
  omitOrg?: boolean;
}

/** Same fields with the same values (a request is flat: texts, booleans, lists of texts). */
function sameRequest(a: ReportRequest, b: ReportRequest): boolean {
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);
  const kx = keys(x);
  return kx.length === keys(y).length && kx.every((k) => JSON.stringify(x[k]) === JSON.stringify(y[k]));
}

function valueText(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}

/** The cell's text; throws ReportCellError when the cell would not send this very request. */
export function reportCellText(request: ReportRequest, options: ReportCellOptions = {}): string {
  const lines: string[] = [];
  if (options.comment) lines.push(`# ${options.comment.replace(/[\r\n\u2028\u2029]+/g, ' ')}`);
  lines.push(`report ${request.report}`);
  const fields = request as unknown as Record<string, unknown>;
  const specs = REPORT_FIELDS[request.report] ?? [];
  // As cells are usually written: org, what the report covers, then the rest in the documented order.
  const covers = (name: string) => name === 'allDatasources' || name.endsWith('Ids');
  const ordered = [
    ...specs.filter((f) => f.name === 'org'),
    ...specs.filter((f) => covers(f.name)),
    ...specs.filter((f) => f.name !== 'org' && !covers(f.name)),
  ];
  for (const spec of ordered) {
    if (spec.name === 'report' || (spec.name === 'org' && options.omitOrg)) continue;
    const value = fields[spec.name];
    if (value === undefined || value === null) continue;
    lines.push(`${spec.name}: ${valueText(value)}`);
  }
  const text = `${lines.join('\n')}\n`;
  // Absolute times only (a request holds no relative ones), so the instant used to read them is irrelevant.
  const epoch = new Date(0);
  const parsed = parseCell(text, { now: epoch });
  const back = parsed.cell && buildRequest(parsed.cell, { now: epoch, org: request.org });
  if (back?.verb !== 'report' || !sameRequest(back.request, request)) {
    const why = parsed.diagnostics.find((d) => d.severity === 'error')?.message;
    throw new ReportCellError(
      `This report's request cannot be written as a cell${why ? `: ${why}` : ' (a value would read differently)'}`,
    );
  }
  return text;
}
