// sql cells' time zone: the DuckDB session's TimeZone is the notebook's (UTC by default, never the machine's),
// set before the configuration is locked, with DuckDB's built-in ICU (no extension loaded): date_trunc('day', …)
// on a TIMESTAMPTZ gives local days. Expected day starts from Python's zoneinfo:
//   datetime(2026,11,1,tzinfo=ZoneInfo('America/Denver')) → 2026-11-01T06:00Z (MDT), Nov 2 → 07:00Z (MST).
import assert from 'node:assert/strict';
import { SqlSession } from '../../../../src/core/sql/session.node';
import { cellText, type Table } from '../../../../src/core/table/table';
import { HOUR_MS } from '../../../../src/core/time/duration';
import { parseIsoMs } from '../../../../src/core/time/iso';
import { TimeZoneError } from '../../../../src/core/time/zone';
import { withTimeZone } from '../../../support/time-zone';

const at = (iso: string) => parseIsoMs(iso) as number;

/** 49 hourly rows from 2026-10-31T06:00Z (Denver's Oct 31 midnight) through Nov 2 07:00Z. */
function hours(): Table {
  const times = Float64Array.from({ length: 49 }, (_, i) => at('2026-10-31T06:00Z') + i * HOUR_MS);
  return {
    columns: [
      { name: 'time', kind: 'time', values: times },
      { name: 'v', kind: 'number', values: Float64Array.from(times, () => 1) },
    ],
    rowCount: times.length,
  } as Table;
}

const DAYS = 'SELECT date_trunc(\'day\', "time") AS day, count(*) AS n FROM h GROUP BY 1 ORDER BY 1';

describe('sql cells: the session time zone', function () {
  this.timeout(60_000);
  let session: SqlSession;
  beforeEach(() => {
    session = new SqlSession();
    session.hold('h', { kind: 'table', table: hours() });
  });
  afterEach(() => session.dispose());

  const rows = (t: Table) => Array.from({ length: t.rowCount }, (_, r) => t.columns.map((c) => cellText(c, r)));

  it("America/Denver: date_trunc('day') gives local days, 24 and 25 hours (Nov 1 is the 25-hour day)", async () => {
    const t = await session.query(DAYS, { timeZone: 'America/Denver' });
    assert.deepEqual(rows(t), [
      ['2026-10-31T06:00:00.000Z', '24'],
      ['2026-11-01T06:00:00.000Z', '25'],
    ]);
    const setting = await session.query("SELECT current_setting('TimeZone') AS tz", { timeZone: 'America/Denver' });
    assert.equal(cellText(setting.columns[0], 0), 'America/Denver');
  });

  it("UTC by default, whatever the machine's zone (DuckDB's own default is the machine's)", async () => {
    const t = await withTimeZone('America/Denver', () => session.query(DAYS));
    assert.deepEqual(
      rows(t).map((r) => r[0]),
      ['2026-10-31T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z'],
    );
  });

  it('a new zone opens the engine again with every held result; the zone cannot be SET by a cell', async () => {
    await session.query(DAYS, { timeZone: 'UTC' });
    const denver = await session.query(DAYS, { timeZone: 'America/Denver' });
    assert.equal(denver.rowCount, 2);
    await assert.rejects(session.query("SET TimeZone = 'UTC'"), /SET/);
  });

  it('a bad zone is a TimeZoneError (TIME_ZONE) before DuckDB runs anything', async () => {
    await assert.rejects(
      session.query(DAYS, { timeZone: "UTC'; DROP TABLE h; --" }),
      (e: unknown) => e instanceof TimeZoneError && e.code === 'TIME_ZONE',
    );
  });
});
