// The table module's public surface (node side). The renderer imports './wire' and './table' directly,
// so that csv-parse and hyparquet never reach the browser bundle.
export * from './csv-export';
export { pivotJsonLong } from './json-long';
export { readParquet, writeParquet } from './parquet';
export * from './table';
export { decodeTable, encodeTable, TABLE_MIME } from './wire';
