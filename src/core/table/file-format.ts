// A table file's format from its name: the one reader of `.csv`, `.csv.gz` and `.parquet` endings (any
// case), for the file editor, sql cells over report files, downloads and `measnb --out`.

export type TableFileFormat = 'csv' | 'csv.gz' | 'parquet';

/** The format a file name ends in (`.csv`, `.csv.gz`, `.parquet`; any case), or undefined (`x.parquet.part`, `x`). */
export function formatOfName(name: string): TableFileFormat | undefined {
  const m = /\.(csv|csv\.gz|parquet)$/i.exec(name);
  return m ? (m[1].toLowerCase() as TableFileFormat) : undefined;
}

/** How a file of that name is read: `csv` for both CSV formats (gzip is undone on the way), or undefined. */
export function readerOfName(name: string): 'csv' | 'parquet' | undefined {
  const format = formatOfName(name);
  return format === 'csv.gz' ? 'csv' : format;
}

/** The refusal of a name that is not a table file's (the editor, a file opened as a table). */
export function notATableFile(name: string): string {
  return `${name} is not a .csv, .csv.gz or .parquet file.`;
}
