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
  type ServiceKind,
  unknownIdDiagnostics,
} from '../../core/query';
import { notebookParams } from '../../core/query/notebook-params';
import { type ParamDef, paramValues } from '../../core/query/params';
import { completeSql } from '../../core/sql/completion';
import { engineErrorDiagnostic } from '../../core/sql/errors';
import { notebookNameDiagnostics } from '../../core/sql/names';
import type { SqlSession } from '../../core/sql/session.node';
import { type Clock, nowDate } from '../../core/time/clock';
import { isTrusted } from '../trust';

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
  parameter: vscode.CompletionItemKind.Variable,
};

/** What sql cells need of their notebook: its other cells (result names) and its SQL session. */
interface NotebookContext {
  notebookOf(doc: vscode.TextDocument): vscode.NotebookDocument | undefined;
  sessionOf(notebook: vscode.NotebookDocument): SqlSession;
}

/** A cell whose verb line is `sql` (also while its SQL is still empty or wrong). */
export function isSqlCell(text: string): boolean {
  const verbLine = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  return verbLine?.trim().split(/\s+/)[0] === 'sql';
}

/** The parameters of a cell's notebook (its params cell), none outside a notebook. */
function paramsOf(doc: vscode.TextDocument, notebooks: NotebookContext | undefined): ParamDef[] {
  const nb = notebooks?.notebookOf(doc);
  return nb ? notebookParams(measqCells(nb).map((d) => d.getText())).defs : [];
}

function measqCells(nb: vscode.NotebookDocument): vscode.TextDocument[] {
  return nb
    .getCells()
    .filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === LANGUAGE_ID)
    .map((c) => c.document);
}

const toRange = (r: Diagnostic['range']) => new vscode.Range(r.start.line, r.start.column, r.end.line, r.end.column);

function toVsDiagnostic(d: Diagnostic): vscode.Diagnostic {
  let message = d.message;
  if (d.suggestion && !message.includes(d.suggestion)) message += ` Did you mean ${d.suggestion}?`;
  const out = new vscode.Diagnostic(toRange(d.range), message, SEVERITY[d.severity]);
  out.source = 'measq';
  out.code = d.code;
  return out;
}

/** Ids the connection does not have, when its datasources are at hand (cached by completion or hover). */
export function unknownIdWarnings(doc: vscode.TextDocument, datasources: DatasourceSource): Diagnostic[] {
  const cached = datasources(doc)?.cached?.();
  return cached ? unknownIdDiagnostics(doc.getText(), cached) : [];
}

function isMeasqCell(doc: vscode.TextDocument): boolean {
  return doc.languageId === LANGUAGE_ID;
}

/** The datasources of a document's connection (cached per connection), or undefined outside a notebook. */
export type DatasourceSource = (doc: vscode.TextDocument) => DatasourceLookup | undefined;

/** Who a document's cells go to (its notebook's connection): what the metric catalogue may refuse. */
export type ServiceSource = (doc: vscode.TextDocument) => ServiceKind;

export function registerLanguageFeatures(
  clock: Clock,
  datasources: DatasourceSource,
  serviceOf: ServiceSource,
  notebooks?: NotebookContext,
): vscode.Disposable[] {
  const collection = vscode.languages.createDiagnosticCollection('measq');
  const check = notebookChecker(collection, clock, serviceOf, datasources, notebooks);
  const schedule = debounced(check, 150);
  vscode.workspace.textDocuments.forEach(check);
  const selector: vscode.DocumentSelector = { language: LANGUAGE_ID };
  return [
    collection,
    schedule,
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidChangeTextDocument((e) => schedule.run(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => collection.delete(doc.uri)),
    // Another connection for the notebook (its metadata) changes what the catalogue may refuse: check again
    // (checking one cell checks all of its notebook).
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      const first = e.metadata ? measqCells(e.notebook)[0] : undefined;
      if (first) check(first);
    }),
    // Restricted Mode left sql cells unchecked by DuckDB: check them once trust is granted.
    vscode.workspace.onDidGrantWorkspaceTrust(() => vscode.workspace.textDocuments.forEach(check)),
    vscode.languages.registerCompletionItemProvider(
      selector,
      {
        provideCompletionItems(doc, position) {
          const nb = notebooks?.notebookOf(doc);
          if (nb && notebooks && isSqlCell(doc.getText())) return sqlCompletions(doc, position, nb, notebooks, clock);
          return measqCompletions(doc, position, datasources, clock, paramsOf(doc, notebooks));
        },
      },
      ':',
      ' ',
      ',',
      '.',
      '{',
    ),
    vscode.languages.registerHoverProvider(selector, {
      provideHover: (doc, pos) => hover(doc, pos, datasources, clock, paramsOf(doc, notebooks)),
    }),
  ];
}

/**
 * Checks a measq cell: its own diagnostics, plus (in a notebook) the result-name diagnostics of the whole
 * notebook, since a change in one cell can make a name in another valid or duplicate.
 */
