// Completion and hover data for editors: what may be typed at a position, with documentation.
// Pure and synchronous except for the datasource-id provider the caller passes in.
import type { DatasourceInfo } from '../api/types';
import { OUTPUT_FREQUENCIES, type OutputFrequency, REPORT_KINDS, type ReportKind } from '../api/types';
import { AGGREGATION_ENGLISH } from '../metrics/catalog';
import { parseCanonicalLabel, quantityInfo } from '../metrics/labels';
import { datasourceDetail, datasourceMarkdown, datasourcesFor, idUnder } from './datasource-ids';
import type { Position, Range } from './diagnostics';
import { FIELD_DOCS, fieldDocText, REPORT_KIND_DOCS, VERB_DOCS } from './docs';
import { FIELDS, type FieldName, type IdKey, isFieldName, isIdKey, keysFor, VERBS, type Verb } from './fields';
import { matchKeyValue, type SourceLine, scanLines, words } from './lines';
import { METRIC_CATEGORIES, METRIC_SELECT_KEYWORDS, metricLabels } from './metric-select';
import { paramHover, paramRefAt, paramsCompletions, paramUnderCursor } from './param-docs';
import type { ParamDef } from './params';
import { parseTime, timeToMs } from './time';

export type CompletionKind =
  | 'verb'
  | 'reportKind'
  | 'keyword'
  | 'key'
  | 'value'
  | 'time'
  | 'metric'
  | 'datasource'
  | 'parameter';

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** Text to insert (defaults to label). */
  insertText?: string;
  /** Short type or summary line. */
  detail?: string;
  documentation?: string;
}

export type CompletionContext =
  | { kind: 'none' }
  | { kind: 'verb' }
  | { kind: 'verb-argument'; verb: Verb }
  | { kind: 'key'; verb: Verb; reportKind?: ReportKind; present: FieldName[] }
  | { kind: 'value'; verb: Verb; reportKind?: ReportKind; key: FieldName; prefix: string; frequency?: OutputFrequency };

interface CellShape {
  lines: SourceLine[];
  verbLine?: SourceLine;
  verb?: Verb;
  reportKind?: ReportKind;
  present: FieldName[];
  frequency?: OutputFrequency;
}

function shape(text: string): CellShape {
  const lines = scanLines(text);
  const verbLine = lines.find((l) => l.code.trim() !== '');
  const ws = verbLine ? words(verbLine.code) : [];
  const verb = ws[0] && (VERBS as readonly string[]).includes(ws[0].text) ? (ws[0].text as Verb) : undefined;
  const kind = ws[1]?.text;
  const reportKind =
    verb === 'report' && kind && (REPORT_KINDS as readonly string[]).includes(kind) ? (kind as ReportKind) : undefined;
  const present: FieldName[] = [];
  let frequency: OutputFrequency | undefined;
  for (const l of lines) {
    if (l === verbLine) continue;
    const kv = matchKeyValue(l.code);
    if (kv && isFieldName(kv.key)) {
      present.push(kv.key);
      if (kv.key === 'outputFrequency' && (OUTPUT_FREQUENCIES as readonly string[]).includes(kv.value)) {
        frequency = kv.value as OutputFrequency;
      }
    }
  }
  return { lines, verbLine, verb, reportKind, present, frequency };
}

/** What belongs at a position: a verb, a key, or a value of some key. */
export function completionContextAt(text: string, position: Position): CompletionContext {
  const s = shape(text);
  const line = s.lines[position.line];
  if (!line) return { kind: 'none' };
  if (line.commentStart !== undefined && position.column > line.commentStart) return { kind: 'none' };
  const before = line.code.slice(0, position.column);
  if (!s.verbLine || s.verbLine.line >= position.line) {
    const ws = words(before);
    if (ws.length === 0 || (ws.length === 1 && !/\s$/.test(before))) return { kind: 'verb' };
    const verb = ws[0].text as Verb;
    if (verb === 'report' || verb === 'follow') return { kind: 'verb-argument', verb };
    return { kind: 'none' };
  }
  if (!s.verb) return { kind: 'none' };
  const frequency = s.frequency ?? (s.verb === 'report' ? undefined : 'minute');
  const kv = matchKeyValue(before);
  if (kv) {
    if (!isFieldName(kv.key)) return { kind: 'none' };
    const prefix = before.slice(kv.colon + 1).trimStart();
    return { kind: 'value', verb: s.verb, reportKind: s.reportKind, key: kv.key, prefix, frequency };
  }
  // A continuation line of a list whose previous line ends with a comma.
  const listKey = continuedListKey(s.lines, position.line);
  if (listKey) {
    return {
      kind: 'value',
      verb: s.verb,
      reportKind: s.reportKind,
      key: listKey,
      prefix: before.trimStart(),
      frequency,
    };
  }
  if (before.trim().includes(' ')) return { kind: 'none' };
  return { kind: 'key', verb: s.verb, reportKind: s.reportKind, present: s.present };
}

