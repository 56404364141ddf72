// Regulatory-style statistics: the 98th percentile by the rank tables of 40 CFR 50 Appendix N (PM2.5, Table 1)
// and Appendix S (NO2, Table 1), not an interpolated percentile; data capture with the 18-hour rule; days above
// the 24-hour standards; local standard time days; the daily SQL's text.
import assert from 'node:assert/strict';
import {
  type DailyValue,
  dailyValuesSql,
  INDICATIVE_LABEL,
  p98ByRank,
  p98Rank,
  periodDays,
  regulatoryStatistics,
  standardOffsetMinutes,
} from '../../../../src/core/aq/regulatory';
import { quantileSorted } from '../../../../src/core/aq/stats';
import { daysFromCivil } from '../../../../src/core/time/iso';

describe('core aq regulatory: the 98th percentile by rank (40 CFR 50 Appendix N Table 1, Appendix S Table 1)', () => {
  // Appendix N, Table 1 ("Annual number of creditable samples" → "P0.98 is the (n)th maximum value"):
  // 1–50 → 1, 51–100 → 2, 101–150 → 3, 151–200 → 4, 201–250 → 5, 251–300 → 6, 301–350 → 7, 351–366 → 8.
  // Appendix S, Table 1 (days with valid daily maximum 1-hour values) has the same ranks.
  const TABLE: Array<[number, number]> = [
    [0, 0],
    [1, 1],
    [50, 1],
    [51, 2],
    [100, 2],
    [101, 3],
    [150, 3],
    [151, 4],
    [200, 4],
    [201, 5],
    [250, 5],
    [251, 6],
    [300, 6],
    [301, 7],
    [350, 7],
    [351, 8],
    [365, 8],
    [366, 8],
  ];
  for (const [n, rank] of TABLE) it(`${n} valid days → rank ${rank}`, () => assert.equal(p98Rank(n), rank));

  it('is the rank-th highest value, not the interpolated percentile', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
    assert.deepEqual(p98ByRank(v), { value: 99, rank: 2, n: 100 }); // the 2nd highest
    assert.equal(quantileSorted(v, 0.98), 98.02); // numpy.percentile(range(1, 101), 98): what it is not
    const w = Array.from({ length: 101 }, (_, i) => 101 - i); // any order, 101 values → the 3rd highest
    assert.equal(p98ByRank(w).value, 99);
    assert.deepEqual(p98ByRank([Number.NaN, 4, 7]), { value: 7, rank: 1, n: 2 });
    assert.ok(Number.isNaN(p98ByRank([]).value));
  });
});

/** Daily values on consecutive days from `first`: `hours` each, mean `mean(i)`, max mean + 10. */
function days(first: number, count: number, hours: (i: number) => number, mean: (i: number) => number): DailyValue[] {
  return Array.from({ length: count }, (_, i) => ({
    day: first + i,
    hours: hours(i),
    mean: mean(i),
    max: mean(i) + 10,
  }));
}

