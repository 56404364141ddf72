// What a .measnb file may put in outputs and metadata, checked on read. VS Code renders whatever type an
// output item names (a hand-written text/html item with a <script>, application/javascript), so only the
// types this extension and `measnb` write are read back: the table, text/csv, text/plain, VS Code's error
// item and the saved-output summary. Other items are dropped with a visible text/plain note. Metadata
// (notebook, cell, output) keeps its known keys only with the types this extension writes (else dropped).
import { jsonItem, MIME, type NotebookOutput, type OutputItem, type OutputMetadata, textItem } from './model';

/** The output types read back from a notebook file; any other is dropped (with a note). */
export const READ_BACK_MIMES: ReadonlySet<string> = new Set<string>([
  MIME.table,
  MIME.csv,
  MIME.text,
  MIME.error,
  MIME.summary,
]);

/** The opaque id of a full result kept by the extension (its result store's file name, no folder). */
export const FULL_RESULT_ID = /^[A-Za-z0-9_-]{1,80}$/;

/** How the note names a dropped type: a MIME type as written, else "an invalid type" (no link, no control). */
function typeName(mime: unknown): string {
  return typeof mime === 'string' && /^[A-Za-z0-9][\w.+-]{0,63}\/[A-Za-z0-9][\w.+-]{0,127}$/.test(mime)
    ? mime
    : '(an invalid type)';
}

/** The visible note that replaces dropped items: how many, of which types, and why. */
export function droppedNote(types: readonly unknown[]): NotebookOutput {
  const names = [...new Set(types.map(typeName))];
  const shown = names.length > 5 ? [...names.slice(0, 5), `${names.length - 5} more`] : names;
  const text =
    `${types.length} output item(s) of type ${shown.join(', ')} were dropped: ` +
    'this extension shows only its own output types (its table, text/csv, text/plain, errors).';
  return { items: [textItem(MIME.text, text)] };
}

/** True when an item of this (raw) MIME value is read back. */
export function isReadBack(mime: unknown): boolean {
  return typeof mime === 'string' && READ_BACK_MIMES.has(mime);
}

/**
 * An item of a read-back type, checked: an error item keeps only its name and message (strings; no stack,
 * which VS Code would linkify); undefined when it is not one (then it is dropped like a foreign type).
 */
export function checkItem(item: OutputItem): OutputItem | undefined {
  if (item.mime !== MIME.error) return item;
  let e: unknown;
  try {
    e = JSON.parse(new TextDecoder().decode(item.data));
  } catch {
    return undefined;
  }
  if (!e || typeof e !== 'object') return undefined;
  const { name, message } = e as { name?: unknown; message?: unknown };
  return jsonItem(MIME.error, {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : '',
  });
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isString = (v: unknown): v is string => typeof v === 'string';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A full-result path written by `measnb run --out` is relative to the notebook's folder and stays in it
 * (`X.results/cell-2.parquet`). Any other path (absolute: the extension's storage under the user's home,
 * or one with `..`) is not trusted: it is dropped, unless `adopt` turns it into a full-result id.
 */
function isNotebookRelativePath(p: string): boolean {
  if (p.length > 260 || !/^[\w.\- ]+(\/[\w.\- ]+)*$/.test(p)) return false;
  return !p.split('/').some((s) => s === '..' || s === '.');
}

/** Checks of the known output metadata keys written by the extension and `measnb`. */
const META_CHECKS: Record<string, (v: unknown) => boolean> = {
  rowCount: isCount,
  columns: isStrings,
  truncated: (v) => typeof v === 'boolean',
  originalBytes: isCount,
  resultBytes: isCount,
  fullResultId: (v) => isString(v) && FULL_RESULT_ID.test(v),
  report: (v) => isRecord(v) && isString(v.connectionId) && isString(v.reportId),
  measnb: isResultInfo,
};

/** The renderer's info of an output (title, notes, truncation, reference sites, progressive rows), typed. */
function isResultInfo(v: unknown): boolean {
  if (!isRecord(v)) return false;
  const t = v.truncated;
  const r = v.rest;
  const names = v.datasourceNames;
  const zone = v.timeZone;
  return (
    (zone === undefined || (isRecord(zone) && isString(zone.name) && isString(zone.dayBoundary))) &&
    (v.title === undefined || isString(v.title)) &&
    (v.partial === undefined || isString(v.partial)) &&
    (v.notes === undefined || isStrings(v.notes)) &&
    (v.referenceSites === undefined || isStrings(v.referenceSites)) &&
    (names === undefined || (isRecord(names) && Object.values(names).every(isString))) &&
    (t === undefined || (isRecord(t) && isCount(t.totalRows) && isCount(t.shownRows) && isString(t.reason))) &&
    (r === undefined || (isRecord(r) && isString(r.key) && isCount(r.totalRows) && isCount(r.headRows)))
  );
}

export interface ReadOptions {
  /** An old notebook's absolute full-result path: its id when it is a file of the extension's result store. */
  adoptFullResultPath?: (path: string) => string | undefined;
}

/** Output metadata as read: known keys of the wrong type dropped, a full-result path only when trusted. */
export function checkOutputMetadata(meta: Record<string, unknown>, options: ReadOptions = {}): OutputMetadata {
  const out: OutputMetadata = {};
  for (const [k, v] of Object.entries(meta)) {
    if (k === 'fullResultPath') continue;
    const check = META_CHECKS[k];
    if (!check || check(v)) out[k] = v;
  }
  const path = meta.fullResultPath;
  if (isString(path)) {
    if (isNotebookRelativePath(path)) out.fullResultPath = path;
    else {
      const id = options.adoptFullResultPath?.(path);
      if (id && FULL_RESULT_ID.test(id) && out.fullResultId === undefined) out.fullResultId = id;
    }
  }
  return out;
}

/** A cell's id (its full-result file, its follow cursor): a plain id, else dropped (the controller gives a new one). */
const CELL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A connection name or org the notebook names: a string on one line, of a sensible length. */
const isName = (v: unknown) => isString(v) && v.length <= 200 && !/[\p{Cc}]/u.test(v);

/** A cell's metadata as read: an `id` that is not a plain id is dropped. */
export function checkCellMetadata(meta: Record<string, unknown>): Record<string, unknown> {
  if (meta.id === undefined || (isString(meta.id) && CELL_ID.test(meta.id))) return meta;
  const { id: _, ...rest } = meta;
  return rest;
}

/** The notebook's metadata as read: `connection` and `org` only as names (strings on one line, ≤ 200). */
const ZONE_KEYS = new Set(['timeZone', 'dayBoundary']);
/** A time zone name or day boundary as text (checked where used: core/notebook/time-zone). */
const isZoneText = (v: unknown): boolean => typeof v === 'string' && v.length <= 100;

export function checkNotebookMetadata(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta))
    if (((k !== 'connection' && k !== 'org') || isName(v)) && (!ZONE_KEYS.has(k) || isZoneText(v))) out[k] = v;
  return out;
}
