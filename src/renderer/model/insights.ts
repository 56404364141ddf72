// Column insights (the strip under the headers, like Data Wrangler's "Quick Insights"): per column its missing
// share, distinct count and range; for numbers a histogram whose bins span the 1st–99th percentile in a
// round step, with an underflow and an overflow bin for what lies outside (so one outlier does not flatten
// the rest); for text, status and QC columns the most frequent values. Each bin and value carries the column
// filter (model/filter grammar) that shows exactly its rows. Computed from every row the table holds.
import { quantilesInPlace } from '../../core/aq/stats';
import {
  type Column,
  type DictCodes,
  floatValues,
  isNumeric,
  type NumericColumn,
  type Table,
} from '../../core/table/table';
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
/**
 * Distinct numbers (and times) are counted up to this many: past it the count says "at least" and the rest of the
 * column is not hashed (bounded time and memory, 2 MB of set, on a column of a million different values).
 */
export const DISTINCT_LIMIT = 100_000;
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
  /**
   * Distinct values; for numbers and times counted up to DISTINCT_LIMIT (then `distinctCapped`), and undefined
   * until counted when the insights were asked for without them (`countDistinct` fills them in).
   */
  distinct?: number;
  distinctCapped?: boolean;
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

/** A slot in a table of mask + 1 slots from a double's two 32-bit words (the caller passes +0's for −0). */
function hashSlot(lo: number, hi: number, mask: number): number {
  let x = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca6b);
  x ^= x >>> 15;
  return x & mask;
}

/** A double's two 32-bit words, read through one shared buffer. */
const wordsOf = new Float64Array(1);
const words32 = new Uint32Array(wordsOf.buffer);

/**
 * A set of doubles with rows per value (open addressing, hashed on their two 32-bit words; NaN marks a free slot
 * and is never a key; −0 is kept as 0): starts small and doubles at half full, so a few distinct values stay in cache.
 */
class DoubleSet {
  size = 0;
  keys = DoubleSet.empty(1024);
  /** Rows per slot (the key's rows as added). */
  rows = new Float64Array(1024);

  private static empty(size: number): Float64Array {
    return new Float64Array(size).fill(Number.NaN);
  }

  /** Adds v (not NaN) with `rows` rows; whether it was new. */
  add(v: number, rows = 1): boolean {
    const keys = this.keys;
    const mask = keys.length - 1;
    wordsOf[0] = v + 0; // −0 + 0 is +0
    let slot = hashSlot(words32[0], words32[1], mask);
    let key = keys[slot];
    while (key !== v && !Number.isNaN(key)) {
      slot = (slot + 1) & mask;
      key = keys[slot];
    }
    this.rows[slot] += rows;
    if (key === v) return false;
    keys[slot] = v + 0;
    if (++this.size * 2 > keys.length) this.grow();
    return true;
  }

  /** The keys in a table twice the size (it was half full). */
  private grow(): void {
    const [old, oldRows] = [this.keys, this.rows];
    this.keys = DoubleSet.empty(old.length * 2);
    this.rows = new Float64Array(old.length * 2);
    this.size = 0;
    for (let k = 0; k < old.length; k++) if (!Number.isNaN(old[k])) this.add(old[k], oldRows[k]);
  }
}

/** The bin of v in [edges[0], edges[n]]: by arithmetic, then set right against the edges (round edges are not exact multiples). */
function binOf(v: number, edges: Float64Array, perUnit: number): number {
  const n = edges.length - 1;
  // v ≥ edges[0] here and n is small: truncation is the floor.
  let b = ((v - edges[0]) * perUnit) | 0;
  if (b > n - 1) b = n - 1;
  if (v < edges[b]) b--;
  else if (b < n - 1 && v >= edges[b + 1]) b++;
  return b;
}

/** v's index among the bins over `edges` (n of them), then under (n) and over (n + 1); v not NaN. */
function slotOf(v: number, edges: Float64Array, n: number, e0: number, eN: number, perUnit: number): number {
  return v < e0 ? n : v > eN ? n + 1 : binOf(v, edges, perUnit);
}

interface Histogram {
  under: number;
  counts: number[];
  over: number;
}