describe('core aq regulatory: capture, means, days above', () => {
  const jan1 = daysFromCivil(2026, 1, 1);

  it('quarters and years have their calendar lengths (2024 a leap year)', () => {
    assert.equal(periodDays({ year: 2026, offsetMinutes: 0 }).days, 365);
    assert.equal(periodDays({ year: 2024, offsetMinutes: 0 }).days, 366);
    assert.deepEqual(
      [1, 2, 3, 4].map((quarter) => periodDays({ year: 2026, quarter, offsetMinutes: 0 }).days),
      [90, 91, 92, 92],
    );
    assert.equal(periodDays({ year: 2024, quarter: 1, offsetMinutes: 0 }).days, 91);
  });

  it('a day is valid with ≥ 18 hours; capture = valid days / days of the quarter and of the year', () => {
    // Q1 2026 (90 days): every day has data, every 10th has only 17 hours (9 days invalid): 81 valid.
    // Q2: no data. Q3: 46 days of 18 hours. Q4: 92 full days.
    const q3 = daysFromCivil(2026, 7, 1);
    const q4 = daysFromCivil(2026, 10, 1);
    const values = [
      ...days(
        jan1,
        90,
        (i) => (i % 10 === 9 ? 17 : 24),
        () => 10,
      ),
      ...days(
        q3,
        46,
        () => 18,
        () => 20,
      ),
      ...days(
        q4,
        92,
        () => 24,
        (i) => (i < 5 ? 40 : 30),
      ),
    ];
    const rows = regulatoryStatistics(values, { year: 2026, offsetMinutes: 0 }, 'pm2_5');
    assert.deepEqual(
      rows.map((r) => [r.period, r.days, r.validDays]),
      [
        ['2026 Q1', 90, 81],
        ['2026 Q2', 91, 0],
        ['2026 Q3', 92, 46],
        ['2026 Q4', 92, 92],
        ['2026', 365, 219],
      ],
    );
    assert.equal(rows[0].capturePercent, 90);
    assert.equal(rows[2].capturePercent, 50);
    assert.equal(rows[4].capturePercent, (100 * 219) / 365);
    // The annual mean of daily means: (81·10 + 46·20 + 5·40 + 87·30) / 219.
    assert.equal(rows[4].meanOfDailyMeans, (81 * 10 + 46 * 20 + 5 * 40 + 87 * 30) / 219);
    assert.ok(Number.isNaN(rows[1].meanOfDailyMeans));
    // 219 valid days → rank 5 (201–250): the 5th highest daily mean is 40; days above 35 µg/m³: 5.
    assert.deepEqual([rows[4].p98, rows[4].p98Rank, rows[4].daysAbove], [40, 5, 5]);
    assert.deepEqual([rows[3].p98, rows[3].p98Rank], [40, 2]);
  });

  it('NO2: the 98th percentile and days above 100 ppb are of the daily maximum 1-hour values', () => {
    const values = days(
      jan1,
      60,
      () => 24,
      (i) => (i < 3 ? 95 : 50),
    ); // max = mean + 10
    const [q1] = regulatoryStatistics(values, { year: 2026, quarter: 1, offsetMinutes: 0 }, 'no2');
    assert.deepEqual([q1.period, q1.validDays, q1.p98, q1.p98Rank, q1.daysAbove], ['2026 Q1', 60, 105, 2, 3]);
  });

  it('days outside the period are left out; a metric without a standard has no days-above count', () => {
    const values = [
      ...days(
        jan1 - 5,
        5,
        () => 24,
        () => 99,
      ),
      ...days(
        jan1,
        3,
        () => 24,
        () => 1,
      ),
    ];
    const [q1] = regulatoryStatistics(values, { year: 2026, quarter: 1, offsetMinutes: 0 }, 'other');
    assert.deepEqual([q1.validDays, q1.meanOfDailyMeans, q1.p98], [3, 1, 1]);
    assert.ok(Number.isNaN(q1.daysAbove));
  });
});

describe('core aq regulatory: the daily SQL', () => {
  it('bounds the period in UTC instants of local standard midnight, counts days on the shifted epoch', () => {
    const sql = dailyValuesSql({
      from: '"pm"',
      timeColumn: 'time',
      valueColumn: 'pm2_5ConcMass1HourMean.value',
      datasource: "D1' OR '1'='1",
      period: { year: 2026, quarter: 3, offsetMinutes: -420 }, // Denver's standard time, UTC−07:00
    });
    assert.match(sql, new RegExp(`^-- Daily values \\(${INDICATIVE_LABEL}\\): local standard time, UTC-07:00$`, 'm'));
    assert.match(
      sql,
      /"time" >= TIMESTAMPTZ '2026-07-01 07:00:00\+00' AND "time" < TIMESTAMPTZ '2026-10-01 07:00:00\+00'/,
    );
    assert.match(sql, /floor\(\(epoch_ms\("time"\) \+ -25200000\) \/ 3600000\)/);
    assert.match(sql, /"datasourceId" = 'D1'' OR ''1''=''1'/);
    assert.match(sql, /avg\("pm2_5ConcMass1HourMean\.value"::DOUBLE\)/);
  });
});

describe('core aq regulatory: local standard time of a zone', () => {
  it('is the zone offset without daylight saving, for the whole year', () => {
    assert.equal(standardOffsetMinutes('America/Denver', 2026), -420);
    assert.equal(standardOffsetMinutes('Australia/Sydney', 2026), 600); // DST in January there: July's offset
    assert.equal(standardOffsetMinutes('Asia/Kolkata', 2026), 330);
    assert.equal(standardOffsetMinutes('UTC', 2026), 0);
    assert.throws(() => standardOffsetMinutes('Mars/Olympus', 2026), /not an IANA time zone|Mars/);
  });
});
