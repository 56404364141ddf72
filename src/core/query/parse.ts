// parseCell: text -> a typed cell, or diagnostics with ranges. Pure; never throws on any input.
import { type OutputFrequency, REPORT_KINDS, type ReportKind } from '../api/types';
import { checkFieldValue } from '../api/validate';
import type { FieldRanges, ParsedCell, ParsedFields } from './cell';
import { checkCombinations } from './combinations';
import { type Diagnostic, type DiagnosticCode, hasErrors, type Range, range } from './diagnostics';
import {
  contextOf,
  FIELD_NAMES,
  FIELDS,
  type FieldName,
  isFieldName,
  notForVerbHint,
  VERBS,
  type Verb,
} from './fields';
import { matchKeyValue, type SourceLine, scanLines, splitLines, words } from './lines';
import { checkMetricSelect, type ServiceKind } from './metric-select';
import { type ParamValue, type ParamValues, paramReference, parseParamLines } from './params';
import { didYouMean } from './suggest';
import { parseInterval, parseTime } from './time';

export interface ParseOptions {
  /** The instant relative times are read at in combination checks (the caller's Clock). */
  now: Date;
  /**
   * Who the cell goes to (metric-select.ts `ServiceKind`): against a real service (the default: a client is
   * never stricter than the service) what the metric catalogue does not know is a warning; the emulator refuses it.
   */
  service?: ServiceKind;
  /** The notebook's parameters (its params cell, with a run's values): what `{{name}}` stands for. */
  params?: ParamValues;
}

export interface ParseResult {
  /** Present when there is no error (warnings allowed). */
  cell?: ParsedCell;
  diagnostics: Diagnostic[];
}

interface Segment {
  line: number;
  start: number;
  text: string;
}

interface Entry {
  key: FieldName;
  keyRange: Range;
  segments: Segment[];
}

export function parseCell(text: string, options: ParseOptions): ParseResult {
  const diagnostics: Diagnostic[] = [];
  const lines = scanLines(typeof text === 'string' ? text : '');
  const content = lines.filter((l) => l.code.trim() !== '');
  if (content.length === 0) {
    diagnostics.push({
      severity: 'error',
      code: 'missing-verb',
      message: 'Empty cell: start with a verb (recent, follow, report <kind>, datasources or sql)',
      range: range(0, 0, 0),
    });
    return { diagnostics };
  }
  const verbLine = parseVerbLine(content[0], diagnostics);
  if (verbLine?.verb === 'sql') return parseSqlCell(text, verbLine, diagnostics);
  if (verbLine?.verb === 'params') return parseParamsCell(lines, verbLine, diagnostics);
  // A first line that is not 'key: value' is the verb line, even when its verb is wrong (one error, not two).
  const skipFirst = verbLine !== undefined || !matchKeyValue(content[0].code);
  const entries = collectEntries(content.slice(skipFirst ? 1 : 0), verbLine, diagnostics);
  if (!verbLine) return { diagnostics };

  const fields: ParsedFields = {};
  const ranges: Partial<Record<FieldName, FieldRanges>> = {};
  const sub: Substitution = { params: options.params ?? new Map(), used: new Set() };
  for (const entry of entries) {
    const valueRange = segmentsRange(entry.segments);
    ranges[entry.key] = { key: entry.keyRange, value: valueRange };
    parseValue(entry, fields, diagnostics, sub);
  }
  const cell: ParsedCell = {
    verb: verbLine.verb,
    reportKind: verbLine.reportKind,
    every: verbLine.every,
    fields,
    ranges,
    verbRange: verbLine.range,
    ...(verbLine.name ? { name: verbLine.name, nameRange: verbLine.nameRange } : {}),
    ...(sub.used.size ? { usedParams: [...sub.used] } : {}),
  };
  checkMetricSelectEntry(cell, entries, diagnostics, options.service ?? 'real');
  checkCombinations(cell, diagnostics, options.now);
  diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column);
  return hasErrors(diagnostics) ? { diagnostics } : { cell, diagnostics };
}

interface VerbLine {
  verb: Verb;
  reportKind?: ReportKind;
  every?: { text: string; ms: number };
  range: Range;
  name?: string;
  nameRange?: Range;
}

