// Measurements: Archive Org History… (the core of `measnb archive`, with progress and Cancel) and
// Copy Archive Snippet (explorer context menu on an archive folder: how an engine reads it).
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ArchiveError, ArchiveQuotaError } from '../../core/api/errors';
import { OUTPUT_FREQUENCIES, type OutputFrequency } from '../../core/api/types';
import { type ArchiveEvent, runArchive } from '../../core/archive/archive.node';
import { MANIFEST_NAME } from '../../core/archive/manifest';
import { DEFAULT_MAX_REPORTS_PER_DAY } from '../../core/archive/plan';
import { archiveSnippet, SNIPPET_ENGINES, type SnippetEngine } from '../../core/archive/snippets';
import type { ExtensionServices } from '../services';
import { inputText, pickOne } from '../ui/quick-input';
import { registerCommand } from '../ui/register-command';

const TITLE = 'Archive Org History';

export function registerArchiveCommands(s: ExtensionServices): vscode.Disposable[] {
  return [
    registerCommand('measurements.archive', (uri?: vscode.Uri) => archiveCommand(s, uri)),
    registerCommand('measurements.copyArchiveSnippet', (uri?: vscode.Uri) => copySnippet(uri)),
  ];
}

interface ArchiveAnswers {
  dest: string;
  from: string;
  to: string;
  frequency: OutputFrequency;
  ids?: string[];
}

/** The folder (given by the Explorer, or chosen), the range, the frequency and the datasources. */
async function ask(given?: vscode.Uri): Promise<ArchiveAnswers | undefined> {
  const folder = given
    ? [given]
    : await vscode.window.showOpenDialog({
        title: `${TITLE}: the archive folder`,
        canSelectFolders: true,
        canSelectFiles: false,
        openLabel: 'Archive here',
      });
  if (!folder?.[0]) return undefined;
  const from = await inputText({ title: `${TITLE}: from (UTC date)`, placeholder: '2025-01-01' });
  if (!from) return undefined;
  const to = await inputText({ title: `${TITLE}: to (UTC date, exclusive)`, placeholder: '2026-01-01' });
  if (!to) return undefined;
  const frequency = await pickOne(
    OUTPUT_FREQUENCIES.map((f) => ({ label: f })),
    { title: `${TITLE}: output frequency` },
  );
  if (!frequency) return undefined;
  const ids = await inputText({
    title: `${TITLE}: datasource ids, comma-separated`,
    placeholder: 'empty: every datasource of the org',
  });
  if (ids === undefined) return undefined;
  const list = ids
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  return {
    dest: folder[0].fsPath,
    from,
    to,
    frequency: frequency.label as OutputFrequency,
    ids: list.length ? list : undefined,
  };
}

function eventText(e: ArchiveEvent): string {
  switch (e.kind) {
    case 'plan':
      return `${e.toFetch} of ${e.months} months to fetch for ${e.datasources} datasources`;
    case 'month-report':
      return `${e.month}: report ${e.reportId} ${e.reused ? 'picked up again' : 'created'}`;
    case 'report-status':
      return `${e.month}: report ${e.reportId} ${e.status}`;
    case 'month-done':
      return `${e.month} written (${e.done}/${e.total})`;
    case 'quota-wait':
      return `the day's reports are spent; waiting until ${e.until.toISOString()}`;
  }
}

async function archiveCommand(s: ExtensionServices, folder?: vscode.Uri): Promise<string | undefined> {
  const a = await ask(folder);
  if (!a) return;
  const { connection, client } = await s.clients.forConnection();
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: TITLE, cancellable: true },
    async (progress, token) => {
      const ctrl = new AbortController();
      token.onCancellationRequested(() => ctrl.abort(new Error('cancelled')));
      let total = 0;
      try {
        const summary = await runArchive({
          client,
          clock: s.clock,
          org: connection.org,
          dest: a.dest,
          from: a.from,
          to: a.to,
          frequency: a.frequency,
          datasourceIds: a.ids,
          maxReportsPerDay: DEFAULT_MAX_REPORTS_PER_DAY,
          signal: ctrl.signal,
          onEvent: (e) => {
            if (e.kind === 'plan') total = e.toFetch;
            progress.report({
              message: eventText(e),
              increment: e.kind === 'month-done' && total ? 100 / total : undefined,
            });
          },
        });
        const done = `Archive complete: ${summary.fetched} months fetched (${summary.rows} rows), ${summary.reportsCreated} reports created.`;
        void vscode.window.showInformationMessage(done);
        return done;
      } catch (e) {
        if (ctrl.signal.aborted)
          return void vscode.window.showInformationMessage('Archive cancelled; run it again to continue.');
        if (e instanceof ArchiveQuotaError)
          return void vscode.window.showWarningMessage(
            `${e.message} ${e.remainingMonths} months left: run the archive again after ${e.resumeAt.toISOString()}.`,
          );
        if (e instanceof ArchiveError) throw new Error(e.message);
        throw e;
      }
    },
  );
}

/** Frequencies present in an archive folder (its frequency=… folders). */
async function frequenciesIn(dir: string): Promise<OutputFrequency[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return OUTPUT_FREQUENCIES.filter((f) => names.includes(`frequency=${f}`));
}

async function copySnippet(uri?: vscode.Uri): Promise<void> {
  const dir = uri?.fsPath;
  if (!dir) throw new Error('Copy Archive Snippet: choose an archive folder in the Explorer.');
  const manifest = await stat(join(dir, MANIFEST_NAME)).catch(() => undefined);
  if (!manifest?.isFile()) throw new Error(`${dir} is not an archive folder: it has no ${MANIFEST_NAME}.`);
  const picked = await pickOne(
    SNIPPET_ENGINES.map((e) => ({ label: e })),
    { title: 'Copy a snippet that reads this archive with' },
  );
  if (!picked) return;
  const engine = picked.label as SnippetEngine;
  const found = await frequenciesIn(dir);
  const which =
    found.length > 1
      ? await pickOne(
          found.map((f) => ({ label: f })),
          { title: 'Which frequency?' },
        )
      : undefined;
  if (found.length > 1 && !which) return;
  const frequency = (which?.label ?? found[0] ?? 'hour') as OutputFrequency;
  await vscode.env.clipboard.writeText(archiveSnippet(engine, { dir, frequency }));
  void vscode.window.showInformationMessage(`Copied: reading ${frequency} data of the archive with ${engine}.`);
}
