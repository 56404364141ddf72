// measq cells: diagnostics as you type, completion and hover, all from the core query language.
import * as vscode from 'vscode';
import {
  type CompletionItem,
  type CompletionKind,
  completeAt,
  type DatasourceLookup,
  type Diagnostic,
  describeId,
  hoverAt,
  idAt,
  isBlankCell,
  LANGUAGE_ID,
  parseCell,
} from '../../core/query';
import { completeSql } from '../../core/sql/completion';
import { engineErrorDiagnostic } from '../../core/sql/errors';
import { notebookNameDiagnostics } from '../../core/sql/names';
import type { SqlSession } from '../../core/sql/session.node';

const SEVERITY: Record<Diagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

const ITEM_KIND: Record<CompletionKind, vscode.CompletionItemKind> = {
  verb: vscode.CompletionItemKind.Keyword,
  reportKind: vscode.CompletionItemKind.EnumMember,
  keyword: vscode.CompletionItemKind.Keyword,
  key: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.EnumMember,
  time: vscode.CompletionItemKind.Constant,
  metric: vscode.CompletionItemKind.Field,
  datasource: vscode.CompletionItemKind.Value,
};

/** What sql cells need of their notebook: its other cells (result names) and its SQL session. */
export interface NotebookContext {
  notebookOf(doc: vscode.TextDocument): vscode.NotebookDocument | undefined;
  sessionOf(notebook: vscode.NotebookDocument): SqlSession;
}

/** A cell whose verb line is `sql` (also while its SQL is still empty or wrong). */
function isSqlCell(text: string): boolean {
  const verbLine = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  return verbLine?.trim().split(/\s+/)[0] === 'sql';
}

function measqCells(nb: vscode.NotebookDocument): vscode.TextDocument[] {
  return nb
    .getCells()
    .filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === LANGUAGE_ID)
    .map((c) => c.document);
}

const toRange = (r: Diagnostic['range']) => new vscode.Range(r.start.line, r.start.column, r.end.line, r.end.column);

export function toVsDiagnostic(d: Diagnostic): vscode.Diagnostic {
  let message = d.message;
  if (d.suggestion && !message.includes(d.suggestion)) message += ` Did you mean ${d.suggestion}?`;
  const out = new vscode.Diagnostic(toRange(d.range), message, SEVERITY[d.severity]);
  out.source = 'measq';
  out.code = d.code;
  return out;
}

function isMeasqCell(doc: vscode.TextDocument): boolean {
  return doc.languageId === LANGUAGE_ID;
}

/** The datasources of a document's connection (cached per connection), or undefined outside a notebook. */
export type DatasourceSource = (doc: vscode.TextDocument) => DatasourceLookup | undefined;

export function registerLanguageFeatures(
  datasources: DatasourceSource,
  notebooks?: NotebookContext,
): vscode.Disposable[] {
  const collection = vscode.languages.createDiagnosticCollection('measq');
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const checkOne = (doc: vscode.TextDocument, extra: Diagnostic[] = []) => {
    // A blank cell (just added, or only comments) is not a problem yet: running it still says what to write.
    const text = doc.getText();
    const parsed = parseCell(text);
    const diagnostics = isBlankCell(text) ? extra : [...parsed.diagnostics, ...extra];
    collection.set(doc.uri, diagnostics.map(toVsDiagnostic));
    const sql = parsed.cell?.sql;
    const nb = notebooks?.notebookOf(doc);
    if (!sql || !nb || !notebooks) return;
    // DuckDB's own parser (the engine loads with the notebook's first sql cell), at the cell's line and column.
    const version = doc.version;
    void notebooks
      .sessionOf(nb)
      .check(sql.text)
      .then((err) => {
        if (!err || doc.isClosed || doc.version !== version) return;
        collection.set(doc.uri, [...diagnostics, engineErrorDiagnostic(err, sql)].map(toVsDiagnostic));
      })
      .catch(() => undefined);
  };
  const check = (doc: vscode.TextDocument) => {
    if (!isMeasqCell(doc)) return;
    const nb = notebooks?.notebookOf(doc);
    if (!nb) {
      checkOne(doc);
      return;
    }
    // Result names tie cells together: a change in one cell re-checks all of its notebook.
    const cells = measqCells(nb);
    const byCell = notebookNameDiagnostics(cells.map((d) => d.getText()));
    for (const [i, d] of cells.entries()) checkOne(d, byCell[i]);
  };
  // A short debounce: typing stays smooth, diagnostics follow within a moment.
  const schedule = (doc: vscode.TextDocument) => {
    const key = doc.uri.toString();
    clearTimeout(pending.get(key));
    pending.set(
      key,
      setTimeout(() => {
        pending.delete(key);
        check(doc);
      }, 150),
    );
  };
  vscode.workspace.textDocuments.forEach(check);
  const selector: vscode.DocumentSelector = { language: LANGUAGE_ID };
  return [
    collection,
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidChangeTextDocument((e) => schedule(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => collection.delete(doc.uri)),
    vscode.languages.registerCompletionItemProvider(
      selector,
      {
        async provideCompletionItems(doc, position) {
          const nb = notebooks?.notebookOf(doc);
          if (nb && notebooks && isSqlCell(doc.getText())) {
            const session = notebooks.sessionOf(nb);
            const results = measqCells(nb).flatMap((d, i) => {
              const c = parseCell(d.getText()).cell;
              return c?.name ? [{ name: c.name, detail: `${c.verb} · cell ${i + 1}` }] : [];
            });
            const sqlItems = await completeSql(
              doc.getText(),
              { line: position.line, column: position.character },
              results,
              (name) => session.columns(name).catch(() => []),
            );
            return sqlItems.map((i) => {
              const item = new vscode.CompletionItem(
                i.label,
                i.kind === 'result' ? vscode.CompletionItemKind.Struct : vscode.CompletionItemKind.Field,
              );
              if (i.insertText) item.insertText = i.insertText;
              if (i.detail) item.detail = i.detail;
              return item;
            });
          }
          const items = await completeAt(
            doc.getText(),
            { line: position.line, column: position.character },
            {
              datasources: async () =>
                (await datasources(doc)
                  ?.list()
                  .catch(() => [])) ?? [],
            },
          );
          return items.map((i) => toCompletionItem(i));
        },
      },
      ':',
      ' ',
      ',',
      '.',
    ),
    vscode.languages.registerHoverProvider(selector, {
      async provideHover(doc, position) {
        const at = { line: position.line, column: position.character };
        const id = idAt(doc.getText(), at);
        const lookup = id && datasources(doc);
        if (id && lookup)
          return new vscode.Hover(serviceMarkdown(await describeId(id.key, id.id, lookup)), toRange(id.range));
        const hover = hoverAt(doc.getText(), at);
        return hover ? new vscode.Hover(serviceMarkdown(hover.contents), toRange(hover.range)) : undefined;
      },
    }),
  ];
}

function toCompletionItem(i: CompletionItem): vscode.CompletionItem {
  const item = new vscode.CompletionItem(i.label, ITEM_KIND[i.kind]);
  if (i.insertText !== undefined) item.insertText = i.insertText;
  if (i.detail) item.detail = i.detail;
  if (i.documentation) item.documentation = serviceMarkdown(i.documentation);
  return item;
}

/** Markdown that may hold service values (escaped by core): never trusted, no HTML, no command links. */
function serviceMarkdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
