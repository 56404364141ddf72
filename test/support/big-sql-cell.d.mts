/** The lines of a sql cell whose result is `rows` × 20 columns (see big-sql-cell.mjs). */
export function bigSqlCellLines(rows: number): string[];
