// A sensor's performance evaluation against a collocated reference as a document, laid out like EPA's
// "Sensor Performance Report Template" (EPA/600/R-20/280, 2021, its appendix: testing details, the tabular
// summary of performance metrics against target values met / not met, scatter plots and time series of
// 1-hour and 24-hour averages). The numbers are core/table/collocation's (EPA's evaluation, core/aq/evaluation);
// HTML (self-contained, no script, inline SVG) and Markdown (the same tables, the charts as SVG data images).
import { EvaluationReportError } from '../../api/errors';
import { MIN_PRECISION_SENSORS, type PairEvaluation, type Precision, precisionTargets } from '../../aq/evaluation';
import { lineStyles } from '../../aq/line-styles';
import { metricUnit } from '../../aq/metric-info';
import type { TargetCheck } from '../../aq/stats';
import { chartMetricColumns } from '../../table/chart-columns';
import {
  type Collocation,
  collocation,
  collocationChoice,
  datasourceNameMap,
  groupRows,
} from '../../table/collocation';
import { columnIndexOf, type Table } from '../../table/table';
import { markdownInline, markdownTable as table } from '../../text/markdown';
import type { Notebook } from '../model';
import { escapeXml } from './escape';
import { svgMarkdownImage } from './markdown';
import { outputView } from './output-view';
import { svgScatter, svgTimeChart } from './svg-plot';

interface EvaluationRequest {
  table: Table;
  /** Datasource ids; the Collocation view's defaults when absent. */
  sensor?: string;
  reference?: string;
  /** A metric column's name; Collocation's default (a 1-hour or 24-hour PM2.5 mean first) when absent. */
  metric?: string;
  radiusKm?: number;
  referenceSites?: readonly unknown[];
  datasourceNames?: ReadonlyMap<string, string>;
  /** Where the rows came from, e.g. "air-quality.measnb, cell 3 (17,280 rows)". */
  source?: string;
}

interface EvaluationReport {
  sensor: string;
  reference: string;
  metric: string;
  unit: string;
  /** km between sensor and reference when both locations are known. */
  distanceKm?: number;
  result: Collocation;
  source?: string;
  names: ReadonlyMap<string, string>;
}

/** A cell's saved result for a report: its table, the host's reference sites and names, its code cell number. */
interface EvaluationSource {
  table: Table;
  cell: number;
  referenceSites?: readonly unknown[];
  datasourceNames: ReadonlyMap<string, string>;
}

/** The table output of one code cell (1-based among code cells) as a report source, undefined without one. */
export function cellEvaluationSource(nb: Notebook, cell: number): EvaluationSource | undefined {
  const code = nb.cells.filter((c) => c.kind === 'code')[cell - 1];
  for (const output of code?.outputs ?? []) {
    const view = outputView(output);
    if (view.kind !== 'table') continue;
    const info = (output.metadata?.measnb ?? {}) as { referenceSites?: unknown; datasourceNames?: unknown };
    const referenceSites = Array.isArray(info.referenceSites) ? info.referenceSites : undefined;
    return {
      table: view.table,
      cell,
      referenceSites,
      datasourceNames: datasourceNameMap(view.table, info.datasourceNames),
    };
  }
  return undefined;
}

/**
 * The result a report is made of: code cell `cell`'s, else the first cell's whose table has the sensor (any
 * table with two datasources and a metric when no sensor is named). A clear error when there is none.
 */
export function evaluationSource(nb: Notebook, options: { cell?: number; sensor?: string }): EvaluationSource {
  const codeCells = nb.cells.filter((c) => c.kind === 'code').length;
  if (options.cell !== undefined) {
    const found = cellEvaluationSource(nb, options.cell);
    if (!found)
      throw new EvaluationReportError(
        `Code cell ${options.cell} has no saved table (the notebook has ${codeCells} code cells; run it with \`measnb run --out\`).`,
      );
    return found;
  }
  for (let cell = 1; cell <= codeCells; cell++) {
    const found = cellEvaluationSource(nb, cell);
    if (!found) continue;
    const all = Uint32Array.from({ length: found.table.rowCount }, (_, i) => i);
    const groups = groupRows(found.table, all).map((g) => g.group);
    const fits = options.sensor !== undefined ? groups.includes(options.sensor) : groups.length >= 2;
    if (fits && chartMetricColumns(found.table).length) return found;
  }
  const what = options.sensor !== undefined ? `rows of ${options.sensor}` : 'two datasources and a metric';
  throw new EvaluationReportError(
    `No saved table with ${what} in the notebook (run it with \`measnb run --out\` first, or give --cell).`,
  );
}