/** Counts into `counts` (bins, then under, over) as a Histogram. */
function histogramOf(counts: Float64Array): Histogram {
  const bins = counts.length - 2;
  return { under: counts[bins], counts: Array.from(counts.subarray(0, bins)), over: counts[bins + 1] };
}

/**
 * One pass over `values` (NaN skipped): how many, their range, and their counts in the bins of `edgeList` as
 * numpy.histogram counts them ([a, b), the last [a, b]), with the values under and over.
 */
function scanCounts(values: Float64Array, edgeList: readonly number[]) {
  const edges = Float64Array.from(edgeList);
  const bins = edges.length - 1;
  const counts = new Float64Array(bins + 2); // then under, over
  const [e0, eN, perUnit] = [edges[0], edges[bins], bins / (edges[bins] - edges[0])];
  let [n, min, max] = [0, Infinity, -Infinity];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    n++;
    if (v < min) min = v;
    if (v > max) max = v;
    counts[slotOf(v, edges, bins, e0, eN, perUnit)]++;
  }
  return { n, min, max, histogram: histogramOf(counts) };
}

/** Counts of `values` (NaN skipped) in the bins of `edgeList` with the values under and over (scanCounts). */
export function binCounts(values: Float64Array, edgeList: readonly number[]): Histogram {
  return scanCounts(values, edgeList).histogram;
}

/**
 * The scales at which a column's values may be whole numbers, coarsest first: times (ms) in whole hours,
 * minutes, seconds; numbers in whole units, tenths, … millionths (decimal text read as a double).
 */
const QUANTA = [1 / 3_600_000, 1 / 60_000, 1 / 1000, 1, 10, 100, 1000, 1e4, 1e5, 1e6];
/** Values looked at (evenly spaced) to pick a column's scale. */
const QUANTUM_PROBES = 1024;
/** The most bits in a seen-set (2 MB): a wider range of keys is hashed instead. */
const SEEN_BITS = 1 << 24;

/**
 * The coarsest scale p at which the probed values (up to QUANTUM_PROBES, evenly spaced, NaN skipped) are
 * whole numbers that read back: Math.round(v · p) / p === v (0 when none), and the probed values' range.
 */
