// Each notebook's time zone (an IANA name) and day boundary, in its metadata (`timeZone`, `dayBoundary`), else the
// settings `measurements.timeZone` (default UTC) and `measurements.dayBoundary` (default clock). Shown in the status
// bar while a .measnb is active and picked from there or the notebook toolbar (a searchable list of the IANA zones,
// the current one first). A change re-labels the notebook's outputs (their ResultInfo.timeZone), so their times
// and days follow at once; sql cells get it as DuckDB's TimeZone on their next run.
import * as vscode from 'vscode';
import type { ResultInfo } from '../../core/notebook/renderer-protocol';
import { type NotebookZone, notebookZone } from '../../core/notebook/time-zone';
import { checkTimeZone, type DayBoundary, DEFAULT_TIME_ZONE, timeZoneNames } from '../../core/time/zone';
import { pickOne } from '../ui/quick-input';
import { registerCommand } from '../ui/register-command';
import { NotebookStatusItem, notebookToChange } from './notebook-status';

export const SELECT_TIME_ZONE_COMMAND = 'measurements.notebook.selectTimeZone';

/** The settings' zone and boundary (the defaults of notebooks without their own, and of the table editor). */
export function settingsZone(): NotebookZone {
  const config = vscode.workspace.getConfiguration('measurements');
  const defaults = { timeZone: config.get<unknown>('timeZone'), dayBoundary: config.get<unknown>('dayBoundary') };
  try {
    return notebookZone(undefined, defaults);
  } catch {
    return notebookZone(undefined); // a bad setting: UTC with clock days (the status bar says which zone is used)
  }
}

/** The notebook's zone: its metadata's, else the settings'; a bad metadata value falls back to the settings. */
export function zoneOfNotebook(notebook: vscode.NotebookDocument): NotebookZone {
  const fallback = settingsZone();
  try {
    return notebookZone(notebook.metadata, { timeZone: fallback.name, dayBoundary: fallback.dayBoundary });
  } catch {
    return fallback;
  }
}

/** The outputs' info with the zone (what the renderer shows and counts the times in). */
export function withZone(info: ResultInfo, zone: NotebookZone): ResultInfo {
  return { ...info, timeZone: { name: zone.name, dayBoundary: zone.dayBoundary } };
}

type ZonePick = vscode.QuickPickItem & { zone?: string; boundary?: DayBoundary };

/** The quick pick's items: the current zone first, the other boundary, then every IANA zone (searchable). */
function zoneItems(current: NotebookZone): ZonePick[] {
  const other: DayBoundary = current.dayBoundary === 'clock' ? 'standard' : 'clock';
  const boundaryText: Record<DayBoundary, string> = {
    clock: 'days in civil time, daylight saving included (23/25-hour days)',
    standard: "days in standard time all year (EPA's local standard time)",
  };
  return [
    { label: current.name, description: `current · ${current.dayBoundary} days`, zone: current.name },
    { label: `$(calendar) Day boundary: ${other}`, description: boundaryText[other], boundary: other },
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    ...timeZoneNames()
      .filter((n) => n !== current.name)
      .map((n): ZonePick => ({ label: n, zone: n })),
  ];
}

export class NotebookTimeZones implements vscode.Disposable {
  private readonly status = new NotebookStatusItem({
    id: 'measurements.notebookTimeZone',
    name: 'Measurements notebook time zone',
    command: SELECT_TIME_ZONE_COMMAND,
    priority: 99,
    label: (notebook) => {
      const zone = zoneOfNotebook(notebook);
      const standard = zone.dayBoundary === 'standard' ? ' (standard)' : '';
      return {
        text: `$(globe) ${zone.name}${standard}`,
        tooltip: `Times and days of this notebook: ${zone.name}, ${zone.dayBoundary} days. Click to change.`,
      };
    },
  });
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly relabel: (notebook: vscode.NotebookDocument, zone: NotebookZone) => Promise<void>) {
    this.subs.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('measurements.timeZone') || e.affectsConfiguration('measurements.dayBoundary'))
          this.status.update();
      }),
      registerCommand(SELECT_TIME_ZONE_COMMAND, (uri?: vscode.Uri, zone?: string, boundary?: string) =>
        this.pick(uri, zone, boundary),
      ),
    );
  }

  /**
   * Picks the notebook's zone (or the other day boundary) and writes it to its metadata. `zone`/`boundary` given
   * (tests, links): set without asking. A zone typed that is not one is refused with the checker's words.
   */
  private async pick(uri?: vscode.Uri, zone?: string, boundary?: string): Promise<void> {
    const notebook = notebookToChange(uri);
    if (!notebook) return;
    const current = zoneOfNotebook(notebook);
    let next: NotebookZone;
    if (zone !== undefined || boundary !== undefined) {
      next = notebookZone({ timeZone: zone ?? current.name, dayBoundary: boundary ?? current.dayBoundary });
    } else {
      const picked = await pickOne(zoneItems(current), {
        title: 'Time zone of this notebook',
        placeholder: 'Times are shown and days counted in… (type to search, e.g. Denver)',
      });
      if (!picked) return;
      next = { name: picked.zone ?? current.name, dayBoundary: picked.boundary ?? current.dayBoundary };
    }
    await setNotebookZone(notebook, next);
    await this.relabel(notebook, next);
    this.status.update();
  }

  dispose(): void {
    this.status.dispose();
    for (const s of this.subs) s.dispose();
  }
}

/** Writes the zone to the notebook's metadata (checked first). */
async function setNotebookZone(notebook: vscode.NotebookDocument, zone: NotebookZone): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const metadata: Record<string, unknown> = {
    ...notebook.metadata,
    timeZone: checkTimeZone(zone.name ?? DEFAULT_TIME_ZONE),
    dayBoundary: zone.dayBoundary,
  };
  edit.set(notebook.uri, [vscode.NotebookEdit.updateNotebookMetadata(metadata)]);
  await vscode.workspace.applyEdit(edit);
}
