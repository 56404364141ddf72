// CSV writing (RFC 4180 quoting), shared by the emulator, the CLI and table export.

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvRow(fields: readonly string[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) line += (i ? ',' : '') + csvField(fields[i]);
  return `${line}\n`;
}