function quantumOf(values: Float64Array): { p: number; lo: number; hi: number } {
  const stride = Math.max(1, Math.ceil(values.length / QUANTUM_PROBES));
  let [lo, hi] = [Infinity, -Infinity];
  for (let i = 0; i < values.length; i += stride) {
    const v = values[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  for (const p of QUANTA) {
    let fits = true;
    for (let i = 0; i < values.length && fits; i += stride) {
      const v = values[i];
      fits = Number.isNaN(v) || Math.round(v * p) / p === v;
    }
    if (fits) return { p, lo, hi };
  }
  return { p: 0, lo, hi };
}

/**
 * The distinct non-NaN values of a number or time column in [min, max] (−0 and 0 as one), up to
 * DISTINCT_LIMIT. A value v that is a whole number q = round(v · p) at the column's scale p with q / p === v
 * sets bit q in a seen-set over the range's keys (q determines v, so equal bits are equal values); the others
 * (or all, when the range is too wide for the seen-set) go to a hash set. A run of equal values is looked at once.
 */
function distinctOf(values: Float64Array, min: number, max: number): { distinct: number; distinctCapped: boolean } {
  const { p } = quantumOf(values);
  const first = Math.round(min * p);
  const span = Math.round(max * p) - first + 1;
  const others = new DoubleSet();
  const distinct =
    p > 0 && span <= Math.min(SEEN_BITS, 64 * values.length)
      ? seenDistinct(values, p, first, new Int32Array((span + 31) >>> 5), others)
      : hashedDistinct(values, others);
  return { distinct, distinctCapped: distinct === DISTINCT_LIMIT };
}

/** distinctOf's count through the seen-set `seen` of keys from `first` on, the values that do not fit in `others`. */
function seenDistinct(values: Float64Array, p: number, first: number, seen: Int32Array, others: DoubleSet): number {
  let distinct = 0;
  let last = Number.NaN;
  for (let i = 0; i < values.length && distinct < DISTINCT_LIMIT; i++) {
    const v = values[i];
    if (Number.isNaN(v) || v === last) continue;
    last = v;
    const q = Math.round(v * p);
    if (q / p === v) {
      // q − first is in [0, span): rounding is monotone and min ≤ v ≤ max (−0 sets the bit of +0).
      const k = q - first;
      const bit = 1 << (k & 31);
      const word = seen[k >>> 5];
      if (word & bit) continue;
      seen[k >>> 5] = word | bit;
      distinct++;
    } else if (others.add(v)) distinct++;
  }
  return distinct;
}

/** distinctOf's count through the hash set alone. */
function hashedDistinct(values: Float64Array, set: DoubleSet): number {
  let last = Number.NaN;
  for (let i = 0; i < values.length && set.size < DISTINCT_LIMIT; i++) {
    const v = values[i];
    if (Number.isNaN(v) || v === last) continue;
    last = v;
    set.add(v);
  }
  return set.size;
}

/** Distinct non-NaN values (−0 and 0 as one), up to DISTINCT_LIMIT. */
export function distinctNumbers(values: Float64Array): number {
  const { min, max } = rangeOf(values);
  return distinctOf(values, min, max).distinct;
}

/** Bins with their tooltips (numbers as cells show them) and filters (each edge's exact shortest text). */
function binsOf(edges: number[], counts: Histogram): InsightBin[] {
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

/** Every how many rows the robust sample takes one: all rows up to QUANTILE_SAMPLE. */
function sampleStride(rows: number): number {
  return Math.max(1, Math.ceil(rows / QUANTILE_SAMPLE));
}

/**
 * The values whose percentiles set the bins, into `scratch`: all of them up to QUANTILE_SAMPLE rows, else
 * every k-th row (evenly spaced, the same rows each time); returns how many (NaN left out).
 */
function robustSample(values: Float64Array, scratch: Float64Array): number {
  const stride = sampleStride(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i += stride) {
    const v = values[i];
    if (!Number.isNaN(v)) scratch[n++] = v;
  }
  return n;
}

/** How many values (NaN left out) and their range. */
function rangeOf(values: Float64Array): { n: number; min: number; max: number } {
  let [n, min, max] = [0, Infinity, -Infinity];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    n++;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { n, min, max };
}

/**
 * What one pass over a number or time column found: how many values (NaN left out), their range and distinct
 * count (up to DISTINCT_LIMIT), and its histogram over any edges, made from the counts per value, not the rows.
 */
interface Tally {
  n: number;
  min: number;
  max: number;
  distinct: number;
  histogram(edges: readonly number[]): Histogram;
}

/** Buffers reused between the columns of one columnInsights call. */
interface Scratch {
  /** The robust sample (QUANTILE_SAMPLE long at most). */
  sample: Float64Array;
  /** Rows per key of the keyed tally, and the sample's rows per key (keysLimit long each), made when first needed. */
  perKey?: Int32Array;
  sampledPerKey?: Int32Array;
}

/** The most keys a column is counted by (4 MB of counts); at most 4 per row (and 4,096) past the rows. */
const KEYED_MAX = 1 << 20;
const keysLimit = (rows: number) => Math.min(KEYED_MAX, 4 * rows + 4096);
/** The keyed tally's keys outside its window (one per row) it keeps; past that many it gives up. */
const OUTLIERS_MAX = 4096;

/**
 * The keys a keyed tally counts in place: first … first + span − 1 at p. On the column's scale (quantumOf) a key
 * is its value (q / p); off any scale, `valueAt` holds the one value each key was seen with.
 */
interface KeyWindow {
  p: number;
  first: number;
  span: number;
  valueAt?: Float64Array;
}

/** Keys spread over the probed range of a column on no scale (each must be one value, else the hash tallies). */
const VALUED_KEYS = 16_384;

/**
 * The keys counted in place: at the column's scale p (quantumOf), else at VALUED_KEYS over the probed rows'
 * range (keys checked against the value each holds); three times the probed rows' keys (and 4,096 more) around
 * them, so the rows the probe skipped land inside but for a few. Undefined when the probed keys are too many.
 */
function keyWindow(values: Float64Array, limit: number): KeyWindow | undefined {
  const probed = quantumOf(values);
  const valued = !probed.p;
  const p = valued ? (probed.hi > probed.lo ? VALUED_KEYS / (probed.hi - probed.lo) : 1) : probed.p;
  const low = Math.round(probed.lo * p);
  const seen = Math.round(probed.hi * p) - low + 1;
  if (!(seen >= 1 && seen <= limit)) return undefined;
  const span = Math.min(limit, 3 * seen + 4096);
  const valueAt = valued ? new Float64Array(span).fill(Number.NaN) : undefined;
  return { p, first: low - Math.floor((span - seen) / 2), span, valueAt };
}

/** Where keyedCount counts: rows per key in the window (all, and the sample's), values outside it (one per row). */
interface KeyedCounts {
  perKey: Int32Array;
  sampled: Int32Array;
  outliers: number[];
  sampledOutliers: number[];
}

/** Whether key k of `valueAt` is v's: it was seen with v, or is now (it was free). */
function keyOf(valueAt: Float64Array, k: number, v: number): boolean {
  const held = valueAt[k];
  if (held === v) return true;
  if (!Number.isNaN(held)) return false;
  valueAt[k] = v;
  return true;
}

/** A block of rows counted by keyedCount: the values missing in it, −1 when it gives up. */
type BlockCount = (values: Float64Array, start: number, end: number, w: KeyWindow, into: KeyedCounts) => number;

/** keyedCount's rows start … end − 1 of a column on its scale: q / p === v, so the key is the value. */
function scaleBlock(values: Float64Array, start: number, end: number, w: KeyWindow, into: KeyedCounts): number {
  const { p, first, span } = w;
  const { perKey, outliers } = into;
  let missing = 0;
  for (let i = start; i < end; i++) {
    const v = values[i];
    const q = Math.round(v * p);
    if (q / p !== v) {
      // NaN is never its own key's value.
      if (!Number.isNaN(v)) return -1;
      missing++;
      continue;
    }
    const k = q - first; // −0 counts as +0
    if (k >= 0 && k < span) perKey[k]++;
    else if (outliers.push(v) > OUTLIERS_MAX) return -1;
  }
  return missing;
}

/** keyedCount's rows start … end − 1 of a column on no scale: each key holds the one value it was seen with. */
function valuedBlock(values: Float64Array, start: number, end: number, w: KeyWindow, into: KeyedCounts): number {
  const { p, first, span } = w;
  const valueAt = w.valueAt as Float64Array;
  const { perKey, outliers } = into;
  let missing = 0;
  for (let i = start; i < end; i++) {
    const v = values[i];
    const k = Math.round(v * p) - first; // NaN is in no window
    if (k >= 0 && k < span) {
      if (!keyOf(valueAt, k, v)) return -1;
      perKey[k]++;
    } else if (Number.isNaN(v)) missing++;
    else if (outliers.push(v) > OUTLIERS_MAX) return -1;
  }
  return missing;
}

/**
 * One pass: each value's key round(v · p) counted in `perKey` when in the window, the values outside it listed
 * in `outliers` (scaleBlock, valuedBlock); the rows robustSample takes (the first of each block of `stride`, read
 * again while in cache) the same in `sampled` and `sampledOutliers`. How many values are missing; undefined when
 * a value is off the scale (or shares its key with another) or too many are outside.
 */
function keyedCount(values: Float64Array, w: KeyWindow, into: KeyedCounts): number | undefined {
  const { p, first, span } = w;
  const block: BlockCount = w.valueAt ? valuedBlock : scaleBlock;
  const stride = sampleStride(values.length);
  let missing = 0;
  for (let start = 0; start < values.length; start += stride) {
    const counted = block(values, start, Math.min(values.length, start + stride), w, into);
    if (counted < 0) return undefined;
    missing += counted;
    const v = values[start];
    const k = Math.round(v * p) - first;
    if (k >= 0 && k < span) into.sampled[k]++;
    else if (!Number.isNaN(v)) into.sampledOutliers.push(v);
  }
  return missing;
}

/** The value of key k of the window (k from first). */
function valueOfKey(w: KeyWindow, k: number): number {
  return w.valueAt ? w.valueAt[k] : (k + w.first) / w.p;
}

/**
 * The tally of a column in one pass (keyedCount), with the robust sample's quantiles from the sample's rows per
 * key. Undefined (nothing counted) when keyedCount gives up.
 */
function keyedTally(values: Float64Array, scratch: Scratch): (Tally & { quantiles: number[] }) | undefined {
  const limit = keysLimit(values.length);
  const w = keyWindow(values, limit);
  if (!w) return undefined;
  scratch.perKey ??= new Int32Array(limit);
  scratch.sampledPerKey ??= new Int32Array(limit);
  const [perKey, sampled] = [scratch.perKey.subarray(0, w.span), scratch.sampledPerKey.subarray(0, w.span)];
  perKey.fill(0);
  sampled.fill(0);
  const into: KeyedCounts = { perKey, sampled, outliers: [], sampledOutliers: [] };
  const missing = keyedCount(values, w, into);
  if (missing === undefined) return undefined;
  const ascending = (a: number, b: number) => a - b;
  return {
    ...keyedSummary(perKey, w, into.outliers.sort(ascending), values.length - missing),
    quantiles: keyedQuantiles(sampled, w, into.sampledOutliers.sort(ascending), ROBUST_QUANTILES),
  };
}

/**
 * The quantiles of the sample (quantilesInPlace's, the same arithmetic) from its rows per key in the window and
 * its values outside (ascending); `qs` ascending.
 */
function keyedQuantiles(sampled: Int32Array, w: KeyWindow, outside: number[], qs: readonly number[]): number[] {
  let n = outside.length;
  for (let k = 0; k < sampled.length; k++) n += sampled[k];
  if (!n) return qs.map(() => Number.NaN);
  // Each quantile's rank and the next (quantilesInPlace takes the value itself past the last), ascending.
  const ranks = qs.flatMap((q) => [Math.floor((n - 1) * q), Math.min(Math.floor((n - 1) * q) + 1, n - 1)]);
  const at: number[] = [];
  let before = 0; // rows of the values taken so far
  const take = (value: number, rows: number) => {
    while (at.length < ranks.length && ranks[at.length] < before + rows) at.push(value);
    before += rows;
  };
  let j = 0;
  for (; j < outside.length && Math.round(outside[j] * w.p) < w.first; j++) take(outside[j], 1);
  for (let k = 0; k < sampled.length; k++) if (sampled[k]) take(valueOfKey(w, k), sampled[k]);
  for (; j < outside.length; j++) take(outside[j], 1);
  return qs.map((q, i) => {
    const [pos, lo, next] = [(n - 1) * q, at[2 * i], at[2 * i + 1]];
    return lo + (next - lo) * (pos - Math.floor(pos));
  });
}

/** keyedCount's counts as a Tally: range and distinct count from the keys with rows, bins by walking the edges. */
function keyedSummary(perKey: Int32Array, w: KeyWindow, outliers: number[], n: number): Tally {
  let [lowest, highest, distinct] = [-1, -1, 0];
  for (let k = 0; k < perKey.length; k++) {
    if (!perKey[k]) continue;
    if (lowest < 0) lowest = k;
    highest = k;
    distinct++;
  }
  for (let j = 0; j < outliers.length; j++) if (j === 0 || outliers[j] !== outliers[j - 1]) distinct++;
  const histogram = (edgeList: readonly number[]): Histogram => {
    const edges = Float64Array.from(edgeList);
    const bins = edges.length - 1;
    const counts = new Float64Array(bins + 2); // then under, over
    const [e0, eN] = [edges[0], edges[bins]];
    let b = 0;
    for (let k = 0; k < perKey.length; k++) {
      const rows = perKey[k];
      if (!rows) continue;
      const v = valueOfKey(w, k);
      if (v < e0) counts[bins] += rows;
      else if (v > eN) counts[bins + 1] += rows;
      else {
        while (b < bins - 1 && v >= edges[b + 1]) b++;
        counts[b] += rows;
      }
    }
    const perUnit = bins / (eN - e0);
    for (const v of outliers) counts[slotOf(v, edges, bins, e0, eN, perUnit)]++;
    return histogramOf(counts);
  };
  const inside = lowest < 0 ? [Infinity, -Infinity] : [valueOfKey(w, lowest), valueOfKey(w, highest)];
  const min = Math.min(inside[0], outliers[0] ?? Infinity);
  const max = Math.max(inside[1], outliers.at(-1) ?? -Infinity);
  return { n, min, max, distinct: Math.min(distinct, DISTINCT_LIMIT), histogram };
}

/** The most distinct values a hashed tally counts (a table of at most 32,768 slots); past it the column is scanned. */
const HASHED_MAX = 1 << 14;

/**
 * The tally of a column with few distinct values (not all on one scale), in one pass: the rows per value in a
 * hash set, a run of equal values added once. Undefined when it has more than HASHED_MAX distinct values.
 */
function hashedTally(values: Float64Array): Tally | undefined {
  const set = new DoubleSet();
  let [missing, last, run] = [0, Number.NaN, 0];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === last) run++;
    else if (Number.isNaN(v)) missing++;
    else {
      if (run) set.add(last, run);
      if (set.size > HASHED_MAX) return undefined;
      [last, run] = [v, 1];
    }
  }
  if (run) set.add(last, run);
  const { keys, rows } = set;
  let [min, max] = [Infinity, -Infinity];
  for (let k = 0; k < keys.length; k++) {
    const v = keys[k];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const histogram = (edgeList: readonly number[]): Histogram => {
    const edges = Float64Array.from(edgeList);
    const bins = edges.length - 1;
    const counts = new Float64Array(bins + 2); // then under, over
    const [e0, eN, perUnit] = [edges[0], edges[bins], bins / (edges[bins] - edges[0])];
    for (let k = 0; k < keys.length; k++)
      if (!Number.isNaN(keys[k])) counts[slotOf(keys[k], edges, bins, e0, eN, perUnit)] += rows[k];
    return histogramOf(counts);
  };
  return { n: values.length - missing, min, max, distinct: set.size, histogram };
}

/** A tally's distinct count as the insight gives it. */
function distinctIn(tally: Tally): { distinct: number; distinctCapped: boolean } {
  return { distinct: tally.distinct, distinctCapped: tally.distinct >= DISTINCT_LIMIT };
}

/**
 * A number column's insight (its values, NaN empty). The bins come from the robust sample's percentiles (or the
 * range, when the sample has no spread). A column tallied in one pass (keyedTally, else hashedTally) has its
 * range, bins and distinct count from the tally (and by key, the sample's percentiles too); others are scanned
 * (range and bins in one pass), their distinct values counted apart.
 */
function numberInsight(values: Float64Array, scratch: Scratch, distinct: boolean): NumberInsight {
  const keyed = keyedTally(values, scratch);
  const [p1, p99] =
    keyed?.quantiles ?? quantilesInPlace(scratch.sample, robustSample(values, scratch.sample), ROBUST_QUANTILES);
  const robust = p99 > p1 ? roundEdges(p1, p99) : undefined;
  const tally = keyed ?? hashedTally(values);
  const scan = !tally && robust ? scanCounts(values, robust) : undefined;
  const { n, min, max } = tally ?? scan ?? rangeOf(values);
  const base = { rows: values.length, missing: values.length - n };
  const counted = tally ? distinctIn(tally) : distinct ? distinctOf(values, min, max) : {};
  if (!n) return { kind: 'number', ...base, ...counted, min: Number.NaN, max: Number.NaN, edges: [], bins: [] };
  const edges = robust ?? roundEdges(min, max);
  const histogram = tally ? tally.histogram(edges) : (scan?.histogram ?? binCounts(values, edges));
  return { kind: 'number', ...base, ...counted, min, max, edges, bins: binsOf(edges, histogram) };
}

/** A time column's insight: its range and distinct count from one tally, or a range pass (distinct apart). */
function timeInsight(values: Float64Array, scratch: Scratch, distinct: boolean): TimeInsight {
  const tally = keyedTally(values, scratch) ?? hashedTally(values);
  const { n, min, max } = tally ?? rangeOf(values);
  return {
    kind: 'time',
    rows: values.length,
    missing: values.length - n,
    ...(tally ? distinctIn(tally) : distinct ? distinctOf(values, min, max) : {}),
    min: n ? min : Number.NaN,
    max: n ? max : Number.NaN,
  };
}

/**
 * Rows per code (codes < 0 are missing; a code past the dictionary is neither, as before): four rows at a time
 * into four lanes of counts, so a run of one code does not wait on its own last increment; code c counts at
 * 4 · (c + 1) + lane, so −1 (the empty cell) needs no test. A code below −1 or past the dictionary falls
 * outside the lanes (its increment is lost): then the counts do not add up to the rows and are made again
 * code by code.
 */
function codeCounts(codes: DictCodes, size: number): { counts: Float64Array; missing: number } {
  const lanes = new Int32Array(4 * size + 4);
  const whole = codes.length - (codes.length % 4);
  for (let i = 0; i < whole; i += 4) {
    lanes[4 * codes[i] + 4]++;
    lanes[4 * codes[i + 1] + 5]++;
    lanes[4 * codes[i + 2] + 6]++;
    lanes[4 * codes[i + 3] + 7]++;
  }
  for (let i = whole; i < codes.length; i++) lanes[4 * codes[i] + 4]++;
  let total = 0;
  for (let k = 0; k < lanes.length; k++) total += lanes[k];
  if (total !== codes.length) return strayCodeCounts(codes, size);
  const counts = new Float64Array(size);
  for (let c = 0; c < size; c++) counts[c] = lanes[4 * c + 4] + lanes[4 * c + 5] + lanes[4 * c + 6] + lanes[4 * c + 7];
  return { counts, missing: lanes[0] + lanes[1] + lanes[2] + lanes[3] };
}

/** codeCounts of codes some of which are below −1 or past the dictionary, one code at a time. */
function strayCodeCounts(codes: DictCodes, size: number): { counts: Float64Array; missing: number } {
  const counts = new Float64Array(size);
  let missing = 0;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c < 0) missing++;
    else if (c < size) counts[c]++;
  }
  return { counts, missing };
}

