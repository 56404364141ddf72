// Create Report: a guided flow through every field of a report request, each step checked with the
// core's field rules (validate.ts) as it is answered, defaults from the active connection. Warns when
// the daily quota is nearly spent; a 429 is explained with its reset time.
import * as vscode from 'vscode';
import { isMeasurementsError } from '../../core/api/errors';
import {
  DATA_VERSIONS,
  type DataVersion,
  type FileFormat,
  METRIC_LABEL_STYLES,
  type MetricLabelStyle,
  OUTPUT_FREQUENCIES,
  type OutputFrequency,
  REPORT_KINDS,
  type ReportKind,
  type ReportRecord,
  type ReportRequest,
} from '../../core/api/types';
import {
  checkFieldValue,
  describeIssues,
  type FieldSpec,
  REPORT_FIELDS,
  validateReportRequest,
} from '../../core/api/validate';
import { quotaKey } from '../connections/client-provider';
import type { ExtensionServices } from '../services';
import { notify } from '../ui/notices';
import { confirm, inputText, pickMany, pickOne } from '../ui/quick-input';

const TITLE = 'Create Measurements Report';
const STEPS = 9;
const KIND_ITEMS: Record<ReportKind, string> = {
  'datasource-measurements': 'Datasources of the org (or all of them)',
  'node-measurements': 'Nodes (devices), by node id',
  'reference-site-measurements': 'Reference sites, by site id',
};
const ID_FIELD: Record<ReportKind, 'datasourceIds' | 'nodeIds' | 'refSiteIds'> = {
  'datasource-measurements': 'datasourceIds',
  'node-measurements': 'nodeIds',
  'reference-site-measurements': 'refSiteIds',
};

function spec(kind: ReportKind, name: string): FieldSpec {
  const s = REPORT_FIELDS[kind].find((f) => f.name === name);
  if (!s) throw new Error(`no field ${name} for ${kind}`);
  return s;
}

/** A validator for an input step: the core's rule for that field. */
function fieldRule(kind: ReportKind, name: string, parse: (t: string) => unknown = (t) => t.trim()) {
  return (text: string) => checkFieldValue(spec(kind, name), parse(text))?.message;
}

const splitIds = (t: string) =>
  t
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export async function createReportFlow(s: ExtensionServices): Promise<ReportRecord | undefined> {
  const connected = await s.clients.forConnection();
  const { connection, client } = connected;
  const org = connection.org;

  const quota = quotaKey(connection.id, org);
  const remaining = s.quota.remaining(quota);
  const threshold = vscode.workspace.getConfiguration('measurements').get<number>('quotaWarningThreshold', 25);
  if (remaining === 0) {
    const resetAt = s.quota.resetAt(quota);
    const go = await confirm(
      `All ${s.quota.limit} reports of today are used for ${org}${resetAt ? ` (resets ${resetAt.toISOString()})` : ''}`,
      'Try anyway',
      'Cancel',
      'The service will most likely answer 429.',
    );
    if (!go) return undefined;
  } else if (s.quota.used(quota) >= threshold) {
    const go = await confirm(
      `Only ${remaining} of ${s.quota.limit} reports left today for ${org}`,
      'Continue (uses 1 report)',
      'Cancel',
      'The daily quota resets at UTC midnight.',
    );
    if (!go) return undefined;
  }

  const kindItem = await pickOne(
    REPORT_KINDS.map((k) => ({ label: k, detail: KIND_ITEMS[k] })),
    { title: `${TITLE} (${connection.name}, org ${org})`, step: 1, totalSteps: STEPS, placeholder: 'Report kind' },
  );
  if (!kindItem) return undefined;
  const kind = kindItem.label as ReportKind;

  const ids = await askIds(s, kind, client, org);
  if (!ids) return undefined;

  const freqItems = OUTPUT_FREQUENCIES.map((f) => ({ label: f, description: f === 'hour' ? 'default' : undefined }));
  const freq = await pickOne(freqItems, {
    title: TITLE,
    step: 3,
    totalSteps: STEPS,
    placeholder: `outputFrequency: ${spec(kind, 'outputFrequency').doc}`,
    active: freqItems.find((f) => f.label === 'hour'),
  });
  if (!freq) return undefined;

  const now = new Date();
  const startTime = await inputText({
    title: TITLE,
    step: 4,
    totalSteps: STEPS,
    prompt: `startTime: ${spec(kind, 'startTime').doc}`,
    value: isoDay(new Date(now.getTime() - 86400000)),
    validate: fieldRule(kind, 'startTime'),
  });
  if (startTime === undefined) return undefined;
  const endTime = await inputText({
    title: TITLE,
    step: 5,
    totalSteps: STEPS,
    prompt: `endTime: ${spec(kind, 'endTime').doc}`,
    value: isoDay(now),
    validate: (t) =>
      fieldRule(kind, 'endTime')(t) ??
      validateReportRequest({
        report: kind,
        org,
        outputFrequency: 'hour',
        startTime: startTime.trim(),
        endTime: t.trim(),
        [ID_FIELD[kind]]: ['x'],
      }).find((i) => i.field === 'endTime')?.message,
  });
  if (endTime === undefined) return undefined;

  const style = await pickOne(
    METRIC_LABEL_STYLES.map((m) => ({ label: m, description: m === 'canonical' ? 'default' : undefined })),
    {
      title: TITLE,
      step: 6,
      totalSteps: STEPS,
      placeholder: `metricLabelStyle: ${spec(kind, 'metricLabelStyle').doc}`,
    },
  );
  if (!style) return undefined;
  const format = await pickOne(
    [
      { label: 'csv-wide', description: 'default' },
      { label: 'parquet-wide', description: '' },
    ],
    { title: TITLE, step: 7, totalSteps: STEPS, placeholder: `fileFormat: ${spec(kind, 'fileFormat').doc}` },
  );
  if (!format) return undefined;
  const metricSelect = await inputText({
    title: TITLE,
    step: 8,
    totalSteps: STEPS,
    prompt: `metricSelect (optional): ${spec(kind, 'metricSelect').doc} Empty: the service's default.`,
    validate: (t) => (t.trim() ? fieldRule(kind, 'metricSelect')(t) : undefined),
  });
  if (metricSelect === undefined) return undefined;
  const extras = await pickMany(
    [
      { label: 'qcAssessment', detail: spec(kind, 'qcAssessment').doc },
      { label: 'qcFlags', detail: spec(kind, 'qcFlags').doc },
      ...DATA_VERSIONS.filter((v) => v !== 'legacy').map((v) => ({
        label: `dataVersion ${v}`,
        detail: spec(kind, 'dataVersion').doc,
      })),
    ],
    { title: TITLE, step: 9, totalSteps: STEPS, placeholder: 'Options (none selected: defaults)' },
  );
  if (!extras) return undefined;
  const chosen = new Set(extras.map((e) => e.label));
  const dataVersion = DATA_VERSIONS.find((v) => chosen.has(`dataVersion ${v}`)) as DataVersion | undefined;

  const req = {
    report: kind,
    org,
    outputFrequency: freq.label as OutputFrequency,
    startTime: startTime.trim(),
    endTime: endTime.trim(),
    ...ids,
    ...(style.label !== 'canonical' ? { metricLabelStyle: style.label as MetricLabelStyle } : {}),
    ...(format.label !== 'csv-wide' ? { fileFormat: format.label as FileFormat } : {}),
    ...(metricSelect.trim() ? { metricSelect: metricSelect.trim() } : {}),
    ...(chosen.has('qcAssessment') ? { qcAssessment: true } : {}),
    ...(chosen.has('qcFlags') ? { qcFlags: true } : {}),
    ...(dataVersion ? { dataVersion } : {}),
  } as ReportRequest;
  const issues = validateReportRequest(req);
  if (issues.length) {
    void vscode.window.showErrorMessage(`The report request is not valid: ${describeIssues(issues)}`);
    return undefined;
  }
  return submitReport(s, req, connection.id);
}

