import assert from 'node:assert/strict';
import type { Column, Table } from '../../../../src/core/table/table';
import { UTC } from '../../../../src/core/time/zone';
import { filterRows } from '../../../../src/renderer/model/filter';
import {
  binCounts,
  type ColumnInsight,
  columnInsights,
  countDistinct,
  DISTINCT_LIMIT,
  distinctNumbers,
  missingPercent,
  type NumberInsight,
  roundEdges,
  type ValuesInsight,
} from '../../../../src/renderer/model/insights';

const num = (values: number[]): Column => ({ name: 'v', kind: 'number', values: Float64Array.from(values) });
const one = (column: Column, rowCount = (column as { values: Float64Array }).values.length): ColumnInsight =>
  columnInsights({ rowCount, columns: [column] })[0] as ColumnInsight;

/** 1,000 values spread over [-20, 80) (times `scale`), one high outlier (1e6) and one low (-500). */
function outlierData(scale: number): number[] {
  const v: number[] = [];
  for (let i = 0; i < 1000; i++) v.push((((i * 7919) % 1000) / 10 - 20) * scale);
  return [...v, 1e6, -500];
}

/**
 * 1,000,000 tenths 0–100 with 16 rows at 5000–5006 and 16 at −2000.5 that are ≡ 7 and 9 mod 16 (never in the sample
 * of every 16th row nor among the scale's probes), −0 and NaN.
 */
function tenthsWithFarRows(): Float64Array {
  const b = new Float64Array(1_000_000);
  for (let i = 0; i < b.length; i++) {
    b[i] = ((i * 7919) % 1001) / 10;
    if (i % 65536 === 7) b[i] = 5000 + (i % 7);
    if (i % 65536 === 9) b[i] = -2000.5;
    if (i % 1009 === 1) b[i] = -0;
    if (i % 997 === 0) b[i] = Number.NaN;
  }
  return b;
}

/** The insight of one number column, its distinct count left for later where it may be. */
const insightOf = (values: Float64Array): NumberInsight =>
  columnInsights({ rowCount: values.length, columns: [{ name: 'v', kind: 'number', values }] }, undefined, {
    distinct: false,
  })[0] as NumberInsight;

