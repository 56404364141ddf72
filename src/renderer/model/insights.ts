// Column insights (the strip under the headers, like Data Wrangler's "Quick Insights"): per column its missing
// share, distinct count and range; for numbers a histogram whose bins span the 1st–99th percentile in a
// round step, with an underflow and an overflow bin for what lies outside (so one outlier does not flatten
// the rest); for text, status and QC columns the most frequent values. Each bin and value carries the column
// filter (model/filter grammar) that shows exactly its rows. Computed from every row the table holds.
import { quantilesInPlace } from '../../core/aq/stats';
import { type Column, floatValues, isNumeric, type NumericColumn, type Table } from '../../core/table/table';
import { formatFlags, formatNumber } from './format';

/** The histogram's bins between the 1st and 99th percentile aim at this many (a round step decides). */
const TARGET_BINS = 12;
/** The robust range: values below the first or above the second quantile go to the under/overflow bins. */
const ROBUST_QUANTILES = [0.01, 0.99] as const;
/**
 * The percentiles come from at most this many rows (evenly spaced): exact up to it, close past it; the counts
 * in the bins are always exact.
 */
const QUANTILE_SAMPLE = 65_536;
/** Top values listed for a text column. */
const TOP_VALUES = 3;

export interface InsightBin {
  /** 'under' holds x < lo, 'over' x > hi; a bin [lo, hi) (the last regular bin [lo, hi], as numpy.histogram). */
  kind: 'under' | 'bin' | 'over';
  lo: number;
  hi: number;
  count: number;
  /** The column filter that shows exactly this bin's rows. */
  filter: string;
  /** "10 ≤ x < 12", "x < 0", … for the tooltip. */
  label: string;
}

interface InsightValue {
  text: string;
  count: number;
  /** `=text`; undefined for a value whose text is empty. */
  filter?: string;
}

interface InsightBase {
  rows: number;
  missing: number;
  distinct: number;
}

export interface NumberInsight extends InsightBase {
  kind: 'number';
  min: number;
  max: number;
  /** The regular bins' edges (empty when every value is missing). */
  edges: number[];
  bins: InsightBin[];
}

interface TimeInsight extends InsightBase {
  kind: 'time';
  min: number;
  max: number;
}

export interface ValuesInsight extends InsightBase {
  kind: 'values';
  /** The most frequent values, most frequent first (ties: dictionary order). */
  top: InsightValue[];
  /** Rows with a value not in `top`. */
  other: number;
}

export type ColumnInsight = NumberInsight | TimeInsight | ValuesInsight;

/** Missing share in percent (0 for an empty table). */
export function missingPercent(insight: ColumnInsight): number {
  return insight.rows ? (100 * insight.missing) / insight.rows : 0;
}

/** A round step (1, 2 or 5 × 10^k) near `span / target`. */
function niceStep(span: number, target = TARGET_BINS): number {
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/** k·step as the double its shortest text reads back as (so an edge's filter text is the edge). */
function edgeAt(k: number, step: number): number {
  return Number((k * step).toPrecision(12));
}

/** Edges in a round step covering [lo, hi] (one bin around a single value). */
export function roundEdges(lo: number, hi: number): number[] {
  if (!(hi > lo)) {
    const step = lo === 0 ? 1 : niceStep(Math.abs(lo), 10);
    return [edgeAt(Math.floor(lo / step), step), edgeAt(Math.floor(lo / step) + 1, step)];
  }
  const step = niceStep(hi - lo);
  const first = Math.floor(lo / step);
  const last = Math.max(first + 1, Math.ceil(hi / step));
  const edges: number[] = [];
  for (let k = first; k <= last; k++) edges.push(edgeAt(k, step));
  return edges;
}

/** Counts values into the bins of round edges as numpy.histogram does ([a, b), the last [a, b]), with under/overflow. */
class BinFinder {
  private readonly edges: Float64Array;
  private readonly counts: Float64Array;
  private readonly perUnit: number;
  private under = 0;
  private over = 0;

  constructor(edgeList: readonly number[]) {
    this.edges = Float64Array.from(edgeList);
    this.counts = new Float64Array(edgeList.length - 1);
    this.perUnit = this.counts.length / (edgeList[edgeList.length - 1] - edgeList[0]);
  }

  /** A non-NaN value. */
  add(v: number): void {
    const { edges, counts } = this;
    const n = counts.length;
    if (v < edges[0]) this.under++;
    else if (v > edges[n]) this.over++;
    else {
      // The bin by arithmetic, then set right against the edges themselves (round edges are not exact multiples).
      let b = Math.min(n - 1, Math.floor((v - edges[0]) * this.perUnit));
      if (v < edges[b]) b--;
      else if (b < n - 1 && v >= edges[b + 1]) b++;
      counts[b]++;
    }
  }

  result(): { under: number; counts: number[]; over: number } {
    return { under: this.under, counts: Array.from(this.counts), over: this.over };
  }
}

/** Counts of `values` (NaN skipped) in the edges' bins as numpy.histogram counts them, with under/overflow. */
export function binCounts(values: Float64Array, edges: readonly number[]): ReturnType<BinFinder['result']> {
  const bins = new BinFinder(edges);
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) bins.add(values[i]);
  return bins.result();
}

