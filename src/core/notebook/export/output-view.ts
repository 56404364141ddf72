// What an exporter needs of a saved output, whatever its MIME types: a table (decoded from the
// renderer's wire format), an error, a summary of a result too big to keep, or plain text.

import { type StyleSlots, styleSlotsOf } from '../../aq/line-styles';
import type { Table } from '../../table/table';
import { decodeTable } from '../../table/wire';
import { type Zone, zoneOrUtc } from '../../time/zone';
import { itemText, MIME, type NotebookOutput } from '../model';

type OutputView =
  | { kind: 'table'; table: Table; title?: string; notes: string[]; zone: Zone; styles?: StyleSlots }
  | { kind: 'error'; name: string; message: string }
  | { kind: 'text'; text: string; mime: string };

/** The output's title, notes, line styles and the zone its times are shown in (ResultInfo.timeZone; UTC when absent or bad). */
function measnbInfo(output: NotebookOutput): { title?: string; notes: string[]; zone: Zone; styles?: StyleSlots } {
  const info = output.metadata?.measnb as
    | { title?: unknown; notes?: unknown; timeZone?: unknown; datasourceStyles?: unknown }
    | undefined;
  const title = typeof info?.title === 'string' ? info.title : undefined;
  const notes = Array.isArray(info?.notes) ? info.notes.filter((n): n is string => typeof n === 'string') : [];
  const tz = info?.timeZone as { name?: unknown; dayBoundary?: unknown } | undefined;
  const zone = tz && typeof tz === 'object' ? zoneOrUtc(tz.name, tz.dayBoundary) : zoneOrUtc('UTC');
  // The line styles the output's chart used (the connection's slots), when they are valid.
  return { title, notes, zone, styles: styleSlotsOf(info?.datasourceStyles) };
}

/** The best view of one output; never throws on a damaged item (it becomes a text note). */
export function outputView(output: NotebookOutput): OutputView {
  const byMime = new Map(output.items.map((i) => [i.mime, i]));
  const tableItem = byMime.get(MIME.table);
  if (tableItem) {
    try {
      return { kind: 'table', table: decodeTable(tableItem.data), ...measnbInfo(output) };
    } catch (e) {
      return {
        kind: 'text',
        mime: MIME.text,
        text: `(a table output that could not be read: ${(e as Error).message})`,
      };
    }
  }
  const error = byMime.get(MIME.error);
  if (error) {
    try {
      const e = JSON.parse(itemText(error)) as { name?: unknown; message?: unknown };
      return { kind: 'error', name: String(e.name ?? 'Error'), message: String(e.message ?? '') };
    } catch {
      return { kind: 'error', name: 'Error', message: itemText(error) };
    }
  }
  if (output.metadata?.truncated) {
    const m = output.metadata;
    const rows = typeof m.rowCount === 'number' ? `${m.rowCount.toLocaleString('en-US')} rows; ` : '';
    const where =
      typeof m.fullResultPath === 'string'
        ? `full result: ${m.fullResultPath}`
        : m.fullResultId
          ? "full result kept in the extension's storage where it ran"
          : 'not saved in the file';
    return { kind: 'text', mime: MIME.text, text: `(output too large to keep in the notebook: ${rows}${where})` };
  }
  for (const mime of [MIME.markdown, MIME.text, MIME.stdout, MIME.stderr, MIME.csv]) {
    const item = byMime.get(mime);
    if (item) return { kind: 'text', mime, text: itemText(item) };
  }
  const first = output.items[0];
  return { kind: 'text', mime: MIME.text, text: first ? `(${first.mime} output)` : '' };
}