describe('renderer column insights', () => {
  // Expected values from python3 + numpy 2.4.6 on the same data (the generator above, written out in python):
  //   p = np.percentile(a, [1, 99]); counts = np.histogram(a, bins=edges)[0]; (a < edges[0]).sum(); (a > edges[-1]).sum()
  //   len(np.unique(a))
  it('bins over the 1st–99th percentile in a round step, the outliers in their own bins (numpy.histogram)', () => {
    const a = one(num(outlierData(1))) as NumberInsight;
    // np.percentile: [-19.099, 78.999] -> step 10 (98.098 / 12 = 8.2, rounded up to 10)
    assert.deepEqual(a.edges, [-20, -10, 0, 10, 20, 30, 40, 50, 60, 70, 80]);
    assert.deepEqual(
      a.bins.map((b) => [b.kind, b.count]),
      [['under', 1], ...Array.from({ length: 10 }, () => ['bin', 100]), ['over', 1]],
    );
    assert.equal(a.min, -500);
    assert.equal(a.max, 1e6);
    assert.equal(a.distinct, 1002);
    const b = one(num(outlierData(0.013))) as NumberInsight;
    // np.percentile: [-0.248287, 1.026987] -> step 0.2
    assert.deepEqual(b.edges, [-0.4, -0.2, 0, 0.2, 0.4, 0.6, 0.8, 1, 1.2]);
    assert.deepEqual(
      b.bins.map((x) => x.count),
      [1, 47, 153, 154, 154, 154, 154, 154, 30, 1],
    );
  });

  it('counts as numpy.histogram does: bins [a, b), the last [a, b]; values on float edges', () => {
    // np.histogram(list(range(21)) + [20, 2, 4, -1, 21], bins=range(0, 21, 2)): under (< 0) 1, over (> 20) 1
    const ints = Float64Array.from([...Array.from({ length: 21 }, (_, i) => i), 20, 2, 4, -1, 21, Number.NaN]);
    const edges = Array.from({ length: 11 }, (_, i) => 2 * i);
    assert.deepEqual(binCounts(ints, edges), { under: 1, counts: [2, 3, 3, 2, 2, 2, 2, 2, 2, 4], over: 1 });
    // np.histogram([0.1, 0.2, 0.30000000000000004, 0.3, 0.7, 1.0], bins=[0, 0.1, …, 1.0])
    const tenths = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
    const floats = Float64Array.from([0.1, 0.2, 0.1 + 0.2, 0.3, 0.7, 1]);
    assert.deepEqual(binCounts(floats, tenths).counts, [0, 1, 1, 2, 0, 0, 0, 1, 0, 1]);
    // One ulp below an edge and on it, where (v − e0) · bins / span lands in the wrong bin by itself:
    // np.histogram([0.19999999999999998, 0.39999999999999997, 0.7999999999999999, 0.9999999999999999, -5e-324, 0.2, 0.4],
    //   bins=[-0.4, -0.2, 0, 0.2, 0.4, 0.6, 0.8, 1, 1.2]) and np.histogram([0.15, 0.3, 0.35, 0.44999999999999996,
    //   0.5499999999999999], bins=[0.1, 0.15, …, 0.7])
    const below = Float64Array.from([0.19999999999999998, 0.39999999999999997, 0.7999999999999999, 0.9999999999999999]);
    const onEdges = Float64Array.from([...below, -5e-324, 0.2, 0.4]);
    assert.deepEqual(binCounts(onEdges, roundEdges(-0.4, 1.2)).counts, [0, 1, 1, 2, 1, 1, 1, 0]);
    const twentieths = Float64Array.from([0.15, 0.3, 0.35, 0.44999999999999996, 0.5499999999999999]);
    assert.deepEqual(roundEdges(0.1, 0.7).length, 13);
    assert.deepEqual(binCounts(twentieths, roundEdges(0.1, 0.7)).counts, [0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0]);
  });

  it("gives each bin the filter that shows exactly its rows (the filter grammar's a..<b, a..b, <a, >b)", () => {
    const values = outlierData(0.013);
    const table: Table = { rowCount: values.length, columns: [num(values)] };
    const a = columnInsights(table)[0] as NumberInsight;
    assert.deepEqual(
      a.bins.map((b) => b.filter),
      [
        '<-0.4',
        '-0.4..<-0.2',
        '-0.2..<0',
        '0..<0.2',
        '0.2..<0.4',
        '0.4..<0.6',
        '0.6..<0.8',
        '0.8..<1',
        '1..1.2',
        '>1.2',
      ],
    );
    for (const bin of a.bins) {
      const rows = filterRows(table, { global: '', columns: new Map([[0, bin.filter]]) }, UTC);
      assert.equal(rows.length, bin.count, bin.filter);
    }
  });

  it('keeps round edges exact and gives one bin to a single value', () => {
    assert.deepEqual(roundEdges(0.1, 0.7), [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]);
    assert.deepEqual(roundEdges(5, 5), [5, 5.5]);
    assert.deepEqual(roundEdges(0, 0), [0, 1]);
    const constant = one(num([7, 7, Number.NaN, 7])) as NumberInsight;
    assert.deepEqual(constant.edges, [7, 8]);
    assert.deepEqual(
      constant.bins.map((b) => b.count),
      [3],
    );
    assert.equal(constant.distinct, 1);
  });

  it('interpolates the percentiles between neighbouring values as numpy.percentile does (counted by key)', () => {
    // np.percentile([0, 1, …, 9, 100], [1, 99]) -> [0.1, 90.9] (not 0 and 9): step 10, edges 0..100;
    // np.histogram(a, bins=np.arange(0, 101, 10)) -> [10, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    const a = one(num([3, 1, 4, 100, 5, 9, 2, 6, 0, 8, 7])) as NumberInsight;
    assert.deepEqual(a.edges, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    assert.deepEqual(
      a.bins.map((x) => x.count),
      [10, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    );
  });

  it('counts distinct numbers as len(numpy.unique(a[~numpy.isnan(a)])) does (-0 and 0 as one)', () => {
    assert.equal(distinctNumbers(Float64Array.from([1, 1, 2, Number.NaN, -0, 0, 1e300, 0.1 + 0.2, 0.3])), 6);
    const many = Float64Array.from({ length: 100_000 }, (_, i) => (i % 37_001) / 7);
    assert.equal(distinctNumbers(many), 37_001);
    // Past DISTINCT_LIMIT the count stops there and says so (bounded time and memory).
    const all = Float64Array.from({ length: DISTINCT_LIMIT + 5_000 }, (_, i) => i * 0.5);
    assert.equal(distinctNumbers(all), DISTINCT_LIMIT);
    const capped = one(num(Array.from(all))) as NumberInsight;
    assert.deepEqual([capped.distinct, capped.distinctCapped], [DISTINCT_LIMIT, true]);
    assert.equal((one(num([1, 2, 2])) as NumberInsight).distinctCapped, false);
  });

  it('counts 1,000,000 decimals and times exactly through the seen-set, the values off their scale through the hash', () => {
    // Expected from python3 + numpy 2.4.6 on the same data, written out in numpy:
    //   i = np.arange(1_000_000); a = ((i * 7919) % 97001) / 10; a[i % 10007 == 2] = 0.1 + 0.2
    //   a[i % 100003 == 3] = i[i % 100003 == 3] / 3; a[i % 1009 == 1] = -0.0; a[i % 997 == 0] = np.nan
    //   len(np.unique(a[~np.isnan(a)]))  -> 97011 (97,001 tenths incl. 0 and its 991 −0 rows, 0.30000000000000004,
    //   9 thirds that are no tenth; 1 = 10/10 is one)
    //   t = 1_795_132_800_000 + (i % 50021) * 60000.0; t[i % 4999 == 7] += 1; t[i % 1013 == 0] = np.nan
    //   len(np.unique(t[~np.isnan(t)]))  -> 50222 (50,021 minutes, 201 a millisecond past one)
    // The scale is probed on every 977th row, none of them off it: tenths (p = 10) and minutes (p = 1/60,000).
    const a = new Float64Array(1_000_000);
    const t = new Float64Array(1_000_000);
    for (let i = 0; i < a.length; i++) {
      a[i] = ((i * 7919) % 97001) / 10;
      if (i % 10007 === 2) a[i] = 0.1 + 0.2;
      if (i % 100003 === 3) a[i] = i / 3;
      if (i % 1009 === 1) a[i] = -0;
      if (i % 997 === 0) a[i] = Number.NaN;
      t[i] = 1_795_132_800_000 + (i % 50021) * 60_000 + (i % 4999 === 7 ? 1 : 0);
      if (i % 1013 === 0) t[i] = Number.NaN;
    }
    assert.equal(distinctNumbers(a), 97_011);
    const table: Table = {
      rowCount: a.length,
      columns: [
        { name: 'v', kind: 'number', values: a },
        { name: 't', kind: 'time', values: t },
      ],
    };
    assert.deepEqual(
      columnInsights(table).map((i) => [i?.distinct, i?.distinctCapped]),
      [
        [97_011, false],
        [50_222, false],
      ],
    );
    // One value far out makes the range too wide for the seen-set: all go through the hash, same count.
    // np.unique of the above with a[5] = 1e300 -> 97012
    a[5] = 1e300;
    assert.equal(distinctNumbers(a), 97_012);
  });

  it('bins and counts 1,000,000 tenths by key (every value on the scale), as numpy.histogram and numpy.unique', () => {
    // Expected from python3 + numpy 2.4.6 on the same data, written out in numpy:
    //   i = np.arange(1_000_000); b = ((i * 7919) % 97001) / 10; b[i % 211 == 5] = 20000 + i[i % 211 == 5] % 7
    //   b[i % 307 == 6] = -3000.5; b[i % 1009 == 1] = -0.0; b[i % 997 == 0] = np.nan; b[7] = 10000 (the last edge)
    //   np.percentile(b[::16] without NaN, [1, 99]) -> [56.336, 9648.964] -> step 1000, edges 0..10000
    //   v = b[~np.isnan(b)]; np.histogram(v, bins=np.arange(0, 10001, 1000)); (v < 0).sum(); (v > 10000).sum()
    //   len(np.unique(v)) -> 97010; v.min(), v.max() -> -3000.5, 20006
    const b = new Float64Array(1_000_000);
    for (let i = 0; i < b.length; i++) {
      b[i] = ((i * 7919) % 97001) / 10;
      if (i % 211 === 5) b[i] = 20000 + (i % 7);
      if (i % 307 === 6) b[i] = -3000.5;
      if (i % 1009 === 1) b[i] = -0;
      if (i % 997 === 0) b[i] = Number.NaN;
    }
    b[7] = 10000;
    const counts = [103057, 102072, 102069, 102066, 102061, 102066, 102067, 102062, 102067, 71441];
    const column: Column = { name: 'v', kind: 'number', values: b };
    // Counted by key, the distinct count comes with the bins even when left for later.
    const a = columnInsights({ rowCount: b.length, columns: [column] }, undefined, {
      distinct: false,
    })[0] as NumberInsight;
    assert.deepEqual(a.edges, [0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000]);
    assert.deepEqual(
      a.bins.map((x) => x.count),
      [3252, ...counts, 4716],
    );
    assert.deepEqual([a.min, a.max, a.missing, a.distinct, a.distinctCapped], [-3000.5, 20006, 1004, 97010, false]);
    // One value off the scale: the scan counts (np.histogram and np.unique after b[3] = 0.1 + 0.2, was 2375.7).
    b[3] = 0.1 + 0.2;
    const scanned = one(column) as NumberInsight;
    assert.deepEqual(
      scanned.bins.map((x) => x.count),
      [3252, 103058, 102072, 102068, ...counts.slice(3), 4716],
    );
    assert.equal(scanned.distinct, 97011);
  });

  it('can leave the distinct counts of scanned number and time columns for later: countDistinct fills in the same numbers', () => {
    // Many values off any scale (thirds; hours and a millisecond over a range too wide to key): no one-pass tally,
    // so the distinct counts are left. np.unique of the same (python3 + numpy 2.4.6):
    //   i = np.arange(20_000); v = i / 3; v[i % 101 == 5] = np.nan; v[7] = -0.0 -> 19801 (−0 is row 0's 0)
    //   t = 1.7e12 + i * 3_600_001.0; t[i % 103 == 4] = np.nan -> 19805
    const v = Float64Array.from({ length: 20_000 }, (_, i) => (i % 101 === 5 ? Number.NaN : i / 3));
    v[7] = -0;
    const t = Float64Array.from({ length: 20_000 }, (_, i) => (i % 103 === 4 ? Number.NaN : 1.7e12 + i * 3_600_001));
    // A subarray of a longer buffer (a growing table): the hash reads the values' own words.
    const values = new Float64Array(20_002);
    values.set(v);
    const table: Table = {
      rowCount: 20_000,
      columns: [
        { name: 'v', kind: 'number', values },
        { name: 't', kind: 'time', values: t },
        { name: 's', kind: 'status', dict: ['a', 'b'], codes: Int32Array.from({ length: 20_000 }, (_, i) => i % 2) },
      ],
    };
    const later = columnInsights(table, undefined, { distinct: false });
    assert.deepEqual(
      later.map((i) => i?.distinct),
      [undefined, undefined, 2],
    );
    countDistinct(table, later);
    const now = columnInsights(table);
    assert.deepEqual(
      now.map((i) => [i?.distinct, i?.distinctCapped]),
      [
        [19_801, false],
        [19_805, false],
        [2, undefined],
      ],
    );
    assert.deepEqual(later, now);
  });

  it('takes the percentiles from the rows per key of the sample, its rows outside the counted window too (numpy.percentile)', () => {
    // As the test below, with rows far out that the sample takes (≡ 0 mod 16) and the scale's probe (every 977th row)
    // does not, so they lie outside the window of keys counted in place. python3 + numpy 2.4.6, on the data below:
    //   hi = (i % 65536 == 32) & (i % 977 != 0); lo = (i % 1024 == 48) & (i % 977 != 0); b[hi] = 7000.5; b[lo] = -3000
    //   np.percentile(b[::16] without NaN, [1, 99]) -> [-3000, 99.1] (without those rows [0.9, 99]) -> step 500
    //   np.histogram(v, bins=np.arange(-3000, 501, 500)); (v > 500).sum() -> 32; len(np.unique(v)) -> 1011
    const b = tenthsWithFarRows();
    for (let i = 0; i < b.length; i++) {
      if (i % 977 === 0) continue;
      if (i % 65536 === 32) b[i] = 7000.5;
      if (i % 1024 === 48) b[i] = -3000;
    }
    const a = insightOf(b);
    assert.deepEqual(a.edges, [-3000, -2500, -2000, -1500, -1000, -500, 0, 500]);
    assert.deepEqual(
      a.bins.map((x) => x.count),
      [976, 16, 0, 0, 0, 0, 997973, 32],
    );
    assert.deepEqual([a.min, a.max, a.missing, a.distinct], [-3000, 7000.5, 1003, 1011]);
  });

  it('tallies decimals by key in one pass, the rare rows outside the sampled range too (numpy.histogram, numpy.unique)', () => {
    // Expected from python3 + numpy 2.4.6 on the same data, written out in numpy:
    //   i = np.arange(1_000_000); b = ((i * 7919) % 1001) / 10; m = i % 65536 == 7; b[m] = 5000 + i[m] % 7
    //   b[i % 65536 == 9] = -2000.5; b[i % 1009 == 1] = -0.0; b[i % 997 == 0] = np.nan
    //   (the far rows are ≡ 7, 9 mod 16: never in the sample of every 16th row, so outside the counted keys' window)
    //   np.percentile(b[::16] without NaN, [1, 99]) -> [0.9, 99] -> step 10, edges 0..100
    //   v = b[~np.isnan(b)]; np.histogram(v, bins=np.arange(0, 101, 10)); (v < 0).sum(); (v > 100).sum()
    //   len(np.unique(v)) -> 1009; v.min(), v.max() -> -2000.5, 5006
    const b = tenthsWithFarRows();
    const a = insightOf(b);
    assert.deepEqual(a.edges, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    assert.deepEqual(
      a.bins.map((x) => x.count),
      [16, 100689, 99699, 99697, 99697, 99698, 99697, 99698, 99697, 99699, 100693, 16],
    );
    assert.deepEqual([a.min, a.max, a.missing, a.distinct, a.distinctCapped], [-2000.5, 5006, 1004, 1009, false]);
    // 4,712 more rows far out (none sampled), more than the keyed tally lists outside its window: the hash tallies.
    //   m3 = (i % 199 == 3) & (i % 16 != 0); b[m3] = 3000 + (i[m3] % 11) / 10 -> the same percentiles and edges
    for (let i = 3; i < b.length; i += 199) if (i % 16 !== 0) b[i] = 3000 + (i % 11) / 10;
    const far = insightOf(b);
    assert.deepEqual(far.edges, a.edges);
    assert.deepEqual(
      far.bins.map((x) => x.count),
      [16, 100215, 99230, 99228, 99228, 99228, 99226, 99228, 99228, 99228, 100219, 4727],
    );
    assert.deepEqual([far.min, far.max, far.missing, far.distinct], [-2000.5, 5006, 999, 1020]);
  });

  it('tallies a few distinct values off any decimal scale in one pass: by key checked against its value, else by hash (numpy)', () => {
    // Latitudes as a sum makes them (47.6 + k · 0.001 is no tenth-thousandth's double), in runs of 3 rows: keyed
    // over their probed range (16,384 keys), each key holding one value.
    // Expected from python3 + numpy 2.4.6: i = np.arange(1_000_000); c = 47.6 + ((i // 3) % 500) * 0.001
    //   c[i % 1013 == 0] = np.nan; c[i % 5003 == 1] = 0.0; c[i % 5003 == 2] = -0.0
    //   np.percentile(c[::16] without NaN, [1, 99]) -> [47.604, 48.094] -> step 0.05, edges 47.6..48.1
    //   v = c[~np.isnan(c)]; np.histogram(v, bins=edges); (v < 47.6).sum() -> 400; len(np.unique(v)) -> 501
    const c = Float64Array.from({ length: 1_000_000 }, (_, i) => 47.6 + (Math.floor(i / 3) % 500) * 0.001);
    for (let i = 0; i < c.length; i++) {
      if (i % 1013 === 0) c[i] = Number.NaN;
      else if (i % 5003 === 1) c[i] = 0;
      else if (i % 5003 === 2) c[i] = -0;
    }
    const a = columnInsights({ rowCount: c.length, columns: [{ name: 'lat', kind: 'number', values: c }] }, undefined, {
      distinct: false,
    })[0] as NumberInsight;
    assert.deepEqual(a.edges, [47.6, 47.65, 47.7, 47.75, 47.8, 47.85, 47.9, 47.95, 48, 48.05, 48.1]);
    assert.deepEqual(
      a.bins.map((x) => x.count),
      [400, 99890, 99918, 99923, 99893, 99916, 99921, 99858, 99752, 99769, 99772],
    );
    assert.deepEqual([a.min, a.max, a.missing, a.distinct], [0, 48.099000000000004, 988, 501]);
    // A few values a billionth off (m = i % 7919 == 5; c[m] += 1e-9): two values would share a key, so the hash
    // tallies them: np.unique -> 628 values, max 48.099000001; the same bins.
    for (let i = 5; i < c.length; i += 7919) c[i] += 1e-9;
    const near = insightOf(c);
    assert.deepEqual(near.edges, a.edges);
    assert.deepEqual(
      near.bins.map((x) => x.count),
      a.bins.map((x) => x.count),
    );
    assert.deepEqual([near.min, near.max, near.missing, near.distinct], [0, 48.099000001, 988, 628]);
  });

  it('gives text columns their top values with counts, missing % and distinct count', () => {
    const status: Column = {
      name: 's',
      kind: 'status',
      dict: ['valid', 'invalid', 'unused', 'suspect'],
      codes: Int32Array.from([0, 0, 1, 0, -1, 3, 3, 1, 0, -1, 0, 0]),
    };
    const v = one(status, 10) as ValuesInsight; // the last two codes are past rowCount (a growing table)
    assert.deepEqual(
      v.top.map((t) => [t.text, t.count, t.filter]),
      [
        ['valid', 4, '=valid'],
        ['invalid', 2, '=invalid'],
        ['suspect', 2, '=suspect'],
      ],
    );
    assert.equal(v.missing, 2);
    assert.equal(missingPercent(v), 20);
    assert.equal(v.distinct, 3, 'unused is in the dictionary but in no row');
    assert.equal(v.other, 0);
  });

  it('counts codes four rows at a time, the rows past the last four too; a code below -1 is missing, past the dictionary in no value', () => {
    // np.unique(c, return_counts=True) of i = np.arange(1003); c = (i * 7) % 5 - 1; c[1000] = -7; c[1002] = 2
    //   -> codes -7, -1, 0, 1, 2, 3 with 1, 200, 200, 201, 201, 200 rows (3 is past the dictionary of three)
    const codes = Int16Array.from({ length: 1003 }, (_, i) => ((i * 7) % 5) - 1);
    codes[1000] = -7;
    codes[1002] = 2;
    const v = one({ name: 's', kind: 'text', dict: ['a', 'b', 'c'], codes }, 1003) as ValuesInsight;
    assert.deepEqual(
      v.top.map((t) => [t.text, t.count]),
      [
        ['b', 201],
        ['c', 201],
        ['a', 200],
      ],
    );
    assert.deepEqual([v.missing, v.distinct, v.other], [201, 3, 200]);
  });

  it('counts codes in every lane, the empty cells too, when every code is in the dictionary (the fast path)', () => {
    // np.unique(c, return_counts=True) of i = np.arange(1003); c = (i * 7) % 5 - 1
    //   -> codes -1, 0, 1, 2, 3 with 201, 200, 201, 200, 201 rows (the empty cells in all four lanes and the tail)
    const codes = Int32Array.from({ length: 1003 }, (_, i) => ((i * 7) % 5) - 1);
    const v = one({ name: 's', kind: 'text', dict: ['a', 'b', 'c', 'd'], codes }, 1003) as ValuesInsight;
    assert.deepEqual(
      v.top.map((t) => [t.text, t.count]),
      [
        ['b', 201],
        ['d', 201],
        ['a', 200],
      ],
    );
    assert.deepEqual([v.missing, v.distinct, v.other], [201, 4, 200]);
  });

  it('names a value whose text is empty (a QC flags list without flags), without a filter ("=" would take missing cells too)', () => {
    const flags: Column = {
      name: 'f',
      kind: 'qcFlags',
      dict: [[], ['QC.I.OOB.001']],
      codes: Int32Array.from([0, 1, 0, -1]),
    };
    const table: Table = { rowCount: 4, columns: [flags] };
    const v = columnInsights(table)[0] as ValuesInsight;
    assert.deepEqual(
      v.top.map((t) => [t.text, t.count, t.filter]),
      [
        ['(none)', 2, undefined],
        ['QC.I.OOB.001', 1, '=QC.I.OOB.001'],
      ],
    );
    for (const t of v.top.filter((x) => x.filter))
      assert.equal(
        filterRows(table, { global: '', columns: new Map([[0, t.filter as string]]) }, UTC).length,
        t.count,
        t.filter,
      );
  });

  it('gives time columns their range, missing and distinct counts, and computes only the columns asked for', () => {
    const time: Column = { name: 't', kind: 'time', values: Float64Array.from([3e12, Number.NaN, 1e12, 3e12]) };
    const t = one(time);
    assert.deepEqual(t, {
      kind: 'time',
      rows: 4,
      missing: 1,
      distinct: 2,
      distinctCapped: false,
      min: 1e12,
      max: 3e12,
    });
    const both = columnInsights({ rowCount: 4, columns: [time, num([1, 2, 3, 4])] }, new Set([1]));
    assert.equal(both[0], undefined);
    assert.equal(both[1]?.kind, 'number');
  });
});
