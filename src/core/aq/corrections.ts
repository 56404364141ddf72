// PM2.5 corrections with their method recorded: the published formulas (EPA's US-wide PurpleAir correction,
// its two-piece extension for smoke, a humidity-growth correction), the product's own collocation fit, and the
// `sql` cell that applies one to a result or a file, its method, source and coefficients in a comment, so the
// notebook re-runs it and `measnb run` gives the same numbers. Neutral: plain numbers and SQL text.
import type { CorrectionTag } from '../metrics/catalog';
import { formatMetricLabel, parseCanonicalLabel } from '../metrics/labels';
import { commentText, numberLiteral, quoteIdent, quoteString } from '../text/sql-text';
import { DAY_MS } from '../time/duration';
import { daysFromCivil, isCalendarDate } from '../time/iso';
import { civilFromDays } from '../time/zone';
import { ols } from './stats';

export type CorrectionMethod = CorrectionTag;

interface CorrectionInfo {
  tag: CorrectionMethod;
  /** What the quick pick shows. */
  label: string;
  /** The paper (or where the coefficients came from). */
  source: string;
  doi?: string;
  /** The formula in words, as the cell's comment states it. */
  formula: string;
  needsRh: boolean;
}

export const CORRECTIONS: Record<CorrectionMethod, CorrectionInfo> = {
  epa2021: {
    tag: 'epa2021',
    label: 'EPA US-wide correction (Barkjohn et al. 2021)',
    source: 'Barkjohn, Gantt and Clements 2021, Atmos. Meas. Tech. 14, 4617-4637, Eq. for the US-wide correction',
    doi: '10.5194/amt-14-4617-2021',
    formula: 'PM2.5 = 0.524 * PM - 0.0862 * RH + 5.75',
    needsRh: true,
  },
  epafsm2021: {
    tag: 'epafsm2021',
    label: "EPA Fire and Smoke Map's two-piece correction (2021)",
    source:
      "Barkjohn et al. 2021 (AMT 14, 4617) below 343 µg/m³; above it the quadratic EPA's AirNow Fire and Smoke Map used from 2021 (as AirSensor2 pat_applyCorrection 'EPA_FASM' documents it)",
    doi: '10.5194/amt-14-4617-2021',
    formula: 'PM <= 343: 0.524 * PM - 0.0862 * RH + 5.75; PM > 343: 0.46 * PM + 3.93e-4 * PM^2 + 2.97',
    needsRh: true,
  },
  nilson2022: {
    tag: 'nilson2022',
    label: 'Humidity-growth correction (Nilson et al. 2022)',
    source: 'Nilson et al. 2022, Atmos. Meas. Tech. 15, 3315-3328 (hygroscopic growth, kappa = 0.24)',
    doi: '10.5194/amt-15-3315-2022',
    formula: 'PM2.5 = PM / (1 + 0.24 / (100 / RH - 1)), RH clamped to 30-70 %',
    needsRh: true,
  },
  fit: {
    tag: 'fit',
    label: 'Collocation fit: y = a + b·x (OLS against a reference)',
    source: 'ordinary least squares of the reference on the sensor over the chosen dates',
    formula: 'PM2.5 = a + b * PM',
    needsRh: false,
  },
  fitrh: {
    tag: 'fitrh',
    label: 'Collocation fit with humidity: y = a + b·x + c·RH (multiple regression)',
    source: 'least squares of the reference on the sensor and RH over the chosen dates',
    formula: 'PM2.5 = a + b * PM + c * RH',
    needsRh: true,
  },
};

/** EPA's US-wide correction (Barkjohn et al. 2021, AMT 14:4617): 0.524·PM − 0.0862·RH + 5.75. */
export function epa2021(pm: number, rh: number): number {
  return 0.524 * pm - 0.0862 * rh + 5.75;
}

/** The breakpoint of the Fire and Smoke Map's two-piece form (µg/m³ of the uncorrected PM). */
const FSM_BREAKPOINT = 343;

/** The 2021 Fire and Smoke Map form: the US-wide correction up to 343 µg/m³, 0.46·PM + 3.93×10⁻⁴·PM² + 2.97 above. */
export function epaFireSmoke2021(pm: number, rh: number): number {
  return pm <= FSM_BREAKPOINT ? epa2021(pm, rh) : 0.46 * pm + 3.93e-4 * pm * pm + 2.97;
}