/** The evaluation of the request's (or the default) sensor, reference and metric; a clear error otherwise. */
export function evaluationReport(req: EvaluationRequest): EvaluationReport {
  const { table } = req;
  if (req.sensor !== undefined && req.sensor === req.reference)
    throw new EvaluationReportError(
      'The sensor and the reference must differ: a datasource is never paired with itself.',
    );
  const all = Uint32Array.from({ length: table.rowCount }, (_, i) => i);
  const choice = collocationChoice(table, all, req);
  if (!choice) throw new EvaluationReportError('The result needs rows of two datasources: a sensor and a reference.');
  for (const [what, id] of [
    ['--sensor', req.sensor],
    ['--reference', req.reference],
  ] as const)
    if (id !== undefined && id !== choice.sensor && id !== choice.reference)
      throw new EvaluationReportError(
        `${what} ${id}: no rows of that datasource (have: ${choice.sensors.join(', ')}).`,
      );
  const metrics = chartMetricColumns(table);
  const metricCol = req.metric === undefined ? choice.metric : columnIndexOf(table, req.metric);
  if (!metrics.includes(metricCol)) {
    const names = metrics.map((m) => table.columns[m].name).join(', ');
    throw new EvaluationReportError(`No metric column ${req.metric ?? ''} to evaluate (metrics: ${names || 'none'}).`);
  }
  const result = collocation(table, all, metricCol, choice.sensor, choice.reference, choice.collocated);
  if (!result || (result.hour.fit.n < 2 && result.day.fit.n < 2))
    throw new EvaluationReportError(
      'Fewer than two periods where both have a valid average (1-hour: ≥ 45 of 60 minutes; 24-hour: ≥ 18 of 24 hours): query a longer range.',
    );
  const column = table.columns[metricCol];
  return {
    sensor: choice.sensor,
    reference: choice.reference,
    metric: column.name,
    unit: metricUnit(column.metric) ?? '',
    distanceKm: choice.nearest?.reference === choice.reference ? choice.nearest.km : undefined,
    result,
    source: req.source,
    names: req.datasourceNames ?? new Map(),
  };
}

const fmt = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** "first → last" paired period starts. */
function pairRange(e: PairEvaluation): string {
  return e.times.length ? `${iso(e.times[0])} → ${iso(e.times[e.times.length - 1])}` : '—';
}

/** One row of the performance table: the statistic on 1-hour and 24-hour averages, its target and verdicts. */
interface ReportRow {
  name: string;
  hour: string;
  day: string;
  target: string;
  met: [string, string];
}

function verdict(check: TargetCheck | undefined, computable: boolean): string {
  if (!check || !computable) return '';
  return check.met ? 'met' : 'not met';
}

function precisionText(p: Precision, f: (x: Precision) => string): string {
  return p.sensors < MIN_PRECISION_SENSORS ? `needs ${MIN_PRECISION_SENSORS} sensors (${p.sensors} here)` : f(p);
}

/** The tabular summary: n, dates, each statistic with its EPA PM2.5 target (PM2.5 only) met / not met. */
export function reportRows(report: EvaluationReport): ReportRow[] {
  const { result: r, unit } = report;
  const u = (v: number) => (unit && Number.isFinite(v) ? ` ${unit}` : '');
  const checks = {
    hour: [...r.targets.hour, ...(r.pm25 ? precisionTargets(r.precision.hour) : [])],
    day: [...r.targets.day, ...(r.pm25 ? precisionTargets(r.precision.day) : [])],
  };
  const precisionOk = r.precision.hour.sensors >= MIN_PRECISION_SENSORS;
  const row = (name: string, f: (e: PairEvaluation, side: 'hour' | 'day') => string, target?: string): ReportRow => {
    const [h, d] = [checks.hour.find((c) => c.name === target), checks.day.find((c) => c.name === target)];
    const ok = (side: 'hour' | 'day') =>
      r[side].fit.n >= 2 && (target !== 'SD' && target !== 'CV' ? true : precisionOk);
    return {
      name,
      hour: f(r.hour, 'hour'),
      day: f(r.day, 'day'),
      target: h?.target ?? '',
      met: [verdict(h, ok('hour')), verdict(d, ok('day'))],
    };
  };
  return [
    row('n (paired periods)', (e) => String(e.fit.n)),
    row('Paired periods from → to', pairRange),
    row('Slope', (e) => fmt(e.fit.slope), 'Slope'),
    row('Intercept', (e) => `${fmt(e.fit.intercept)}${u(e.fit.intercept)}`, 'Intercept'),
    row('R²', (e) => fmt(e.fit.r2), 'R²'),
    row('RMSE (sensor − reference)', (e) => `${fmt(e.fit.rmse)}${u(e.fit.rmse)}`, 'RMSE'),
    row(
      'NRMSE (RMSE / mean reference)',
      (e) => (Number.isFinite(e.fit.nrmse) ? `${fmt(e.fit.nrmse, 1)} %` : '—'),
      'NRMSE',
    ),
    row('Mean bias (sensor − reference)', (e) => `${fmt(e.fit.meanBias)}${u(e.fit.meanBias)}`),
    row(
      'Averages left out (< 75 % complete)',
      (e) => `sensor ${e.incomplete.sensor}, reference ${e.incomplete.reference}`,
    ),
    row('Precision: N periods × M sensors', (_e, s) => precisionText(r.precision[s], (x) => `${x.n} × ${x.sensors}`)),
    row('SD (across sensors)', (_e, s) => precisionText(r.precision[s], (x) => `${fmt(x.sd)}${u(x.sd)}`), 'SD'),
    row('CV (across sensors)', (_e, s) => precisionText(r.precision[s], (x) => `${fmt(x.cv, 1)} %`), 'CV'),
  ];
}

