// Notebook parameters: the `params` cell (`name: default` or `name: type = default` lines), a value read
// by its type, and a `{{name}}` reference in a query cell. Values are typed once here and substituted as
// parsed values (parse.ts), never pasted into a cell's text: a value holding a newline or `}}` stays one value.
import { type Diagnostic, range } from './diagnostics';
import { matchKeyValue, type SourceLine } from './lines';
import { parseTime, type TimeValue, timeToWire } from './time';

const PARAM_TYPES = ['number', 'time', 'ids', 'text', 'boolean'] as const;
type ParamType = (typeof PARAM_TYPES)[number];

/** A parameter's value, read by its type; `text` is how it was written (captions, input boxes). */
export type ParamValue =
  | { type: 'number'; value: number; text: string }
  | { type: 'time'; value: TimeValue; text: string }
  | { type: 'ids'; value: string[]; text: string }
  | { type: 'text'; value: string; text: string }
  | { type: 'boolean'; value: boolean; text: string };

/** One line of a params cell. */
export interface ParamDef {
  name: string;
  type: ParamType;
  /** Whether the type was written (`name: type = default`) rather than inferred from the default. */
  explicit: boolean;
  default: ParamValue;
  nameRange: ReturnType<typeof range>;
}

/** The values a run uses, by parameter name. */
export type ParamValues = ReadonlyMap<string, ParamValue>;

/** A parameter name: what SQL can write as `$name` (letters, digits and _, not starting with a digit). */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The longest value text taken (a parameter is a value, not a document). */
const MAX_PARAM_TEXT = 1000;
/** The most parameters one notebook declares. */
const MAX_PARAMS = 100;

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const ID = /^[^\s,{}]+$/;

/** The type of a default written without one: true/false, a number, a time, a comma list of ids, else text. */
export function inferParamType(text: string): ParamType {
  if (text === 'true' || text === 'false') return 'boolean';
  if (NUMBER.test(text)) return 'number';
  if ('value' in parseTime(text)) return 'time';
  if (text.includes(',')) return 'ids';
  return 'text';
}

/** `text` read as a value of `type`, or why it is not one. */
export function readParamValue(type: ParamType, text: string): ParamValue | { error: string } {
  if (text.length > MAX_PARAM_TEXT) return { error: `a value is at most ${MAX_PARAM_TEXT} characters` };
  if (/[\u0000-\u001f\u007f]/.test(text)) return { error: 'a value is one line without control characters' };
  switch (type) {
    case 'boolean':
      return text === 'true' || text === 'false'
        ? { type, value: text === 'true', text }
        : { error: `'${text}' is not true or false` };
    case 'number': {
      const n = Number(text);
      return NUMBER.test(text) && Number.isFinite(n)
        ? { type, value: n, text }
        : { error: `'${text}' is not a number` };
    }
    case 'time': {
      const t = parseTime(text);
      return 'error' in t ? { error: `'${text}' is not a time: ${t.error}` } : { type, value: t.value, text };
    }
    case 'ids': {
      const items = text.split(',').map((s) => s.trim());
      const bad = items.find((s) => !ID.test(s));
      if (bad !== undefined) return { error: bad ? `'${bad}' is not an id (no spaces or braces)` : 'an empty id' };
      return { type, value: items, text };
    }
    case 'text':
      return { type, value: text, text };
  }
}

/** The params cell's lines (after its verb line): its parameters, each line's problems as diagnostics. */
export function parseParamLines(lines: readonly SourceLine[], diagnostics: Diagnostic[]): ParamDef[] {
  const defs: ParamDef[] = [];
  const error = (line: number, from: number, to: number, message: string) =>
    diagnostics.push({ severity: 'error', code: 'bad-parameter', message, range: range(line, from, to) });
  for (const line of lines) {
    const trimmed = line.code.trim();
    if (trimmed === '') continue;
    const kv = matchKeyValue(line.code);
    const start = line.code.indexOf(trimmed);
    if (!kv) {
      error(line.line, start, start + trimmed.length, "Expected 'name: default' (or 'name: type = default')");
      continue;
    }
    const nameRange = range(line.line, kv.keyStart, kv.keyEnd);
    const at = (message: string) => error(line.line, kv.keyStart, kv.keyEnd, message);
    if (!PARAM_NAME.test(kv.key)) {
      at(`'${kv.key}' is not a parameter name: letters, digits and _, not starting with a digit`);
      continue;
    }
    if (defs.some((d) => d.name === kv.key)) {
      at(`The parameter '${kv.key}' is already declared`);
      continue;
    }
    if (defs.length >= MAX_PARAMS) {
      at(`A notebook declares at most ${MAX_PARAMS} parameters`);
      continue;
    }
    const typed = /^(number|time|ids|text|boolean)\s*=\s*(.*)$/.exec(kv.value);
    const type = typed ? (typed[1] as ParamType) : inferParamType(kv.value);
    const text = typed ? typed[2] : kv.value;
    const value = readParamValue(type, text);
    if (text === '' && type !== 'text') {
      error(line.line, kv.keyStart, kv.valueEnd, `'${kv.key}' needs a default value`);
    } else if ('error' in value) {
      error(line.line, kv.valueStart, kv.valueEnd, `Bad default for ${type} parameter '${kv.key}': ${value.error}`);
    } else {
      defs.push({ name: kv.key, type, explicit: !!typed, default: value, nameRange });
    }
  }
  return defs;
}

/**
 * The values of a run: each parameter's default, or the value given for it by name (checked by its type).
 * Errors name the parameter (an unknown name lists the declared ones).
 */
export function paramValues(
  defs: readonly ParamDef[],
  given: Readonly<Record<string, string>> = {},
): { values: Map<string, ParamValue>; errors: string[] } {
  const values = new Map<string, ParamValue>(defs.map((d) => [d.name, d.default]));
  const errors: string[] = [];
  for (const [name, text] of Object.entries(given)) {
    const def = defs.find((d) => d.name === name);
    if (!def) {
      const declared = defs.length
        ? `declared: ${defs.map((d) => d.name).join(', ')}`
        : 'the notebook has no params cell';
      errors.push(`Unknown parameter '${name}' (${declared})`);
      continue;
    }
    const v = readParamValue(def.type, text);
    if ('error' in v) errors.push(`Bad value for ${def.type} parameter '${name}': ${v.error}`);
    else values.set(name, v);
  }
  return { values, errors };
}

/** A reference written as a value: `{{ name }}`, alone. */
const REFERENCE = /^\{\{\s*([^{}\s]*)\s*\}\}$/;

/** The name in a `{{name}}` value, undefined when the text is no reference; `''` when it is malformed. */
export function paramReference(text: string): string | undefined {
  if (!text.includes('{{') && !text.includes('}}')) return undefined;
  const m = REFERENCE.exec(text);
  return m && PARAM_NAME.test(m[1]) ? m[1] : '';
}

/** The caption of the values a cell used, e.g. `site=DABC1234, start=-7d (2026-11-19T16:00:00Z)`. */
export function paramsCaption(names: readonly string[], values: ParamValues, now: Date): string {
  return names
    .flatMap((n) => {
      const v = values.get(n);
      if (!v) return [];
      const resolved = v.type === 'time' && v.value.kind !== 'absolute' ? ` (${timeToWire(v.value, now)})` : '';
      return [`${n}=${v.text}${resolved}`];
    })
    .join(', ');
}