/** Nilson et al. 2022 (AMT 15:3315): PM / (1 + 0.24 / (100/RH − 1)), RH clamped to 30–70 %. */
export function nilson2022(pm: number, rh: number): number {
  const h = Math.min(70, Math.max(30, rh));
  return pm / (1 + 0.24 / (100 / h - 1));
}

export interface CorrectionFit {
  /** Intercept, slope on PM, and (fitrh) the coefficient of RH. */
  a: number;
  b: number;
  c?: number;
  n: number;
}

/** OLS of the reference y on the sensor x: y = a + b·x (the one OLS of core/aq, stats.ts `ols`). */
export function fitLinear(x: ArrayLike<number>, y: ArrayLike<number>): CorrectionFit {
  const f = ols(x, y);
  return { a: f.intercept, b: f.slope, n: f.n };
}

/**
 * Least squares of y on x and RH: y = a + b·x + c·RH, from the normal equations on centred sums (solved by
 * Cramer's rule; the 2×2 system of the centred slopes). NaN coefficients when x and RH are collinear or n < 3.
 */
export function fitWithRh(x: ArrayLike<number>, rh: ArrayLike<number>, y: ArrayLike<number>): CorrectionFit {
  const n = Math.min(x.length, rh.length, y.length);
  let mx = 0;
  let mh = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    mh += rh[i];
    my += y[i];
  }
  mx /= n;
  mh /= n;
  my /= n;
  let sxx = 0;
  let shh = 0;
  let sxh = 0;
  let sxy = 0;
  let shy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dh = rh[i] - mh;
    const dy = y[i] - my;
    sxx += dx * dx;
    shh += dh * dh;
    sxh += dx * dh;
    sxy += dx * dy;
    shy += dh * dy;
  }
  const det = sxx * shh - sxh * sxh;
  if (n < 3 || !(Math.abs(det) > 1e-12 * sxx * shh)) return { a: Number.NaN, b: Number.NaN, c: Number.NaN, n };
  const b = (sxy * shh - shy * sxh) / det;
  const c = (shy * sxx - sxy * sxh) / det;
  return { a: my - b * mx - c * mh, b, c, n };
}

/** The corrected value of one PM (and RH) by a method; a fit needs its coefficients. */
export function correctValue(method: CorrectionMethod, pm: number, rh: number, fit?: CorrectionFit): number {
  switch (method) {
    case 'epa2021':
      return epa2021(pm, rh);
    case 'epafsm2021':
      return epaFireSmoke2021(pm, rh);
    case 'nilson2022':
      return nilson2022(pm, rh);
    case 'fit':
      return fit ? fit.a + fit.b * pm : Number.NaN;
    case 'fitrh':
      return fit ? fit.a + fit.b * pm + (fit.c ?? Number.NaN) * rh : Number.NaN;
  }
}

/**
 * The corrected column's name: the metric's canonical label with the method's tag (`pm2_5ConcMass1HourMean.raw`
 * → `pm2_5ConcMass1HourMean_epa2021`), so the metric catalogue knows its quantity, unit and averaging; a column
 * that is no metric label gets `<name>_<tag>`.
 */
export function correctedColumnName(pmColumn: string, method: CorrectionMethod): string {
  const parts = parseCanonicalLabel(pmColumn);
  if (parts && !parts.index && !parts.correction)
    return formatMetricLabel({ quantity: parts.quantity, aggregation: parts.aggregation, correction: method });
  return `${pmColumn.replace(/\.(raw|value)$/, '')}_${method}`;
}

/** What a correction cell reads: an earlier cell's named result, or a file (read in place by DuckDB). */
type CorrectionInput = { result: string } | { file: string; format: 'parquet' | 'csv' };

interface CorrectionSpec {
  method: CorrectionMethod;
  input: CorrectionInput;
  /** The PM2.5 column (the raw value where the method needs raw). */
  pmColumn: string;
  /** Relative humidity (%) of the same datasource, same row; required by methods that need it. */
  rhColumn?: string;
  /** Only these datasources get a corrected value (the others' is NULL); all when absent or empty. */
  datasources?: readonly string[];
  datasourceColumn?: string;
  /** A fit's coefficients and what it was fitted on. */
  fit?: CorrectionFit & { fittedOn?: string };
  /** The cell's result name (default: the input's name with the method's tag). */
  name?: string;
}