/** The verdict line: EPA's targets on 24-hour averages (and 1-hour), or that they are for PM2.5 only. */
export function reportVerdict(report: EvaluationReport): string {
  const r = report.result;
  if (!r.pm25)
    return "EPA's sensor performance targets are defined for PM2.5 only: the statistics are shown without targets for this metric.";
  const rows = reportRows(report);
  const part = (i: 0 | 1, label: string) => {
    if (r[i === 0 ? 'hour' : 'day'].fit.n < 2) return `${label}: fewer than two pairs`;
    const failed = [
      ...new Set(
        rows.filter((x) => x.met[i] === 'not met').map((x) => (/RMSE/.test(x.name) ? 'Error' : x.name.split(' ')[0])),
      ),
    ];
    return failed.length ? `${label}: not met (${failed.join(', ')})` : `${label}: all targets met`;
  };
  return `EPA PM2.5 targets (EPA/600/R-20/280; the target values are for 24-hour averages): ${part(1, '24-hour')}; ${part(0, '1-hour')}.`;
}

/** Testing details: who was compared with whom, where, on what and when. */
function reportDetails(report: EvaluationReport): Array<[string, string]> {
  const named = (id: string) => (report.names.get(id) ? `${id} (${report.names.get(id)})` : id);
  const r = report.result;
  const days = r.day.times;
  return [
    ['Sensor', named(report.sensor)],
    ['Reference', named(report.reference)],
    [
      'Distance',
      report.distanceKm === undefined ? 'locations not known or beyond the radius' : `${fmt(report.distanceKm, 3)} km`,
    ],
    ['Pollutant metric', `${report.metric}${report.unit ? ` [${report.unit}]` : ''}`],
    ['Result frequency', r.frequency],
    [
      'Testing period (24-hour pairs)',
      days.length ? `${iso(days[0]).slice(0, 10)} → ${iso(days[days.length - 1]).slice(0, 10)}` : '—',
    ],
    ['Collocated sensors (precision)', r.precision.sensors.join(', ')],
    ...(report.source ? ([['Data', report.source]] as Array<[string, string]>) : []),
  ];
}

/**
 * A sensor's averages against a reference's as a scatter (equal axes, the 1:1 and OLS lines, the unit on both
 * axes, the pairs' time range): the report's scatter and the Collocation view's image.
 */
export function pairScatterSvg(
  e: PairEvaluation,
  names: { sensor: string; reference: string; unit: string; metric?: string },
  size?: number,
): string {
  // The metric (when named) on the axes: a long name would not fit the square's title line.
  const u = `${names.metric ? `, ${names.metric}` : ''}${names.unit ? ` [${names.unit}]` : ''}`;
  return svgScatter({
    title: `Sensor vs reference, ${e.averaging === '1h' ? '1-hour' : '24-hour'} averages (n = ${e.fit.n})`,
    xLabel: `reference ${names.reference}${u}`,
    yLabel: `sensor ${names.sensor}${u}`,
    x: e.reference,
    y: e.sensor,
    fit: e.fit,
    times: e.times,
    size,
  });
}

/** The charts: a scatter and a time series (sensor and reference) of each averaging with ≥ 2 pairs. */
function reportCharts(report: EvaluationReport): Array<{ title: string; svg: string }> {
  const styles = lineStyles([report.sensor, report.reference]);
  const out: Array<{ title: string; svg: string }> = [];
  for (const [side, label] of [
    ['hour', '1-hour'],
    ['day', '24-hour'],
  ] as const) {
    const e = report.result[side];
    if (e.fit.n < 2) continue;
    const title = `${label} averages`;
    out.push({ title: `Scatter, ${title}`, svg: pairScatterSvg(e, report) });
    const points = (v: Float64Array) => Array.from(v, (y, i): [number, number] => [e.times[i], y]);
    out.push({
      title: `Time series, ${title}`,
      svg: svgTimeChart({
        title: `${report.metric}, ${title} (period start)`,
        yLabel: report.unit || report.metric,
        series: [
          { label: `sensor ${report.sensor}`, points: points(e.sensor), style: styles.get(report.sensor)! },
          { label: `reference ${report.reference}`, points: points(e.reference), style: styles.get(report.reference)! },
        ],
      }),
    });
  }
  return out;
}

