// Create Report: a guided flow through every field of a report request (MultiStep: one small function per
// step, Back returns to the previous step with its answer). Each answer is checked as cells check it:
// times in the cells' grammar (`2026-11-01`, `today`, `-1d`, `-6h`: core/query parseTime), metricSelect
// with the cells' checker (core/query checkMetricSelect; a problem the service would refuse blocks sending,
// a hint such as a pattern that matches nothing is a warning, as in cells), the rest with the
// core's field rules (validate.ts). Defaults from the active connection. Warns when the daily quota is
// nearly spent; a 429 is explained with its reset time.
import * as vscode from 'vscode';
import { isMeasurementsError } from '../../core/api/errors';
import { quotaResetText } from '../../core/api/quota-text';
import {
  DATA_VERSIONS,
  type DataVersion,
  type FileFormat,
  METRIC_LABEL_STYLES,
  type MetricLabelStyle,
  OUTPUT_FREQUENCIES,
  type OutputFrequency,
  REPORT_ID_FIELD,
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
import type { MeasurementsClient } from '../../core/client/client.node';
import { metricCatalog } from '../../core/metrics/catalog';
import { METRIC_CATEGORIES, parseTime, type TimeValue, timeToMs, timeToWire } from '../../core/query';
import { checkMetricSelect, type ServiceKind } from '../../core/query/metric-select';
import { TIME_HELP } from '../../core/query/time';
import { describeFailure } from '../../core/run/describe-failure.node';
import { type Clock, nowDate } from '../../core/time/clock';
import { DAY_MS } from '../../core/time/duration';
import { quotaKey } from '../connections/client-provider';
import { serviceKindOf } from '../connections/connection';
import type { ExtensionServices } from '../services';
import { notify } from '../ui/notices';
import { confirm, type InputWarning, MultiStep, type Step } from '../ui/quick-input';

const TITLE = 'Create Measurements Report';
const STEPS = 10;
const KIND_ITEMS: Record<ReportKind, string> = {
  'datasource-measurements': 'Datasources of the org (or all of them)',
  'node-measurements': 'Nodes (devices), by node id',
  'reference-site-measurements': 'Reference sites, by site id',
};
const ALL_DATASOURCES = '$(list-flat) All datasources of the org';
const TYPE_IDS = '$(edit) Type datasource ids…';
const METRICS_DEFAULT = "The service's default metrics";
const METRICS_PICK = '$(list-selection) Pick metrics and categories…';
const METRICS_TYPE = '$(edit) Type a metricSelect…';

/** The answers so far (kept when going Back, so each step shows its last answer). */
interface Answers {
  kind: ReportKind;
  /** Datasource items ticked (labels), and the ids they stand for. */
  picked: string[];
  ids: string[];
  allDatasources: boolean;
  typedIds: string;
  frequency: OutputFrequency;
  startTime: string;
  endTime: string;
  style: MetricLabelStyle;
  format: FileFormat;
  metricsHow: string;
  metricSelect: string;
  extras: string[];
}

function spec(kind: ReportKind, name: string): FieldSpec {
  const s = REPORT_FIELDS[kind].find((f) => f.name === name);
  if (!s) throw new Error(`no field ${name} for ${kind}`);
  return s;
}

const splitIds = (t: string) =>
  t
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** A time as cells accept it, or the problem with it. */
function readTime(text: string): { value: TimeValue } | { error: string } {
  const t = text.trim();
  if (!t) return { error: `expected ${TIME_HELP}` };
  const r = parseTime(t);
  return 'error' in r ? { error: r.error } : { value: r.value };
}

/** The problem with a typed time, or undefined. */
export function timeProblem(text: string): string | undefined {
  const r = readTime(text);
  return 'error' in r ? r.error : undefined;
}

/** The problem with a typed endTime (a time, after startTime at `now`), or undefined. */
export function endTimeProblem(text: string, startText: string, now: Date): string | undefined {
  const r = readTime(text);
  if ('error' in r) return r.error;
  const start = readTime(startText);
  if ('value' in start && timeToMs(r.value, now) <= timeToMs(start.value, now))
    return `endTime must be after startTime (${startText.trim()})`;
  return undefined;
}

/** A typed time as sent: relative times resolved at `now` (the moment the request is sent). */
export function wireTime(text: string, now: Date): string {
  const r = readTime(text);
  return 'value' in r ? timeToWire(r.value, now) : text;
}

/**
 * metricSelect problems, as cells find them (empty text: the service's default, fine): what the service
 * would refuse as a message that blocks; hints alone (a pattern that matches nothing; against a real
 * service, a label the catalogue does not know) as a warning.
 */
function metricSelectProblem(
  text: string,
  frequency: OutputFrequency,
  service: ServiceKind,
): string | InputWarning | undefined {
  if (!text.trim()) return undefined;
  const problems = checkMetricSelect(text.trim(), frequency, service);
  const refused = problems.filter((p) => p.rejected);
  if (refused.length) return refused.map((p) => p.message).join('; ');
  return problems.length ? { warning: problems.map((p) => p.message).join('; ') } : undefined;
}

/** `clock` defaults to the extension's one clock, so `today` and `-1d` follow the clock host tests set. */
export async function createReportFlow(s: ExtensionServices, clock: Clock = s.clock) {
  const { connection, client } = await s.clients.forConnection();
  if (!(await quotaAllows(s, connection.id, connection.org))) return undefined;
  const a: Partial<Answers> = {};
  const now = nowDate(clock);
  const flow = new ReportFlow(s, client, connection.org, a, now, serviceKindOf(connection));
  if (!(await MultiStep.run(`${TITLE} (${connection.name}, org ${connection.org})`, STEPS, flow.kind)))
    return undefined;
  const req = flow.request(nowDate(clock));
  const issues = validateReportRequest(req);
  const problem = metricSelectProblem(req.metricSelect ?? '', req.outputFrequency, serviceKindOf(connection));
  const metricProblem = typeof problem === 'string' ? problem : undefined;
  if (issues.length || metricProblem) {
    void vscode.window.showErrorMessage(
      `The report request is not valid: ${[describeIssues(issues), metricProblem].filter(Boolean).join('; ')}`,
    );
    return undefined;
  }
  return submitReport(s, req, connection.id);
}

/** Asks first when the daily quota is spent or nearly so; false: the user cancelled. */
export async function quotaAllows(s: ExtensionServices, connectionId: string, org: string): Promise<boolean> {
  const quota = quotaKey(connectionId, org);
  const remaining = s.quota.remaining(quota);
  const threshold = vscode.workspace.getConfiguration('measurements').get<number>('quotaWarningThreshold', 25);
  if (remaining === 0) {
    const reset = quotaResetText({ resetAt: s.quota.resetAt(quota), now: nowDate(s.clock) });
    return confirm(
      `All ${s.quota.limit} reports of today are used for ${org} (${reset})`,
      'Try anyway',
      'Cancel',
      'The service will most likely answer 429.',
    );
  }
  if (s.quota.used(quota) >= threshold) {
    return confirm(
      `Only ${remaining} of ${s.quota.limit} reports left today for ${org}`,
      'Continue (uses 1 report)',
      'Cancel',
      `The daily quota (${s.quota.limit} per UTC day) ${quotaResetText({ resetAt: s.quota.resetAt(quota), now: nowDate(s.clock) })}.`,
    );
  }
  return true;
}

/** The steps, each a small function returning the next (arrow properties: passed around as Steps). */
class ReportFlow {
  constructor(
    private readonly s: ExtensionServices,
    private readonly client: MeasurementsClient,
    private readonly org: string,
    private readonly a: Partial<Answers>,
    /** "Now" for checking relative times while answering; the request is resolved when it is sent. */
    private readonly now: Date,
    /** Who gets the request: what the metric catalogue does not know blocks only for the emulator. */
    private readonly service: ServiceKind,
  ) {}

  private get k(): ReportKind {
    return this.a.kind ?? 'datasource-measurements';
  }

  readonly kind: Step = async (flow) => {
    const items = REPORT_KINDS.map((k) => ({ label: k, detail: KIND_ITEMS[k] }));
    const picked = await flow.pickOne(items, {
      placeholder: 'Report kind',
      active: items.find((i) => i.label === this.a.kind),
    });
    this.a.kind = picked.label;
    return this.k === 'datasource-measurements' ? this.datasources : this.typedIds;
  };

  readonly datasources: Step = async (flow) => {
    type Item = vscode.QuickPickItem & { id?: string };
    let listed: Item[] = [];
    try {
      const list = await this.client.listDatasources(this.org);
      listed = list.datasources.map((d) => ({
        label: d.datasourceId,
        description: d.orgAnnotations?.name ?? '',
        detail: d.sourceType,
        id: d.datasourceId,
      }));
    } catch (e) {
      this.s.log.error(`listing datasources failed: ${(e as Error).message}`);
    }
    const items: Item[] = [
      { label: ALL_DATASOURCES, description: 'allDatasources: true' },
      { label: TYPE_IDS },
      ...listed,
    ];
    const picked = await flow.pickMany(items, {
      placeholder: 'datasourceIds: tick datasources (or type to filter and press Enter for one)',
      selected: items.filter((i) => this.a.picked?.includes(i.label)),
      atLeastOne: true,
    });
    this.a.picked = picked.map((p) => p.label);
    this.a.allDatasources = this.a.picked.includes(ALL_DATASOURCES);
    this.a.ids = picked.flatMap((p) => (p.id ? [p.id] : []));
    return !this.a.allDatasources && this.a.picked.includes(TYPE_IDS) ? this.typedIds : this.frequency;
  };

  readonly typedIds: Step = async (flow) => {
    const field = REPORT_ID_FIELD[this.k];
    this.a.typedIds = await flow.input({
      prompt: `${field}: ${spec(this.k, field).doc} Comma-separated.`,
      value: this.a.typedIds,
      validate: (t) =>
        splitIds(t).length
          ? checkFieldValue(spec(this.k, field), splitIds(t))?.message
          : `${field} needs at least one id`,
    });
    return this.frequency;
  };

  readonly frequency: Step = async (flow) => {
    const items = OUTPUT_FREQUENCIES.map((f) => ({ label: f, description: f === 'hour' ? 'default' : undefined }));
    const picked = await flow.pickOne(items, {
      placeholder: `outputFrequency: ${spec(this.k, 'outputFrequency').doc}`,
      active: items.find((f) => f.label === (this.a.frequency ?? 'hour')),
    });
    this.a.frequency = picked.label;
    return this.startTime;
  };

  readonly startTime: Step = async (flow) => {
    this.a.startTime = await flow.input({
      prompt: `startTime: ${spec(this.k, 'startTime').doc} As in cells: 2026-11-01, 2026-11-01T06:00Z, today, -1d, -6h.`,
      value: this.a.startTime ?? isoDay(new Date(this.now.getTime() - DAY_MS)),
      validate: timeProblem,
    });
    return this.endTime;
  };

  readonly endTime: Step = async (flow) => {
    this.a.endTime = await flow.input({
      prompt: `endTime: ${spec(this.k, 'endTime').doc} As in cells: 2026-11-02, today, now, -1h.`,
      value: this.a.endTime ?? isoDay(this.now),
      validate: (t) => endTimeProblem(t, this.a.startTime ?? '', this.now),
    });
    return this.style;
  };

  readonly style: Step = async (flow) => {
    const items = METRIC_LABEL_STYLES.map((m) => ({
      label: m,
      description: m === 'canonical' ? 'default' : undefined,
    }));
    const picked = await flow.pickOne(items, {
      placeholder: `metricLabelStyle: ${spec(this.k, 'metricLabelStyle').doc}`,
      active: items.find((i) => i.label === this.a.style),
    });
    this.a.style = picked.label;
    return this.format;
  };

  readonly format: Step = async (flow) => {
    const items: { label: FileFormat; description: string }[] = [
      { label: 'csv-wide', description: 'default' },
      { label: 'parquet-wide', description: '' },
    ];
    const picked = await flow.pickOne(items, {
      placeholder: `fileFormat: ${spec(this.k, 'fileFormat').doc}`,
      active: items.find((i) => i.label === this.a.format),
    });
    this.a.format = picked.label;
    return this.metricsHow;
  };

  readonly metricsHow: Step = async (flow) => {
    const items = [
      { label: METRICS_DEFAULT, description: 'no metricSelect' },
      { label: METRICS_PICK, description: `the ${this.a.frequency} catalogue and the grammar's categories` },
      { label: METRICS_TYPE, description: 'only a + b, all - :weather, …' },
    ];
    const picked = await flow.pickOne(items, {
      placeholder: `metricSelect: ${spec(this.k, 'metricSelect').doc}`,
      active: items.find((i) => i.label === this.a.metricsHow),
    });
    this.a.metricsHow = picked.label;
    if (picked.label === METRICS_DEFAULT) {
      this.a.metricSelect = '';
      return this.options;
    }
    return picked.label === METRICS_PICK ? this.metricPicks : this.metricText;
  };

  readonly metricPicks: Step = async (flow) => {
    const frequency = this.a.frequency ?? 'hour';
    const items: vscode.QuickPickItem[] = [
      ...METRIC_CATEGORIES.map((c) => ({ label: `:${c}`, description: 'category' })),
      ...metricCatalog(frequency).map((m) => ({
        label: m.label,
        description: `${m.quantity.english}, ${m.aggregation}${m.index ? `, ${m.index}` : ''}`,
      })),
    ];
    const current = new Set(termsOf(this.a.metricSelect ?? ''));
    const picked = await flow.pickMany(items, {
      placeholder: `Metrics and categories at ${frequency} output (tick, then Enter; the next step shows the selection)`,
      selected: items.filter((i) => current.has(i.label)),
      atLeastOne: true,
    });
    this.a.metricSelect = `only ${picked.map((p) => p.label).join(' + ')}`;
    return this.metricText;
  };

  readonly metricText: Step = async (flow) => {
    const frequency = this.a.frequency ?? 'hour';
    this.a.metricSelect = await flow.input({
      prompt: `metricSelect, as in cells: only pm2_5ConcMassNowcast, only :pm, all - :weather. Checked for ${frequency} output.`,
      value: this.a.metricSelect,
      validate: (t) =>
        t.trim() ? metricSelectProblem(t, frequency, this.service) : 'type a selection, or go Back for the default',
    });
    return this.options;
  };

  readonly options: Step = async (flow) => {
    const items = [
      { label: 'qcAssessment', detail: spec(this.k, 'qcAssessment').doc },
      { label: 'qcFlags', detail: spec(this.k, 'qcFlags').doc },
      ...DATA_VERSIONS.filter((v) => v !== 'legacy').map((v) => ({
        label: `dataVersion ${v}`,
        detail: spec(this.k, 'dataVersion').doc,
      })),
    ];
    const picked = await flow.pickMany(items, {
      placeholder: 'Options (none selected: defaults)',
      selected: items.filter((i) => this.a.extras?.includes(i.label)),
    });
    this.a.extras = picked.map((p) => p.label);
    return undefined;
  };

  /** The request from the answers, relative times resolved at `now` (when it is sent). */
  request(now: Date): ReportRequest {
    const a = this.a;
    const time = (t: string | undefined) => wireTime(t ?? '', now);
    const chosen = new Set(a.extras ?? []);
    const dataVersion = DATA_VERSIONS.find((v) => chosen.has(`dataVersion ${v}`)) as DataVersion | undefined;
    const typed = splitIds(a.typedIds ?? '');
    const ids =
      this.k === 'datasource-measurements'
        ? a.allDatasources
          ? { allDatasources: true }
          : { datasourceIds: [...new Set([...(a.ids ?? []), ...(a.picked?.includes(TYPE_IDS) ? typed : [])])] }
        : { [REPORT_ID_FIELD[this.k]]: typed };
    const metricSelect = (a.metricSelect ?? '').trim();
    return {
      report: this.k,
      org: this.org,
      outputFrequency: a.frequency ?? 'hour',
      startTime: time(a.startTime),
      endTime: time(a.endTime),
      ...ids,
      ...(a.style && a.style !== 'canonical' ? { metricLabelStyle: a.style } : {}),
      ...(a.format && a.format !== 'csv-wide' ? { fileFormat: a.format } : {}),
      ...(metricSelect ? { metricSelect } : {}),
      ...(chosen.has('qcAssessment') ? { qcAssessment: true } : {}),
      ...(chosen.has('qcFlags') ? { qcFlags: true } : {}),
      ...(dataVersion ? { dataVersion } : {}),
    } as ReportRequest;
  }
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The terms of an `only a + b` selection (to tick them again after Back). */
function termsOf(select: string): string[] {
  return select
    .replace(/^\s*only\s+/i, '')
    .split('+')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** Sends the request, counts it against the quota, tracks it in the Reports view; explains a 429. */
export async function submitReport(
  s: ExtensionServices,
  req: ReportRequest,
  connectionId: string,
): Promise<ReportRecord | undefined> {
  const { client } = await s.clients.forConnection(s.connections.get(connectionId));
  try {
    // The quota count follows the request itself (ClientProvider's request log).
    const record = await client.createReport(req);
    await s.reports.track(record, connectionId);
    void vscode.commands.executeCommand('measurements.reports.focus');
    return record;
  } catch (e) {
    if (isMeasurementsError(e, 'QUOTA_EXCEEDED')) {
      const { lines } = describeFailure(e, { org: req.org, now: nowDate(s.clock) });
      void notify('error', `${lines.join(' ')} No report was created.`);
      return undefined;
    }
    throw e;
  }
}
