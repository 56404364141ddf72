// The shape of a CSV text (RFC 4180 quoting) without reading its cells: how many records, and the header's
// column names. Platform-neutral (no node, no csv-parse), for summaries of outputs too big to keep.

/** Splits one CSV record (a header line, say) into its fields; a carriage return outside quotes is dropped. */
export function splitCsvRecord(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else if (ch !== '\r') cur += ch;
  }
  out.push(cur);
  return out;
}

/** Rows (records after the header) and columns of a CSV text: counts record ends outside quotes. */
export function csvShape(text: string): { rowCount: number; columns: string[] } {
  let records = 0;
  let quoted = false;
  let headerEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 10 && !quoted) {
      records++;
      if (headerEnd < 0) headerEnd = i;
    }
  }
  if (text.length && !text.endsWith('\n')) records++;
  const header = headerEnd < 0 ? text : text.slice(0, headerEnd);
  return { rowCount: Math.max(0, records - 1), columns: header ? splitCsvRecord(header) : [] };
}