const RULES = [
  'Valid averages (EPA/600/R-20/280): a 1-hour average from minutes needs ≥ 45 of 60 minutes; a 24-hour average needs ≥ 18 of 24 valid hours (75 %).',
  'Error target: RMSE ≤ 7 µg/m³ or NRMSE ≤ 30 % (met when either is). Precision: SD ≤ 5 µg/m³ and CV ≤ 30 % across ≥ 3 collocated sensors.',
  'Fit: ordinary least squares of the sensor on the reference. Times are UTC, each period stamped at its start.',
  'Indicative: sensor data, not a regulatory determination.',
];

const STYLE = `body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1f1f1f}
table{border-collapse:collapse;font-size:13px;margin:.6em 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#eee}td.num{text-align:right;font-variant-numeric:tabular-nums}.met{color:#1b5e20;font-weight:600}.notmet{color:#a1260d;font-weight:600}
.charts{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}.note{color:#555;font-size:12px}.verdict{font-weight:600;margin:.6em 0}`;

/** The report as one self-contained HTML page (no script, nothing fetched). */
export function evaluationReportHtml(report: EvaluationReport, title = 'Sensor performance report'): string {
  const details = reportDetails(report)
    .map(([k, v]) => `<tr><th>${escapeXml(k)}</th><td>${escapeXml(v)}</td></tr>`)
    .join('\n');
  const cls = (m: string) => (m === 'met' ? 'met' : m === 'not met' ? 'notmet' : '');
  const head = report.result.pm25
    ? '<tr><th>Metric</th><th>1-hour</th><th>24-hour</th><th>EPA PM2.5 target</th><th>1-hour</th><th>24-hour</th></tr>'
    : '<tr><th>Metric</th><th>1-hour</th><th>24-hour</th></tr>';
  const rows = reportRows(report)
    .map((r) => {
      const cells = [
        `<td>${escapeXml(r.name)}</td>`,
        `<td class="num">${escapeXml(r.hour)}</td>`,
        `<td class="num">${escapeXml(r.day)}</td>`,
      ];
      if (report.result.pm25)
        cells.push(
          `<td>${escapeXml(r.target)}</td>`,
          ...r.met.map((m) => `<td class="${cls(m)}">${escapeXml(m)}</td>`),
        );
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('\n');
  const charts = reportCharts(report)
    .map((c) => `<figure>${c.svg}<figcaption class="note">${escapeXml(c.title)}</figcaption></figure>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeXml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeXml(title)}</h1>
<p class="note">Laid out after EPA's sensor performance report template (EPA/600/R-20/280, appendix).</p>
<h2>Testing details</h2>
<table>${details}</table>
<h2>Performance metrics and target values</h2>
<table><thead>${head}</thead><tbody>
${rows}
</tbody></table>
<p class="verdict">${escapeXml(reportVerdict(report))}</p>
<h2>Scatter plots and time series</h2>
<div class="charts">${charts}</div>
<h2>Rules</h2>
<ul>${RULES.map((r) => `<li class="note">${escapeXml(r)}</li>`).join('')}</ul>
</body></html>
`;
}

/** The report as Markdown: the same tables, the charts as SVG data images (shown by VS Code's preview). */
export function evaluationReportMarkdown(report: EvaluationReport, title = 'Sensor performance report'): string {
  const pm = report.result.pm25;
  const rows = reportRows(report).map((r) =>
    pm ? [r.name, r.hour, r.day, r.target, ...r.met] : [r.name, r.hour, r.day],
  );
  const header = pm
    ? ['Metric', '1-hour', '24-hour', 'EPA PM2.5 target', 'Met (1-hour)', 'Met (24-hour)']
    : ['Metric', '1-hour', '24-hour'];
  const charts = reportCharts(report).map((c) => svgMarkdownImage(c.title, c.svg));
  return [
    `# ${markdownInline(title)}`,
    "_Laid out after EPA's sensor performance report template (EPA/600/R-20/280, appendix)._",
    '## Testing details',
    table(['', ''], reportDetails(report)),
    '## Performance metrics and target values',
    table(header, rows),
    `**${markdownInline(reportVerdict(report))}**`,
    '## Scatter plots and time series',
    ...charts,
    '## Rules',
    RULES.map((r) => `- ${markdownInline(r)}`).join('\n'),
  ]
    .join('\n\n')
    .concat('\n');
}