/** A result name: what SQL can write unquoted as a table name. */
export const RESULT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A sql cell: the verb line, then DuckDB SQL taken as written (DuckDB itself checks it when it runs). */
function parseSqlCell(text: string, verbLine: VerbLine, diagnostics: Diagnostic[]): ParseResult {
  const line = verbLine.range.start.line + 1;
  const body = splitLines(text).slice(line).join('\n');
  if (body.trim() === '') {
    diagnostics.push({
      severity: 'error',
      code: 'missing-sql',
      message: "Write DuckDB SQL on the lines after 'sql', e.g. SELECT * FROM pm",
      range: verbLine.range,
    });
    return { diagnostics };
  }
  if (hasErrors(diagnostics)) return { diagnostics };
  const cell: ParsedCell = {
    verb: 'sql',
    fields: {},
    ranges: {},
    verbRange: verbLine.range,
    ...(verbLine.name ? { name: verbLine.name, nameRange: verbLine.nameRange } : {}),
    sql: { text: body, line },
  };
  return { cell, diagnostics };
}

/** The params cell: the verb line, then one `name: default` (or `name: type = default`) line per parameter. */
function parseParamsCell(lines: SourceLine[], verbLine: VerbLine, diagnostics: Diagnostic[]): ParseResult {
  if (verbLine.name) {
    diagnostics.push({
      severity: 'error',
      code: 'bad-verb-argument',
      message: 'A params cell has no result name: its parameters are used as {{name}} (sql: $name)',
      range: verbLine.nameRange ?? verbLine.range,
    });
  }
  const params = parseParamLines(lines.slice(verbLine.range.start.line + 1), diagnostics);
  if (hasErrors(diagnostics)) return { diagnostics };
  return { cell: { verb: 'params', fields: {}, ranges: {}, verbRange: verbLine.range, params }, diagnostics };
}

/** `... as <name>` at the end of a verb line: the name, or a diagnostic; the words before it stay. */
function splitResultName(
  line: SourceLine,
  args: ReturnType<typeof words>,
  diagnostics: Diagnostic[],
): { args: ReturnType<typeof words>; name?: string; nameRange?: Range } | undefined {
  const at = args.findIndex((a) => a.text === 'as');
  if (at < 0) return { args };
  const n = args[at + 1];
  const fail = (from: number, to: number, message: string) => {
    diagnostics.push({ severity: 'error', code: 'bad-result-name', message, range: range(line.line, from, to) });
    return undefined;
  };
  if (!n) return fail(args[at].start, args[at].end, "'as' needs a result name, e.g. recent as pm");
  if (!RESULT_NAME.test(n.text))
    return fail(
      n.start,
      n.end,
      `'${n.text}' is not a result name: letters, digits and _, not starting with a digit (e.g. pm_hourly)`,
    );
  if (args.length > at + 2)
    return fail(args[at + 2].start, args[args.length - 1].end, 'Unexpected text after the result name');
  return { args: args.slice(0, at), name: n.text, nameRange: range(line.line, n.start, n.end) };
}

type Word = ReturnType<typeof words>[number];

function parseVerbLine(line: SourceLine, diagnostics: Diagnostic[]): VerbLine | undefined {
  const ws = words(line.code);
  const first = ws[0];
  const verb = checkVerb(line, first, diagnostics);
  if (!verb) return undefined;
  const named = splitResultName(line, ws.slice(1), diagnostics);
  if (!named) return undefined;
  const v: VerbArgs = { line: line.line, args: named.args, diagnostics };
  const parsed =
    verb === 'follow'
      ? followArgs(v)
      : verb === 'report'
        ? reportArgs(v, range(line.line, first.start, first.end))
        : noArgs(v, verb);
  if (!parsed) return undefined;
  const as = named.name ? { name: named.name, nameRange: named.nameRange } : {};
  return { verb, ...parsed, range: range(line.line, first.start, ws[ws.length - 1].end), ...as };
}

/** The verb of a verb line, or a diagnostic: a 'key: value' line where the verb should be, or an unknown verb. */
function checkVerb(line: SourceLine, first: Word, diagnostics: Diagnostic[]): Verb | undefined {
  if ((VERBS as readonly string[]).includes(first.text)) return first.text as Verb;
  const kv = matchKeyValue(line.code);
  if (kv) {
    diagnostics.push({
      severity: 'error',
      code: 'missing-verb',
      message: 'A cell starts with a verb line: recent, follow, report <kind>, datasources or sql',
      range: range(line.line, kv.keyStart, kv.keyEnd),
      allowedValues: [...VERBS],
    });
    return undefined;
  }
  const suggestion = didYouMean(first.text, VERBS);
  diagnostics.push({
    severity: 'error',
    code: 'unknown-verb',
    message: `Unknown verb '${first.text}'${suggestion ? `; did you mean '${suggestion}'?` : '.'} Verbs: ${VERBS.join(', ')}`,
    range: range(line.line, first.start, first.end),
    allowedValues: [...VERBS],
    suggestion,
  });
  return undefined;
}