/** Sends the request, counts it against the quota, tracks it in the Reports view; explains a 429. */
export async function submitReport(s: ExtensionServices, req: ReportRequest, connectionId: string) {
  const { client } = await s.clients.forConnection(s.connections.get(connectionId));
  try {
    // The quota count follows the request itself (ClientProvider's request log).
    const record = await client.createReport(req);
    await s.reports.track(record, connectionId);
    void vscode.commands.executeCommand('measurements.reports.focus');
    return record;
  } catch (e) {
    if (isMeasurementsError(e, 'quota-exceeded')) {
      const reset = e.resetAt
        ? `${e.resetAt.toISOString()} (UTC midnight, ${e.resetAt.toLocaleString()} local)`
        : 'UTC midnight';
      void notify(
        'error',
        `Daily report quota reached for ${req.org}: no report was created. The quota resets at ${reset}.`,
      );
      return undefined;
    }
    throw e;
  }
}

async function askIds(
  s: ExtensionServices,
  kind: ReportKind,
  client: Awaited<ReturnType<ExtensionServices['clients']['forConnection']>>['client'],
  org: string,
): Promise<Partial<ReportRequest> | undefined> {
  if (kind === 'datasource-measurements') {
    let items: (vscode.QuickPickItem & { id?: string })[] = [];
    try {
      const list = await client.listDatasources(org);
      items = list.datasources.map((d) => ({
        label: d.datasourceId,
        description: d.orgAnnotations?.name ?? '',
        detail: d.sourceType,
        id: d.datasourceId,
      }));
    } catch (e) {
      s.log.error(`listing datasources failed: ${(e as Error).message}`);
    }
    const all: vscode.QuickPickItem & { id?: string } = {
      label: '$(list-flat) All datasources of the org',
      description: 'allDatasources: true',
    };
    const typed: vscode.QuickPickItem & { id?: string } = { label: '$(edit) Type datasource ids…' };
    const picked = await pickMany([all, typed, ...items], {
      title: TITLE,
      step: 2,
      totalSteps: STEPS,
      placeholder: 'datasourceIds: tick datasources (or type to filter and press Enter for one)',
      atLeastOne: true,
    });
    if (!picked || picked.length === 0) return undefined;
    if (picked.includes(all)) return { allDatasources: true } as Partial<ReportRequest>;
    const ids = picked.flatMap((p) => (p.id ? [p.id] : []));
    if (picked.includes(typed)) {
      const text = await askIdText(kind);
      if (text === undefined) return undefined;
      ids.push(...splitIds(text));
    }
    return { datasourceIds: [...new Set(ids)] } as Partial<ReportRequest>;
  }
  const text = await askIdText(kind);
  if (text === undefined) return undefined;
  return { [ID_FIELD[kind]]: splitIds(text) } as Partial<ReportRequest>;
}

function askIdText(kind: ReportKind): Promise<string | undefined> {
  const field = ID_FIELD[kind];
  return inputText({
    title: TITLE,
    step: 2,
    totalSteps: STEPS,
    prompt: `${field}: ${spec(kind, field).doc} Comma-separated.`,
    validate: (t) => (splitIds(t).length ? fieldRule(kind, field, splitIds)(t) : `${field} needs at least one id`),
  });
}
