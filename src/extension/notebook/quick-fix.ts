// Quick fixes in measq cells: the cell checker's did-you-mean (core/query quickFixes) as code actions, so
// the light bulb on "unknown metric label 'pm2_5ConcMassNowcst'" offers pm2_5ConcMassNowcast, and on an
// unknown datasource id (with the connection's datasources cached) the closest id.
import * as vscode from 'vscode';
import { LANGUAGE_ID, parseCell, quickFixes } from '../../core/query';
import type { ParamValues } from '../../core/query/params';
import { type Clock, nowDate } from '../../core/time/clock';
import { type DatasourceSource, type ServiceSource, unknownIdWarnings } from './language';

const toRange = (r: { start: { line: number; column: number }; end: { line: number; column: number } }) =>
  new vscode.Range(r.start.line, r.start.column, r.end.line, r.end.column);

export function registerQuickFixes(
  clock: Clock,
  serviceOf: ServiceSource,
  datasources: DatasourceSource,
  /** The parameters of a cell's notebook (its params cell's defaults): what `{{name}}` may name. */
  paramsOf: (doc: vscode.TextDocument) => ParamValues = () => new Map(),
): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider(
    { language: LANGUAGE_ID },
    {
      provideCodeActions(doc, range, context) {
        const text = doc.getText();
        const at = { now: nowDate(clock), service: serviceOf(doc), params: paramsOf(doc) };
        const { diagnostics } = parseCell(text, at);
        return quickFixes(text, [...diagnostics, ...unknownIdWarnings(doc, datasources)])
          .filter((fix) => toRange(fix.range).intersection(range) !== undefined)
          .map((fix) => {
            const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
            action.edit = new vscode.WorkspaceEdit();
            action.edit.replace(doc.uri, toRange(fix.range), fix.newText);
            action.diagnostics = context.diagnostics.filter(
              (d) => d.code === fix.diagnostic.code && d.range.isEqual(toRange(fix.range)),
            );
            action.isPreferred = true;
            return action;
          });
      },
    },
    { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
  );
}