/** The words after the verb (without `as <name>`), on source line `line`. */
interface VerbArgs {
  line: number;
  args: Word[];
  diagnostics: Diagnostic[];
}

/** What the arguments add to the verb line (nothing for verbs without arguments). */
type ParsedArgs = Pick<VerbLine, 'every' | 'reportKind'>;

/** A bad-verb-argument error over the arguments `from` to `to`; undefined, for the caller to return. */
function badArgument(v: VerbArgs, from: number, to: number, message: string, extra: Partial<Diagnostic> = {}) {
  const r = range(v.line, v.args[from].start, v.args[to].end);
  v.diagnostics.push({ severity: 'error', code: 'bad-verb-argument', message, range: r, ...extra });
  return undefined;
}

/** recent, datasources, sql, params: no arguments. */
function noArgs(v: VerbArgs, verb: Verb): ParsedArgs | undefined {
  if (!v.args.length) return {};
  const why =
    verb === 'sql'
      ? "'sql' takes only 'as <name>'; write the SQL on the following lines"
      : verb === 'params'
        ? "'params' takes no arguments; write one 'name: default' line per parameter below it"
        : `'${verb}' takes no arguments; put fields on the following lines as key: value`;
  return badArgument(v, 0, v.args.length - 1, why);
}

/** follow [every <duration>]. */
function followArgs(v: VerbArgs): ParsedArgs | undefined {
  const { args } = v;
  if (args.length === 0) return {};
  if (args[0].text !== 'every') {
    const looksLikeDuration = 'ms' in parseInterval(args[0].text);
    const why = looksLikeDuration
      ? `Write 'follow every ${args[0].text}' to poll repeatedly`
      : "'follow' takes an optional 'every <duration>', e.g. follow every 5m";
    return badArgument(v, 0, args.length - 1, why);
  }
  if (args.length < 2) return badArgument(v, 0, 0, "'every' needs a duration, e.g. follow every 5m");
  const d = parseInterval(args[1].text);
  if ('error' in d) return badArgument(v, 1, 1, d.error);
  if (args.length > 2) return badArgument(v, 2, args.length - 1, 'Unexpected text after the polling interval');
  return { every: { text: args[1].text, ms: d.ms } };
}

/** report <kind>; `verbRange` (the word 'report') carries the error when the kind is missing. */
function reportArgs(v: VerbArgs, verbRange: Range): ParsedArgs | undefined {
  const { args } = v;
  if (args.length === 0) {
    v.diagnostics.push({
      severity: 'error',
      code: 'bad-verb-argument',
      message: `'report' needs a kind: ${REPORT_KINDS.join(', ')}`,
      range: verbRange,
      allowedValues: [...REPORT_KINDS],
    });
    return undefined;
  }
  const kind = args[0].text;
  if (!(REPORT_KINDS as readonly string[]).includes(kind)) {
    const suggestion = didYouMean(kind, REPORT_KINDS);
    const why = `Unknown report kind '${kind}'${suggestion ? `; did you mean '${suggestion}'?` : '.'} Kinds: ${REPORT_KINDS.join(', ')}`;
    return badArgument(v, 0, 0, why, { allowedValues: [...REPORT_KINDS], suggestion });
  }
  if (args.length > 1) return badArgument(v, 1, args.length - 1, 'Unexpected text after the report kind');
  return { reportKind: kind as ReportKind };
}

function collectEntries(lines: SourceLine[], verbLine: VerbLine | undefined, diagnostics: Diagnostic[]): Entry[] {
  const entries: Entry[] = [];
  const seen = new Map<string, Range>();
  const ctx = verbLine ? contextOf(verbLine.verb, verbLine.reportKind) : undefined;
  let continuing: Entry | undefined;
  for (const line of lines) {
    const kv = matchKeyValue(line.code);
    const trimmed = line.code.trim();
    const start = line.code.indexOf(trimmed);
    if (!kv && continuing) {
      // A list whose previous line ended with a comma continues here.
      continuing.segments.push({ line: line.line, start, text: trimmed });
      continuing = trimmed.endsWith(',') ? continuing : undefined;
      continue;
    }
    continuing = undefined;
    if (!kv) {
      diagnostics.push({
        severity: 'error',
        code: 'syntax',
        message: `Expected 'key: value' (a field name, a colon, then its value)`,
        range: range(line.line, start, start + trimmed.length),
      });
      continue;
    }
    const keyRange = range(line.line, kv.keyStart, kv.keyEnd);
    const key = checkKey(kv.key, keyRange, verbLine, ctx, seen, diagnostics);
    if (!key) continue;
    seen.set(key, keyRange);
    const entry: Entry = { key, keyRange, segments: [{ line: line.line, start: kv.valueStart, text: kv.value }] };
    entries.push(entry);
    if (FIELDS[key].type === 'list' && kv.value.endsWith(',')) continuing = entry;
  }
  return entries;
}

