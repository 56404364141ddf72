// measq cells: diagnostics as you type, completion and hover, all from the core query language.
import * as vscode from 'vscode';
import {
  type CompletionItem,
  type CompletionKind,
  completeAt,
  type DatasourceSuggestion,
  type Diagnostic,
  hoverAt,
  isBlankCell,
  LANGUAGE_ID,
  parseCell,
} from '../../core/query';

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

/** Datasource ids of a document's connection; fetched once per connection and cached for a while. */
export type DatasourceSource = (doc: vscode.TextDocument) => Promise<DatasourceSuggestion[]>;

export function registerLanguageFeatures(datasources: DatasourceSource): vscode.Disposable[] {
  const collection = vscode.languages.createDiagnosticCollection('measq');
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const check = (doc: vscode.TextDocument) => {
    if (!isMeasqCell(doc)) return;
    // A blank cell (just added, or only comments) is not a problem yet: running it still says what to write.
    const text = doc.getText();
    const diagnostics = isBlankCell(text) ? [] : parseCell(text).diagnostics;
    collection.set(doc.uri, diagnostics.map(toVsDiagnostic));
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
          const items = await completeAt(
            doc.getText(),
            { line: position.line, column: position.character },
            { datasources: () => datasources(doc).catch(() => []) },
          );
          return items.map((i) => toCompletionItem(i));
        },
      },
      ':',
      ' ',
      ',',
    ),
    vscode.languages.registerHoverProvider(selector, {
      provideHover(doc, position) {
        const hover = hoverAt(doc.getText(), { line: position.line, column: position.character });
        return hover ? new vscode.Hover(new vscode.MarkdownString(hover.contents), toRange(hover.range)) : undefined;
      },
    }),
  ];
}

function toCompletionItem(i: CompletionItem): vscode.CompletionItem {
  const item = new vscode.CompletionItem(i.label, ITEM_KIND[i.kind]);
  if (i.insertText !== undefined) item.insertText = i.insertText;
  if (i.detail) item.detail = i.detail;
  if (i.documentation) item.documentation = new vscode.MarkdownString(i.documentation);
  return item;
}