function continuedListKey(lines: SourceLine[], lineNo: number): FieldName | undefined {
  for (let i = lineNo - 1; i >= 0; i--) {
    const code = lines[i].code.trim();
    if (code === '') continue;
    if (!code.endsWith(',')) return undefined;
    const kv = matchKeyValue(lines[i].code);
    if (kv) return isFieldName(kv.key) && FIELDS[kv.key].type === 'list' ? kv.key : undefined;
  }
  return undefined;
}

export interface CompletionOptions {
  /** The connection's datasources (GET /v2/datasources, cached by the caller): ids for the id keys. */
  datasources?: () => Promise<DatasourceInfo[]> | DatasourceInfo[];
  /** The instant today's date and relative times are shown for (the caller's Clock). */
  now: Date;
  /** The notebook's parameters (its params cell): completed after `{{`. */
  params?: readonly ParamDef[];
}

export async function completeAt(
  text: string,
  position: Position,
  options: CompletionOptions,
): Promise<CompletionItem[]> {
  const typed = paramRefAt(text, position);
  if (typed !== undefined) return paramsCompletions(options.params ?? [], typed);
  const ctx = completionContextAt(text, position);
  switch (ctx.kind) {
    case 'none':
      return [];
    case 'verb':
      return [
        ...VERBS.filter((v) => v !== 'report').map((v) => ({
          label: v,
          kind: 'verb' as const,
          documentation: VERB_DOCS[v],
        })),
        ...REPORT_KINDS.map((k) => ({
          label: `report ${k}`,
          kind: 'verb' as const,
          documentation: `${VERB_DOCS.report} ${REPORT_KIND_DOCS[k]}`,
        })),
        { label: 'follow every', kind: 'verb', insertText: 'follow every 5m', documentation: VERB_DOCS.follow },
      ];
    case 'verb-argument':
      if (ctx.verb === 'report') {
        return REPORT_KINDS.map((k) => ({ label: k, kind: 'reportKind', documentation: REPORT_KIND_DOCS[k] }));
      }
      return [{ label: 'every', kind: 'keyword', insertText: 'every 5m', documentation: VERB_DOCS.follow }];
    case 'key':
      return keysFor(ctx.verb, ctx.reportKind)
        .filter((f) => !ctx.present.includes(f.name))
        .map((f) => ({
          label: f.name,
          kind: 'key',
          insertText: `${f.name}: `,
          detail: FIELD_DOCS[f.name].summary,
          documentation: fieldDocText(f.name, ctx.verb),
        }));
    case 'value':
      return valueCompletions(ctx, options);
  }
}

async function valueCompletions(
  ctx: Extract<CompletionContext, { kind: 'value' }>,
  options: CompletionOptions,
): Promise<CompletionItem[]> {
  const spec = FIELDS[ctx.key];
  switch (spec.type) {
    case 'boolean':
      return ['true', 'false'].map((v) => ({ label: v, kind: 'value' }));
    case 'enum':
      return (spec.values ?? []).map((v) => ({ label: v, kind: 'value', detail: ctx.key }));
    case 'integer':
      return [];
    case 'string':
      return [];
    case 'time':
      return timeCompletions(options.now);
    case 'metricSelect':
      return metricSelectCompletions(ctx.prefix, ctx.frequency);
    case 'list':
      return isIdKey(ctx.key) && options.datasources ? idCompletions(ctx.key, ctx.prefix, options.datasources) : [];
  }
}