/** The expression of a method over SQL expressions `pm` and `rh`: the same operations, in the same order, as the formulas above. */
function correctionExpression(method: CorrectionMethod, pm: string, rh: string, fit?: CorrectionFit): string {
  const epa = `0.524 * ${pm} - 0.0862 * ${rh} + 5.75`;
  switch (method) {
    case 'epa2021':
      return epa;
    case 'epafsm2021':
      return `CASE WHEN ${pm} <= ${FSM_BREAKPOINT} THEN ${epa} ELSE 0.46 * ${pm} + 3.93e-4 * ${pm} * ${pm} + 2.97 END`;
    case 'nilson2022':
      // RH clamped by CASE (DuckDB's greatest/least skip NULLs: a missing RH must stay missing).
      return `${pm} / (1 + 0.24 / (100 / CASE WHEN ${rh} < 30 THEN 30 WHEN ${rh} > 70 THEN 70 ELSE ${rh} END - 1))`;
    case 'fit':
      if (!fit) throw new RangeError('A collocation fit needs its coefficients.');
      return `${numberLiteral(fit.a)} + ${numberLiteral(fit.b)} * ${pm}`;
    case 'fitrh':
      if (!fit || fit.c === undefined) throw new RangeError('A fit with humidity needs its three coefficients.');
      return `${numberLiteral(fit.a)} + ${numberLiteral(fit.b)} * ${pm} + ${numberLiteral(fit.c)} * ${rh}`;
  }
}

/** A result name (letters, digits and _, not starting with a digit) made from any text. */
function resultNameFrom(text: string): string {
  const name = text.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 60);
  return /^[A-Za-z_]/.test(name) ? name : `r_${name}`;
}

function inputSql(input: CorrectionInput): string {
  if ('result' in input) return quoteIdent(input.result);
  return `${input.format === 'parquet' ? 'read_parquet' : 'read_csv'}(${quoteString(input.file)})`;
}

function inputName(input: CorrectionInput): string {
  return 'result' in input ? input.result : (input.file.split(/[\\/]/).pop() ?? 'file').replace(/\..*$/, '');
}

/** The comment lines of a correction cell: method, source, formula, columns, coefficients. */
function correctionComment(spec: CorrectionSpec, column: string): string[] {
  const info = CORRECTIONS[spec.method];
  const lines = [
    `Correction: ${info.label}`,
    `Source: ${info.source}${info.doi ? `, doi:${info.doi}` : ''}`,
    `Formula: ${info.formula}`,
    `PM: ${quoteIdent(spec.pmColumn)}${info.needsRh ? `, RH: ${quoteIdent(spec.rhColumn ?? '')}` : ''} -> ${quoteIdent(column)}`,
  ];
  if (spec.fit) {
    const coef = [`a = ${spec.fit.a}`, `b = ${spec.fit.b}`, ...(spec.fit.c === undefined ? [] : [`c = ${spec.fit.c}`])];
    lines.push(`Coefficients: ${coef.join(', ')} (n = ${spec.fit.n})`);
    if (spec.fit.fittedOn) lines.push(`Fitted on: ${spec.fit.fittedOn}`);
  }
  if (spec.datasources?.length) lines.push(`Applied to: ${spec.datasources.join(', ')} (other datasources: NULL)`);
  return lines.map((l) => `-- ${commentText(l)}`);
}

/**
 * The `sql` cell that applies a correction: every column of the input, and the corrected column computed from
 * the PM (and RH) column of the same row, named so the metric catalogue knows its unit. Identifiers quoted,
 * datasources as string literals, comment text kept on its lines: a hostile name stays a name.
 */
export function correctionCell(spec: CorrectionSpec): string {
  const info = CORRECTIONS[spec.method];
  if (info.needsRh && !spec.rhColumn) throw new RangeError(`${info.label} needs a relative humidity column.`);
  const column = correctedColumnName(spec.pmColumn, spec.method);
  const pm = quoteIdent(spec.pmColumn);
  const rh = quoteIdent(spec.rhColumn ?? '');
  let expr = correctionExpression(spec.method, pm, rh, spec.fit);
  if (spec.datasources?.length) {
    const ids = spec.datasources.map(quoteString).join(', ');
    expr = `CASE WHEN ${quoteIdent(spec.datasourceColumn ?? 'datasourceId')} IN (${ids}) THEN ${expr} END`;
  }
  const name = spec.name ?? resultNameFrom(`${inputName(spec.input)}_${spec.method}`);
  return [
    `sql as ${resultNameFrom(name)}`,
    ...correctionComment(spec, column),
    `SELECT *, ${expr} AS ${quoteIdent(column)}`,
    `FROM ${inputSql(spec.input)}`,
  ].join('\n');
}