function notebookChecker(
  collection: vscode.DiagnosticCollection,
  clock: Clock,
  serviceOf: ServiceSource,
  datasources: DatasourceSource,
  notebooks: NotebookContext | undefined,
): (doc: vscode.TextDocument) => void {
  const checkOne = (doc: vscode.TextDocument, extra: Diagnostic[] = []) => {
    const ids = unknownIdWarnings(doc, datasources);
    const params = paramValues(paramsOf(doc, notebooks)).values;
    const at = { now: nowDate(clock), service: serviceOf(doc), params };
    checkCell(collection, doc, at, [...extra, ...ids], notebooks);
  };
  return (doc) => {
    if (!isMeasqCell(doc)) return;
    const nb = notebooks?.notebookOf(doc);
    if (!nb) {
      checkOne(doc);
      return;
    }
    // Result names tie cells together: a change in one cell re-checks all of its notebook.
    const cells = measqCells(nb);
    const byCell = notebookNameDiagnostics(
      cells.map((d) => d.getText()),
      nowDate(clock),
    );
    for (const [i, d] of cells.entries()) checkOne(d, byCell[i]);
  };
}

/** One cell's diagnostics; a sql cell's SQL is then checked by DuckDB's own parser as well. */
function checkCell(
  collection: vscode.DiagnosticCollection,
  doc: vscode.TextDocument,
  at: { now: Date; service: ServiceKind; params: ReturnType<typeof paramValues>['values'] },
  extra: Diagnostic[],
  notebooks: NotebookContext | undefined,
): void {
  // A blank cell (just added, or only comments) is not a problem yet: running it still says what to write.
  const text = doc.getText();
  const parsed = parseCell(text, at);
  const diagnostics = isBlankCell(text) ? extra : [...parsed.diagnostics, ...extra];
  collection.set(doc.uri, diagnostics.map(toVsDiagnostic));
  const sql = parsed.cell?.sql;
  const nb = notebooks?.notebookOf(doc);
  // Restricted Mode loads no engine: the SQL is checked by DuckDB once the workspace is trusted.
  if (!sql || !nb || !notebooks || !isTrusted()) return;
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
}

/** Runs `fn` for a document `ms` after its last change (typing stays smooth, diagnostics follow at once). */
function debounced(
  fn: (doc: vscode.TextDocument) => void,
  ms: number,
): vscode.Disposable & { run(doc: vscode.TextDocument): void } {
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  return {
    run(doc) {
      const key = doc.uri.toString();
      clearTimeout(pending.get(key));
      pending.set(
        key,
        setTimeout(() => {
          pending.delete(key);
          fn(doc);
        }, ms),
      );
    },
    dispose() {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    },
  };
}

/** Completion in a sql cell: the notebook's result names, and their columns from the SQL session. */
async function sqlCompletions(
  doc: vscode.TextDocument,
  position: vscode.Position,
  nb: vscode.NotebookDocument,
  notebooks: NotebookContext,
  clock: Clock,
): Promise<vscode.CompletionItem[]> {
  const session = notebooks.sessionOf(nb);
  const now = nowDate(clock);
  const params = paramValues(paramsOf(doc, notebooks)).values;
  const results = measqCells(nb).flatMap((d, i) => {
    const c = parseCell(d.getText(), { now, params }).cell;
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
    if (i.filterText) item.filterText = i.filterText;
    if (i.detail) item.detail = i.detail;
    if (i.replaceFrom !== undefined)
      item.range = new vscode.Range(position.line, i.replaceFrom, position.line, position.character);
    return item;
  });
}

/** Completion in a measq cell: verbs, keys, values, and the connection's ids for the id keys. */
async function measqCompletions(
  doc: vscode.TextDocument,
  position: vscode.Position,
  datasources: DatasourceSource,
  clock: Clock,
  params: ParamDef[],
): Promise<vscode.CompletionItem[]> {
  const items = await completeAt(
    doc.getText(),
    { line: position.line, column: position.character },
    {
      now: nowDate(clock),
      params,
      datasources: async () =>
        (await datasources(doc)
          ?.list()
          .catch(() => [])) ?? [],
    },
  );
  return items.map((i) => toCompletionItem(i));
}

/** Hover: an id (described from the connection's datasources), else the word's documentation. */
async function hover(
  doc: vscode.TextDocument,
  position: vscode.Position,
  datasources: DatasourceSource,
  clock: Clock,
  params: ParamDef[],
): Promise<vscode.Hover | undefined> {
  const at = { line: position.line, column: position.character };
  const id = idAt(doc.getText(), at);
  const lookup = id && datasources(doc);
  if (id && lookup)
    return new vscode.Hover(serviceMarkdown(await describeId(id.key, id.id, lookup)), toRange(id.range));
  const h = hoverAt(doc.getText(), at, { now: nowDate(clock), params });
  return h ? new vscode.Hover(serviceMarkdown(h.contents), toRange(h.range)) : undefined;
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