/** A double's bits, for hashing (one scratch word pair). */
const HASH_FLOAT = new Float64Array(1);
const HASH_WORDS = new Uint32Array(HASH_FLOAT.buffer);

/** A slot in a table of mask + 1 slots from a double's bits (+0 for −0, so both hash alike). */
function slotOf(v: number, mask: number): number {
  HASH_FLOAT[0] = v + 0;
  let x = Math.imul(HASH_WORDS[0], 0x9e3779b1) ^ Math.imul(HASH_WORDS[1], 0x85ebca6b);
  x ^= x >>> 15;
  return x & mask;
}

/**
 * A set of doubles: open addressing on their bits, starting small and doubling at half full (so a column of
 * few distinct values stays in cache); −0 and 0 are one value, as they compare equal. NaN is never added.
 */
class NumberSet {
  size = 0;
  private keys = new Float64Array(1024);
  private used = new Uint8Array(1024);
  private mask = 1023;
  /** The value added last: a run of equal values (sorted or repeated rows) skips the hashing. */
  private last = Number.NaN;

  add(v: number): void {
    if (v === this.last) return;
    this.last = v;
    const { keys, used, mask } = this;
    let slot = slotOf(v, mask);
    while (used[slot] === 1 && keys[slot] !== v) slot = (slot + 1) & mask;
    if (used[slot] === 1) return;
    used[slot] = 1;
    keys[slot] = v;
    if (++this.size * 2 > keys.length) this.grow();
  }

  private grow(): void {
    const { keys, used } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.used = new Uint8Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    for (let k = 0; k < keys.length; k++) {
      if (!used[k]) continue;
      let at = slotOf(keys[k], this.mask);
      while (this.used[at]) at = (at + 1) & this.mask;
      this.used[at] = 1;
      this.keys[at] = keys[k];
    }
  }
}

/** Distinct non-NaN values (−0 and 0 as one). */
export function distinctNumbers(values: Float64Array): number {
  const set = new NumberSet();
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) set.add(values[i]);
  return set.size;
}

/**
 * One pass over a number column: how many values, their range and distinct count, and their counts in the
 * bins of `edgeList` (as binCounts).
 */
function scanNumbers(values: Float64Array, edgeList: readonly number[]) {
  const set = new NumberSet();
  const bins = new BinFinder(edgeList);
  let n = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    n++;
    if (v < min) min = v;
    if (v > max) max = v;
    set.add(v);
    bins.add(v);
  }
  return { n, min, max, distinct: set.size, counts: bins.result() };
}

/** Bins with their tooltips (numbers as cells show them) and filters (each edge's exact shortest text). */
function binsOf(edges: number[], counts: ReturnType<typeof binCounts>): InsightBin[] {
  const f = formatNumber;
  const s = String;
  const last = edges.length - 2;
  const bins: InsightBin[] = [];
  const lo = edges[0];
  const hi = edges[edges.length - 1];
  if (counts.under)
    bins.push({
      kind: 'under',
      lo: -Infinity,
      hi: lo,
      count: counts.under,
      filter: `<${s(lo)}`,
      label: `x < ${f(lo)}`,
    });
  counts.counts.forEach((count, i) => {
    const [a, b] = [edges[i], edges[i + 1]];
    const closed = i === last;
    bins.push({
      kind: 'bin',
      lo: a,
      hi: b,
      count,
      filter: closed ? `${s(a)}..${s(b)}` : `${s(a)}..<${s(b)}`,
      label: closed ? `${f(a)} ≤ x ≤ ${f(b)}` : `${f(a)} ≤ x < ${f(b)}`,
    });
  });
  if (counts.over)
    bins.push({ kind: 'over', lo: hi, hi: Infinity, count: counts.over, filter: `>${s(hi)}`, label: `x > ${f(hi)}` });
  return bins;
}