/** Ids for datasourceIds, nodeIds or refSiteIds (by source type), minus those already written. */
async function idCompletions(
  key: IdKey,
  prefix: string,
  datasources: NonNullable<CompletionOptions['datasources']>,
): Promise<CompletionItem[]> {
  const already = new Set(
    prefix
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return datasourcesFor(key, await datasources())
    .filter((d) => !already.has(idUnder(key, d)))
    .map((d) => ({
      label: idUnder(key, d),
      kind: 'datasource',
      insertText: idUnder(key, d),
      detail: datasourceDetail(d),
      documentation: datasourceMarkdown(d),
    }));
}

function timeCompletions(now: Date): CompletionItem[] {
  const rel = ['now', 'today', '-15m', '-90m', '-6h', '-24h', '-2d', '-7d'];
  const today = new Date(timeToMs({ kind: 'today' }, now)).toISOString().slice(0, 10);
  return [
    ...rel.map((label) => ({ label, kind: 'time' as const, detail: 'relative time, resolved when the cell runs' })),
    { label: today, kind: 'time', detail: 'ISO 8601 date (UTC)' },
    { label: `${today}T00:00:00Z`, kind: 'time', detail: 'ISO 8601 timestamp' },
  ];
}

function metricSelectCompletions(prefix: string, frequency?: OutputFrequency): CompletionItem[] {
  const items: CompletionItem[] = [];
  if (prefix.trim() === '') {
    for (const k of METRIC_SELECT_KEYWORDS) items.push({ label: k, kind: 'keyword', insertText: `${k} ` });
  }
  for (const label of metricLabels(frequency)) {
    items.push({ label, kind: 'metric', detail: 'metric label', documentation: metricDoc(label) });
  }
  for (const c of METRIC_CATEGORIES) items.push({ label: `:${c}`, kind: 'metric', detail: 'metric category' });
  return items;
}

function metricDoc(label: string): string | undefined {
  const parts = parseCanonicalLabel(label);
  if (!parts) return undefined;
  const q = quantityInfo(parts.quantity);
  const agg = parts.aggregation ? AGGREGATION_ENGLISH[parts.aggregation] : '';
  return [q ? `${q.english} (${q.unit})` : parts.quantity, agg, parts.index].filter(Boolean).join(', ');
}

export interface Hover {
  /** Markdown text. */
  contents: string;
  range: Range;
}

/** Documentation for the word under the position: a verb, report kind, key, value or metric label. */
export function hoverAt(
  text: string,
  position: Position,
  options: { now: Date; params?: readonly ParamDef[] },
): Hover | undefined {
  const s = shape(text);
  const line = s.lines[position.line];
  if (!line) return undefined;
  const col = position.column;
  const param = paramUnderCursor(line, col, s.verb === 'params' && line !== s.verbLine);
  if (param) return paramHover(param, options.params ?? [], options.now);
  const word = words(line.code).find((w) => col >= w.start && col <= w.end);
  if (!word) return undefined;
  const r: Range = { start: { line: line.line, column: word.start }, end: { line: line.line, column: word.end } };
  if (line === s.verbLine) {
    if ((VERBS as readonly string[]).includes(word.text)) {
      return { contents: `**${word.text}**: ${VERB_DOCS[word.text as Verb]}`, range: r };
    }
    if (REPORT_KIND_DOCS[word.text]) return { contents: `**${word.text}**: ${REPORT_KIND_DOCS[word.text]}`, range: r };
    return undefined;
  }
  const kv = matchKeyValue(line.code);
  if (!kv || !isFieldName(kv.key)) return undefined;
  const verb = s.verb ?? 'recent';
  if (col <= kv.keyEnd) {
    const kr: Range = {
      start: { line: line.line, column: kv.keyStart },
      end: { line: line.line, column: kv.keyEnd },
    };
    return {
      contents: `**${kv.key}** (${FIELD_DOCS[kv.key].summary})\n\n${fieldDocText(kv.key, verb).replace(/^[^:]*: /, '')}`,
      range: kr,
    };
  }
  const token = /[^\s,+]+/g;
  for (let m = token.exec(line.code); m; m = token.exec(line.code)) {
    if (m.index > col || m.index + m[0].length < col || m.index < kv.valueStart) continue;
    const tr: Range = {
      start: { line: line.line, column: m.index },
      end: { line: line.line, column: m.index + m[0].length },
    };
    const t = m[0];
    if (FIELDS[kv.key].type === 'time') {
      const p = parseTime(kv.value);
      if ('value' in p && p.value.kind !== 'absolute') {
        const at = new Date(timeToMs(p.value, options.now)).toISOString();
        return { contents: `\`${kv.value}\` is resolved when the cell runs (now it would be ${at})`, range: tr };
      }
      return undefined;
    }
    if (kv.key === 'metricSelect') {
      const doc = metricDoc(t);
      return doc ? { contents: `**${t}**: ${doc}`, range: tr } : undefined;
    }
    return undefined;
  }
  return undefined;
}

export interface IdAtPosition {
  key: IdKey;
  id: string;
  range: Range;
}

/** The id under a position in the value of datasourceIds, nodeIds or refSiteIds (also on continuation lines). */
export function idAt(text: string, position: Position): IdAtPosition | undefined {
  return idsOnLine(scanLines(text), position.line).find(
    (i) => i.range.start.column <= position.column && position.column <= i.range.end.column,
  );
}

/** Every id written in the values of datasourceIds, nodeIds and refSiteIds, with its range. */
export function idsIn(text: string): IdAtPosition[] {
  const lines = scanLines(text);
  return lines.flatMap((_, i) => idsOnLine(lines, i));
}

function idsOnLine(lines: SourceLine[], lineNo: number): IdAtPosition[] {
  const line = lines[lineNo];
  if (!line) return [];
  const kv = matchKeyValue(line.code);
  const key = kv ? kv.key : continuedListKey(lines, lineNo);
  if (!key || !isIdKey(key)) return [];
  const from = kv ? kv.valueStart : 0;
  const out: IdAtPosition[] = [];
  // A parameter reference ({{site}}) is no id: blanked, columns kept.
  const code = line.code.replace(/\{\{[^{}]*\}\}/g, (m) => ' '.repeat(m.length));
  const token = /[^\s,]+/g;
  for (let m = token.exec(code); m; m = token.exec(code)) {
    const start = m.index;
    const end = start + m[0].length;
    if (start < from) continue;
    out.push({
      key,
      id: m[0],
      range: { start: { line: line.line, column: start }, end: { line: line.line, column: end } },
    });
  }
  return out;
}