/** The sensor's and the reference's rows paired by time, for a collocation fit over chosen dates. */
interface FitPairsQuery {
  /** A SQL table expression (a quoted result name or a reader call). */
  from: string;
  timeColumn: string;
  datasourceColumn: string;
  sensor: string;
  reference: string;
  /** The sensor's PM column (x), the reference's PM column (y), the sensor's RH (for fitrh). */
  sensorColumn: string;
  referenceColumn: string;
  rhColumn?: string;
  /** Epoch milliseconds, from included, to excluded; all dates when absent. */
  fromMs?: number;
  toMs?: number;
}

/** SQL of the pairs a fit is made on: x (sensor), rh, y (reference), rows where each has a value. */
export function fitPairsSql(q: FitPairsQuery): string {
  const t = quoteIdent(q.timeColumn);
  const ds = quoteIdent(q.datasourceColumn);
  const rh = q.rhColumn ? `s.${quoteIdent(q.rhColumn)}::DOUBLE` : 'NULL::DOUBLE';
  const where = [
    `s.${ds} = ${quoteString(q.sensor)}`,
    `r.${ds} = ${quoteString(q.reference)}`,
    `s.${quoteIdent(q.sensorColumn)} IS NOT NULL`,
    `r.${quoteIdent(q.referenceColumn)} IS NOT NULL`,
    ...(q.rhColumn ? [`s.${quoteIdent(q.rhColumn)} IS NOT NULL`] : []),
    ...(q.fromMs === undefined ? [] : [`s.${t} >= to_timestamp(${numberLiteral(q.fromMs / 1000)})`]),
    ...(q.toMs === undefined ? [] : [`s.${t} < to_timestamp(${numberLiteral(q.toMs / 1000)})`]),
  ];
  return [
    `SELECT s.${quoteIdent(q.sensorColumn)}::DOUBLE AS x, ${rh} AS rh, r.${quoteIdent(q.referenceColumn)}::DOUBLE AS y`,
    `FROM ${q.from} AS s JOIN ${q.from} AS r ON s.${t} = r.${t}`,
    `WHERE ${where.join(' AND ')}`,
    `ORDER BY s.${t}`,
  ].join('\n');
}

/** PM2.5 columns a correction can start from (raw first when the method wants raw), and RH columns. */
export function correctionColumns(columns: readonly string[]): { pm: string[]; rh: string[] } {
  const pm: string[] = [];
  const rh: string[] = [];
  for (const name of columns) {
    const p = parseCanonicalLabel(name);
    if (!p || p.index || p.correction || (p.field && p.field !== 'value' && p.field !== 'raw')) continue;
    if (p.quantity === 'pm2_5ConcMass') pm.push(name);
    if (p.quantity === 'relHumidAmbient' || p.quantity === 'relHumidInternal') rh.push(name);
  }
  const raw = (n: string) => (n.endsWith('.raw') ? 0 : 1);
  return { pm: pm.sort((a, b) => raw(a) - raw(b)), rh };
}

/** The dates a fit is made on: `YYYY-MM-DD..YYYY-MM-DD` (UTC days, both included) → instants; empty: all dates. */
export function parseFitDates(text: string): { fromMs?: number; toMs?: number } | { error: string } {
  const t = text.trim();
  if (!t) return {};
  const m = /^(\d{4})-(\d{2})-(\d{2})\s*(?:\.\.|to)\s*(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const [y1, m1, d1, y2, m2, d2] = (m?.slice(1) ?? []).map(Number);
  if (!m || !isCalendarDate(y1, m1, d1) || !isCalendarDate(y2, m2, d2))
    return { error: 'Dates as YYYY-MM-DD..YYYY-MM-DD (UTC days, both included), or empty for all dates' };
  const fromMs = daysFromCivil(y1, m1, d1) * DAY_MS;
  const toMs = (daysFromCivil(y2, m2, d2) + 1) * DAY_MS;
  return toMs > fromMs ? { fromMs, toMs } : { error: 'The last date is before the first' };
}

/** The dates of a fit as its comment states them (`2026-06-01 to 2026-06-30`, UTC days), or "all dates". */
export function fitDatesText(fromMs?: number, toMs?: number): string {
  const day = (ms: number) => {
    const { year, month, day: d } = civilFromDays(Math.floor(ms / DAY_MS));
    return `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  };
  if (fromMs === undefined && toMs === undefined) return 'all dates';
  return `${fromMs === undefined ? '…' : day(fromMs)} to ${toMs === undefined ? '…' : day(toMs - 1)} (UTC days)`;
}