/** A dictionary column's insight: counts per code, the top values, each with its `=value` filter. */
function valuesInsight(column: Exclude<Column, NumericColumn>, rows: number): ValuesInsight {
  const codes = column.codes.subarray(0, rows);
  const { counts, missing } = codeCounts(codes, column.dict.length);
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

/** A number or time column's values as the insights read them (the table's rows only). */
function valuesOf(column: NumericColumn, rows: number): Float64Array {
  return floatValues(column).subarray(0, rows);
}

/**
 * Insights of every column from the table's rows (a growing table's arrays may be longer than its rowCount).
 * `only`: the columns to compute (others undefined), e.g. the ones shown. `distinct: false` leaves the distinct
 * counts of time columns and of number columns not counted by key (a seen-set or hash pass of their own) for
 * `countDistinct`, so the strip can be drawn first and its counts filled in a frame later.
 */
export function columnInsights(
  table: Table,
  only?: ReadonlySet<number>,
  options: { distinct?: boolean } = {},
): (ColumnInsight | undefined)[] {
  const rows = table.rowCount;
  const scratch: Scratch = { sample: new Float64Array(Math.min(rows, QUANTILE_SAMPLE)) };
  const distinct = options.distinct ?? true;
  return table.columns.map((c, i) => {
    if (only && !only.has(i)) return undefined;
    if (c.kind === 'time') return timeInsight(valuesOf(c, rows), scratch, distinct);
    if (isNumeric(c)) return numberInsight(valuesOf(c, rows), scratch, distinct);
    return valuesInsight(c, rows);
  });
}

/** Counts the distinct values the insights were computed without, in place (the same table and rows). */
export function countDistinct(table: Table, insights: readonly (ColumnInsight | undefined)[]): void {
  insights.forEach((insight, i) => {
    const c = table.columns[i];
    if (!insight || insight.distinct !== undefined || insight.kind === 'values' || !isNumeric(c)) return;
    Object.assign(insight, distinctOf(valuesOf(c, insight.rows), insight.min, insight.max));
  });
}