/**
 * The values whose percentiles set the bins, into `scratch`: all of them up to QUANTILE_SAMPLE rows, else
 * every k-th row (evenly spaced, the same rows each time); returns how many (NaN left out).
 */
function robustSample(values: Float64Array, scratch: Float64Array): number {
  const stride = Math.max(1, Math.ceil(values.length / QUANTILE_SAMPLE));
  let n = 0;
  for (let i = 0; i < values.length; i += stride) {
    const v = values[i];
    if (!Number.isNaN(v)) scratch[n++] = v;
  }
  return n;
}

/**
 * A number column's insight (its values, NaN empty); `scratch` (≥ QUANTILE_SAMPLE long) is reused between
 * columns. The bins come from the sample's percentiles, so one pass counts everything; a column whose sample
 * has no spread (or no value) is binned over its range, in a second pass.
 */
function numberInsight(values: Float64Array, scratch: Float64Array): NumberInsight {
  const sampled = robustSample(values, scratch);
  const [p1, p99] = quantilesInPlace(scratch, sampled, ROBUST_QUANTILES);
  const robust = p99 > p1 ? roundEdges(p1, p99) : undefined;
  const scan = scanNumbers(values, robust ?? [0, 1]);
  const base = { rows: values.length, missing: values.length - scan.n, distinct: scan.distinct };
  if (!scan.n) return { kind: 'number', ...base, min: Number.NaN, max: Number.NaN, edges: [], bins: [] };
  const edges = robust ?? roundEdges(scan.min, scan.max);
  const counts = robust ? scan.counts : binCounts(values, edges);
  return { kind: 'number', ...base, min: scan.min, max: scan.max, edges, bins: binsOf(edges, counts) };
}

function timeInsight(values: Float64Array): TimeInsight {
  let missing = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) missing++;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const empty = missing === values.length;
  return {
    kind: 'time',
    rows: values.length,
    missing,
    distinct: distinctNumbers(values),
    min: empty ? Number.NaN : min,
    max: empty ? Number.NaN : max,
  };
}

/** A dictionary column's insight: counts per code, the top values, each with its `=value` filter. */
function valuesInsight(column: Exclude<Column, NumericColumn>, rows: number): ValuesInsight {
  const counts = new Float64Array(column.dict.length);
  const codes = column.codes.subarray(0, rows);
  let missing = 0;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c < 0) missing++;
    else counts[c]++;
  }
  let distinct = 0;
  for (let c = 0; c < counts.length; c++) if (counts[c]) distinct++;
  const text = (c: number) => (column.kind === 'qcFlags' ? formatFlags(column.dict[c]) : (column.dict as string[])[c]);
  // A value whose text is empty (a QC flags list with no flag) is named; it has no filter of its own, as "="
  // would show the missing cells too (they read alike).
  const top = topCodes(counts, TOP_VALUES).map((c) => ({
    text: text(c) || '(none)',
    count: counts[c],
    filter: text(c) ? `=${text(c)}` : undefined,
  }));
  const shown = top.reduce((s, v) => s + v.count, 0);
  return { kind: 'values', rows: codes.length, missing, distinct, top, other: codes.length - missing - shown };
}

/** The codes of the k largest counts (> 0), largest first, ties in code order. */
function topCodes(counts: Float64Array, k: number): number[] {
  const top: number[] = [];
  for (let c = 0; c < counts.length; c++) {
    if (!counts[c]) continue;
    let at = top.length;
    while (at > 0 && counts[top[at - 1]] < counts[c]) at--;
    if (at < k) {
      top.splice(at, 0, c);
      if (top.length > k) top.pop();
    }
  }
  return top;
}

/**
 * Insights of every column from the table's rows (a growing table's arrays may be longer than its rowCount).
 * `only`: the columns to compute (others undefined), e.g. the ones shown.
 */
export function columnInsights(table: Table, only?: ReadonlySet<number>): (ColumnInsight | undefined)[] {
  const rows = table.rowCount;
  const scratch = new Float64Array(Math.min(rows, QUANTILE_SAMPLE));
  return table.columns.map((c, i) => {
    if (only && !only.has(i)) return undefined;
    if (c.kind === 'time') return timeInsight(c.values.subarray(0, rows));
    if (isNumeric(c)) return numberInsight(floatValues(c).subarray(0, rows), scratch);
    return valuesInsight(c, rows);
  });
}
