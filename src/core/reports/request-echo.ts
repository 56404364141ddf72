// The request a report was made from, read back from its record's query echo (to re-run it, or to write
// it as a `report` cell). The echo comes from the service: only the fields of a report request of its
// kind are taken, the contract's echo names are read as the request's (columnLabelStyle for
// metricLabelStyle, format for fileFormat), defaults the service filled in are left out, and the result
// must pass the field rules (validate.ts) or it is refused with the reason.
import { REPORT_KINDS, type ReportKind, type ReportRecord, type ReportRequest } from '../api/types';
import { describeIssues, REPORT_FIELDS, validateReportRequest } from '../api/validate';

/** Values the service echoes when the request left them out (they change nothing when sent). */
const DEFAULTS: Record<string, unknown> = {
  metricLabelStyle: 'canonical',
  fileFormat: 'csv-wide',
  dataVersion: 'legacy',
  qcAssessment: false,
  qcFlags: false,
  allDatasources: false,
};

/** Echo names of request fields (SERVICE-INTERFACE: columnLabelStyle; SERVICE-FACTS: format). */
const ECHO_NAMES: Record<string, string> = { metricLabelStyle: 'columnLabelStyle', fileFormat: 'format' };

export type EchoedRequest = { request: ReportRequest } | { error: string };

/** The report's request from its echo; `org` is used when the echo has none. */
export function reportRequestFromRecord(record: ReportRecord, org: string): EchoedRequest {
  const kind = record.report;
  if (!(REPORT_KINDS as readonly string[]).includes(kind))
    return { error: `the report kind ${JSON.stringify(String(kind).slice(0, 60))} is unknown` };
  const echo = record.query && typeof record.query === 'object' ? record.query : {};
  const request: Record<string, unknown> = { report: kind };
  for (const spec of REPORT_FIELDS[kind as ReportKind]) {
    if (spec.name === 'report') continue;
    let value = echo[spec.name] ?? (ECHO_NAMES[spec.name] ? echo[ECHO_NAMES[spec.name]] : undefined);
    if (spec.name === 'org' && (typeof value !== 'string' || value === '')) value = org;
    if (value === undefined || value === null || value === DEFAULTS[spec.name]) continue;
    request[spec.name] = Array.isArray(value) ? [...value] : value;
  }
  // All datasources and a list at once: the list is the service's own filling-in.
  if (request.allDatasources === true) delete request.datasourceIds;
  const issues = validateReportRequest(request);
  if (issues.length) return { error: `its request as echoed by the service is not valid: ${describeIssues(issues)}` };
  return { request: request as unknown as ReportRequest };
}
