// A sql cell whose result is `rows` × 20 columns of what a measurement table holds (a time, an id, an
// index and 17 numbers), made by DuckDB's range(): the big result of the progressive-output tests (host
// and e2e) and of the host → renderer benchmark.

/** The cell's lines (join them with '\n' for its text). */
export function bigSqlCellLines(rows) {
  return [
    'sql',
    'SELECT TIMESTAMPTZ \'2026-11-01 00:00:00+00\' + to_minutes(i) AS "time",',
    "  'D' || lpad(CAST(i % 400 AS VARCHAR), 7, '0') AS datasourceId,",
    '  CAST(i AS DOUBLE) AS i,',
    ...Array.from(
      { length: 17 },
      (_, k) => `  round(((i * ${k + 7}) % 10007) / ${k + 3}.0, 2) AS m${k + 1}${k < 16 ? ',' : ''}`,
    ),
    `FROM range(${rows}) AS t(i)`,
  ];
}
