// Checks across fields, at parse time: the field rules of src/core/api/validate.ts applied to the
// request the cell stands for (with relative times read at `now`), plus hints the rules leave out.
import { CACHE_DEPTH_MS } from '../api/types';
import type { ParsedCell, ParsedFields } from './cell';
import type { Diagnostic } from './diagnostics';
import { isFieldName } from './fields';
import { buildRequest, issueToDiagnostic, validateResolved } from './resolve';
import { timeToMs } from './time';

export function checkCombinations(cell: ParsedCell, diagnostics: Diagnostic[], now: Date): void {
  // The org may come from the connection at run time, so a placeholder stands in for it here.
  const resolved = buildRequest(cell, { now, org: cell.fields.org ?? 'org' });
  const written = (k: string) =>
    isFieldName(k) && cell.ranges[k] !== undefined && cell.fields[k as keyof ParsedFields] === undefined;
  for (const issue of validateResolved(resolved)) {
    // A written key whose value was refused is already diagnosed; don't also call it missing.
    if (written(issue.field) || (issue.field === 'datasourceIds' && written('allDatasources'))) continue;
    diagnostics.push(issueToDiagnostic(issue, cell));
  }

  const f = cell.fields;
  const r = cell.ranges;
  if (f.allDatasources === true && f.datasourceIds && r.datasourceIds) {
    diagnostics.push({
      severity: 'warning',
      code: 'bad-combination',
      message: 'datasourceIds is ignored when allDatasources is true',
      range: r.datasourceIds.key,
    });
  }
  if (cell.verb !== 'report' && f.startTime && r.startTime) {
    const frequency = f.outputFrequency ?? 'minute';
    const start = timeToMs(f.startTime, now);
    if (start < now.getTime() - CACHE_DEPTH_MS[frequency]) {
      const depth = { minute: '24 hours', hour: '48 hours', day: '10 days' }[frequency];
      diagnostics.push({
        severity: 'warning',
        code: 'bad-value',
        message: `Recent queries only return cached data (${depth} for ${frequency} output); use a report for older data`,
        range: r.startTime.value,
      });
    }
  }
  for (const key of ['startTime', 'endTime'] as const) {
    const t = f[key];
    const at = r[key];
    if (t && at && t.kind === 'absolute' && t.ms > now.getTime() && key === 'startTime') {
      diagnostics.push({ severity: 'warning', code: 'bad-value', message: `${key} is in the future`, range: at.value });
    }
  }
}