/**
 * The field a key line sets, or undefined with a diagnostic: an unknown key, a key the verb does not take, a
 * key set twice. Without a verb line, only unknown keys are reported (and nothing is collected).
 */
function checkKey(
  key: string,
  keyRange: Range,
  verbLine: VerbLine | undefined,
  ctx: ReturnType<typeof contextOf> | undefined,
  seen: Map<string, Range>,
  diagnostics: Diagnostic[],
): FieldName | undefined {
  const error = (code: DiagnosticCode, message: string, suggestion?: string) => {
    diagnostics.push({
      severity: 'error',
      code,
      message,
      range: keyRange,
      ...(code === 'unknown-key' ? { suggestion } : {}),
    });
    return undefined;
  };
  if (!isFieldName(key)) {
    const suggestion = didYouMean(
      key,
      FIELD_NAMES.filter((n) => n !== 'replyWithContinuationToken'),
    );
    return error(
      'unknown-key',
      `Unknown key '${key}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
      suggestion,
    );
  }
  if (!verbLine) return undefined;
  if (ctx && !FIELDS[key].contexts.includes(ctx)) {
    return error('key-not-for-verb', `'${key}' is not a field of ${verbLabel(verbLine)}: ${notForVerbHint(key, ctx)}`);
  }
  const previous = seen.get(key);
  if (previous) return error('duplicate-key', `'${key}' is already set on line ${previous.start.line + 1}`);
  return key;
}

function verbLabel(v: VerbLine): string {
  return v.verb === 'report' ? `'report ${v.reportKind}'` : `'${v.verb}'`;
}

function segmentsRange(segments: Segment[]): Range {
  const first = segments[0];
  const last = segments[segments.length - 1];
  return {
    start: { line: first.line, column: first.start },
    end: { line: last.line, column: last.start + last.text.length },
  };
}

function badValue(diagnostics: Diagnostic[], r: Range, message: string, extra: Partial<Diagnostic> = {}): void {
  diagnostics.push({ severity: 'error', code: 'bad-value', message, range: r, ...extra });
}

/** A value read from a field's text, or undefined when it is bad (a diagnostic says why). */
type Read = { value: unknown } | undefined;

/** The parameters `{{name}}` may name, and the names the cell used. */
interface Substitution {
  params: ParamValues;
  used: Set<string>;
}

function parseValue(entry: Entry, fields: ParsedFields, diagnostics: Diagnostic[], sub: Substitution): void {
  const spec = FIELDS[entry.key];
  const r = segmentsRange(entry.segments);
  const text = entry.segments[0].text;
  const { key } = entry;
  const ref = spec.type === 'list' ? undefined : paramReference(text);
  if (ref !== undefined) {
    const read = substitute(key, ref, r, diagnostics, sub);
    if (read) (fields as Record<string, unknown>)[key] = read.value;
    return;
  }
  if (spec.type !== 'list' && text === '') {
    badValue(diagnostics, entry.keyRange, `'${key}' needs a value${describeAllowed(spec.values)}`, {
      allowedValues: spec.type === 'boolean' ? ['true', 'false'] : spec.values ? [...spec.values] : undefined,
    });
    return;
  }
  let read: Read;
  switch (spec.type) {
    case 'string':
      if (/\s/.test(text)) badValue(diagnostics, r, `'${key}' is a single identifier without spaces`);
      else read = { value: text };
      break;
    case 'boolean':
      read = readBoolean(key, text, r, diagnostics);
      break;
    case 'enum':
      read = readEnum(key, text, spec.values ?? [], r, diagnostics);
      break;
    case 'integer': {
      // The range is the field rule's (validate.ts); only the reading of the text is ours.
      const n = /^-?\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
      const issue = checkFieldValue({ name: key, type: 'integer', doc: '' }, n);
      if (issue) badValue(diagnostics, r, `${issue.message}, not '${text}'`);
      else read = { value: n };
      break;
    }
    case 'time':
      read = readTime(key, text, r, diagnostics);
      break;
    case 'metricSelect':
      read = { value: text };
      break;
    case 'list':
      parseList(entry, fields, diagnostics, sub);
      return;
  }
  if (read) (fields as Record<string, unknown>)[key] = read.value;
}

/** The parameter `{{name}}` names (marked used), or undefined with an error: a malformed or unknown reference. */
function lookupParam(name: string, r: Range, diagnostics: Diagnostic[], sub: Substitution): ParamValue | undefined {
  const names = [...sub.params.keys()];
  if (name === '') {
    diagnostics.push({
      severity: 'error',
      code: 'unknown-parameter',
      message: 'A parameter is written {{name}}, alone as the whole value (or as one item of a list)',
      range: r,
    });
    return undefined;
  }
  const v = sub.params.get(name);
  if (v) {
    sub.used.add(name);
    return v;
  }
  const suggestion = didYouMean(name, names);
  const declared = names.length ? `parameters: ${names.join(', ')}` : "the notebook has no 'params' cell";
  diagnostics.push({
    severity: 'error',
    code: 'unknown-parameter',
    message: `Unknown parameter '${name}'${suggestion ? `; did you mean '${suggestion}'?` : ''} (${declared})`,
    range: r,
    // The quick fix replaces the whole reference.
    ...(suggestion ? { suggestion: `{{${suggestion}}}` } : {}),
  });
  return undefined;
}

/** A field whose whole value is `{{name}}`: the parameter's parsed value, checked as the field's value. */
function substitute(key: FieldName, name: string, r: Range, diagnostics: Diagnostic[], sub: Substitution): Read {
  const v = lookupParam(name, r, diagnostics, sub);
  if (!v) return undefined;
  const spec = FIELDS[key];
  const wanted: Record<string, ParamValue['type']> = {
    time: 'time',
    boolean: 'boolean',
    integer: 'number',
    enum: 'text',
    string: 'text',
    metricSelect: 'text',
  };
  if (wanted[spec.type] !== v.type) {
    const message = `'${name}' is a ${v.type} parameter; ${key} takes a ${wanted[spec.type]} value`;
    diagnostics.push({ severity: 'error', code: 'bad-parameter', message, range: r });
    return undefined;
  }
  if (v.type === 'time' || v.type === 'boolean') return { value: v.value };
  if (v.type === 'number') {
    const issue = checkFieldValue({ name: key, type: 'integer', doc: '' }, v.value);
    if (!issue) return { value: v.value };
    return void badValue(diagnostics, r, `${issue.message}, not '${v.text}' (parameter '${name}')`);
  }
  if (v.type !== 'text') return undefined;
  if (spec.type === 'enum') return readEnum(key, v.value, spec.values ?? [], r, diagnostics);
  if (spec.type === 'string' && /\s/.test(v.value))
    return void badValue(diagnostics, r, `'${key}' is a single identifier without spaces (parameter '${name}')`);
  return { value: v.value };
}

function readBoolean(key: string, text: string, r: Range, diagnostics: Diagnostic[]): Read {
  if (text === 'true' || text === 'false') return { value: text === 'true' };
  const lower = text.toLowerCase();
  const suggestion = ['true', 'yes', '1', 'on'].includes(lower)
    ? 'true'
    : ['false', 'no', '0', 'off'].includes(lower)
      ? 'false'
      : undefined;
  badValue(diagnostics, r, `'${key}' is true or false, not '${text}'`, {
    allowedValues: ['true', 'false'],
    suggestion,
  });
  return undefined;
}

function readEnum(key: string, text: string, values: readonly string[], r: Range, diagnostics: Diagnostic[]): Read {
  if (values.includes(text)) return { value: text };
  const suggestion = didYouMean(text, values);
  badValue(
    diagnostics,
    r,
    `'${text}' is not a valid ${key}${suggestion ? `; did you mean '${suggestion}'?` : '.'} Allowed: ${values.join(', ')}`,
    { allowedValues: [...values], suggestion },
  );
  return undefined;
}

function readTime(key: string, text: string, r: Range, diagnostics: Diagnostic[]): Read {
  const t = parseTime(text);
  if ('error' in t) {
    badValue(diagnostics, r, `Bad ${key} '${text}': ${t.error}`);
    return undefined;
  }
  if (t.warning) diagnostics.push({ severity: 'warning', code: 'bad-value', message: t.warning, range: r });
  return { value: t.value };
}

function parseList(entry: Entry, fields: ParsedFields, diagnostics: Diagnostic[], sub: Substitution): void {
  if (entry.segments.every((s) => s.text === '')) {
    badValue(diagnostics, entry.keyRange, `'${entry.key}' needs at least one id (comma-separated)`);
    return;
  }
  const items: string[] = [];
  const seen = new Set<string>();
  let ok = true;
  entry.segments.forEach((seg, segIndex) => {
    const continued = segIndex < entry.segments.length - 1;
    const parts = seg.text.split(',');
    let offset = 0;
    parts.forEach((raw, partIndex) => {
      const lead = raw.length - raw.trimStart().length;
      const item = raw.trim();
      const start = seg.start + offset + lead;
      const r = range(seg.line, start, start + item.length);
      offset += raw.length + 1;
      if (item === '') {
        // The trailing comma of a line that continues on the next one is not an empty item.
        if (!(continued && partIndex === parts.length - 1)) {
          badValue(diagnostics, range(seg.line, seg.start, seg.start + seg.text.length), emptyItemMessage(entry.key));
          ok = false;
        }
        return;
      }
      const ref = paramReference(item);
      if (ref !== undefined) {
        const ids = listParam(entry.key, ref, r, diagnostics, sub);
        if (!ids) ok = false;
        for (const id of ids ?? []) {
          if (seen.has(id)) continue;
          seen.add(id);
          items.push(id);
        }
        return;
      }
      if (/\s/.test(item)) {
        badValue(diagnostics, r, `'${item}' contains a space; separate ids with commas`);
        ok = false;
        return;
      }
      if (seen.has(item)) {
        diagnostics.push({ severity: 'warning', code: 'bad-value', message: `'${item}' is listed twice`, range: r });
        return;
      }
      seen.add(item);
      items.push(item);
    });
  });
  if (ok && items.length === 0) {
    badValue(diagnostics, entry.keyRange, `'${entry.key}' needs at least one id (comma-separated)`);
    ok = false;
  }
  if (ok) (fields as Record<string, unknown>)[entry.key] = items;
}

/** The ids a `{{name}}` list item stands for: an ids parameter's, or a text parameter's one id. */
function listParam(key: FieldName, name: string, r: Range, diagnostics: Diagnostic[], sub: Substitution) {
  const v = lookupParam(name, r, diagnostics, sub);
  if (!v) return undefined;
  if (v.type === 'ids') return v.value;
  if (v.type === 'text' && /^[^\s,]+$/.test(v.value)) return [v.value];
  const message =
    v.type === 'text'
      ? `'${name}' is '${v.value}': ${key} takes ids without spaces (an ids parameter for several)`
      : `'${name}' is a ${v.type} parameter; ${key} takes ids`;
  diagnostics.push({ severity: 'error', code: 'bad-parameter', message, range: r });
  return undefined;
}

function emptyItemMessage(key: string): string {
  return `'${key}' has an empty item; write ids separated by single commas`;
}

function describeAllowed(values?: readonly string[]): string {
  return values ? ` (${values.join(', ')})` : '';
}

function checkMetricSelectEntry(
  cell: ParsedCell,
  entries: Entry[],
  diagnostics: Diagnostic[],
  service: ServiceKind,
): void {
  const entry = entries.find((e) => e.key === 'metricSelect');
  const text = cell.fields.metricSelect;
  if (!entry || text === undefined) return;
  const seg = entry.segments[0];
  // A value given by a parameter: its problems are marked on the reference.
  const at = (p: { start: number; end: number }) =>
    paramReference(seg.text) === undefined
      ? range(seg.line, seg.start + p.start, seg.start + p.end)
      : range(seg.line, seg.start, seg.start + seg.text.length);
  const frequency: OutputFrequency | undefined =
    cell.fields.outputFrequency ?? (cell.verb === 'report' ? undefined : 'minute');
  // What the service refuses (a grammar slip; for the emulator also an unknown label or category) is an error
  // that keeps the cell from being sent; the rest (a pattern matching nothing; for a real service what the
  // catalogue does not know) is a warning.
  for (const p of checkMetricSelect(text, frequency, service)) {
    diagnostics.push({
      severity: p.rejected ? 'error' : 'warning',
      code: 'unknown-metric',
      message: p.message,
      range: at(p),
      suggestion: p.suggestion,
    });
  }
}
