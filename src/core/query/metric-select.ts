// metricSelect, the one grammar (SERVICE-FACTS "metricSelect grammar"), shared by the cell checker and the
// emulator: an optional head `default` (or nothing), `all`, `none` or `only`; then terms joined by `+` (add)
// and `-` (remove); `*` is a wildcard; `:name` is a quantity category. Case-insensitive. Real clients also
// send `only + :pm25 + :internal` (a `+` right after the head). Platform-neutral; wildcards are matched
// without regular expressions, in time proportional to pattern × label length (no backtracking blow-up).
import { OUTPUT_FREQUENCIES, type OutputFrequency } from '../api/types';
import { type MetricDefinition, metricCatalog, QUANTITIES } from '../metrics/catalog';
import { didYouMean } from './suggest';

export const METRIC_SELECT_KEYWORDS = ['default', 'all', 'none', 'only'] as const;
type MetricSelectHead = (typeof METRIC_SELECT_KEYWORDS)[number];

/**
 * Who answers the request, which decides what the metric catalogue may refuse. The catalogue is ours, not the
 * service's (the interface does not show the full list): against a `real` service a label, category or
 * pattern the catalogue does not know is a warning and the service decides; the `emulator` owns the
 * catalogue and refuses what it does not know, as its 400 would. The grammar's own errors block either way.
 */
export type ServiceKind = 'emulator' | 'real';

/** What a catalogue problem says against a real service, after its own message. */
export const NOT_IN_CATALOGUE = 'not in the known catalogue; the service will decide';

interface MetricSelectProblem {
  /** Offsets into the value text. */
  start: number;
  end: number;
  message: string;
  suggestion?: string;
  /** The service refuses the expression for this (400); otherwise it is only a hint (e.g. a pattern matching nothing). */
  rejected: boolean;
}

const LABELS_BY_FREQUENCY = new Map<OutputFrequency, string[]>(
  OUTPUT_FREQUENCIES.map((f) => [f, metricCatalog(f).map((m) => m.label)]),
);
const ALL_LABELS = [...new Set([...LABELS_BY_FREQUENCY.values()].flat())];
export const METRIC_CATEGORIES = [...new Set(QUANTITIES.flatMap((q) => q.categories))].sort();

/** Canonical metric labels for completion: of one frequency, or every label. */
export function metricLabels(frequency?: OutputFrequency): string[] {
  return frequency ? [...(LABELS_BY_FREQUENCY.get(frequency) ?? [])] : [...ALL_LABELS];
}

/**
 * Case-insensitive glob match (`*` = any run of characters, everything else literal). Greedy two pointers:
 * on a mismatch only the last `*` is retried one character further, so the work is bounded by
 * pattern length × text length whatever the number of stars.
 */
export function globMatch(pattern: string, text: string): boolean {
  const p = pattern.toLowerCase();
  const t = text.toLowerCase();
  let pi = 0;
  let ti = 0;
  let star = -1;
  let mark = 0;
  while (ti < t.length) {
    if (pi < p.length && p[pi] !== '*' && p[pi] === t[ti]) {
      pi++;
      ti++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      mark = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++mark;
    } else return false;
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

type MetricTermKind = 'label' | 'pattern' | 'category';

interface MetricTerm {
  op: '+' | '-';
  text: string;
  kind: MetricTermKind;
  start: number;
  end: number;
}

interface ParsedMetricSelect {
  head: MetricSelectHead;
  terms: MetricTerm[];
  /** Grammar problems (always `rejected`). */
  problems: MetricSelectProblem[];
}

const termKind = (text: string): MetricTermKind =>
  text.startsWith(':') ? 'category' : text.includes('*') ? 'pattern' : 'label';

/**
 * Parses the grammar. States: 'head' (the head keyword may come), 'afterHead' (after the head keyword: a term,
 * or `+`; `-` too unless the head is `only`), 'term' (after an operator: a term must come), 'operator' (after a
 * term: an operator or the end).
 */
function parseMetricSelect(text: string): ParsedMetricSelect {
  const problems: MetricSelectProblem[] = [];
  const terms: MetricTerm[] = [];
  const tokenRe = /[^\s+-]+|[+-]/g;
  let head: MetricSelectHead = 'default';
  let state: 'head' | 'afterHead' | 'term' | 'operator' = 'head';
  let op: '+' | '-' = '+';
  const reject = (start: number, end: number, message: string) =>
    problems.push({ start, end, message, rejected: true });
  for (let m = tokenRe.exec(text); m; m = tokenRe.exec(text)) {
    const tok = m[0];
    const start = m.index;
    const end = start + tok.length;
    if (tok === '+' || tok === '-') {
      if (state === 'term') reject(start, end, `expected a metric term after '${op}', not '${tok}'`);
      else if (state === 'afterHead' && head === 'only' && tok === '-') {
        reject(start, end, "'only' must be followed by a metric, pattern or :category (or '+')");
      }
      op = tok;
      state = 'term';
      continue;
    }
    const lower = tok.toLowerCase();
    if (state === 'head' && (METRIC_SELECT_KEYWORDS as readonly string[]).includes(lower)) {
      head = lower as MetricSelectHead;
      state = 'afterHead';
      continue;
    }
    if (state === 'operator') reject(start, end, `expected '+' or '-' before '${tok}'`);
    terms.push({ op, text: tok, kind: termKind(tok), start, end });
    op = '+';
    state = 'operator';
  }
  if (state === 'term') reject(text.trimEnd().length - 1, text.trimEnd().length, 'a metric term is missing at the end');
  else if (state === 'afterHead' && head === 'only') {
    const end = text.trimEnd().length;
    reject(end - 4, end, "'only' must be followed by a metric, pattern or :category");
  }
  return { head, terms, problems };
}

/** Problems of one term at an output frequency (undefined: any frequency, as in a report without one). */
function termProblems(term: MetricTerm, frequency: OutputFrequency | undefined): MetricSelectProblem[] {
  const { start, end, text } = term;
  const lower = text.toLowerCase();
  if (term.kind === 'category') {
    const cat = lower.slice(1);
    if (METRIC_CATEGORIES.includes(cat)) return [];
    const s = didYouMean(cat, METRIC_CATEGORIES);
    return [
      {
        start,
        end,
        rejected: true,
        message: `unknown metric category '${text}'; known: ${METRIC_CATEGORIES.map((c) => `:${c}`).join(', ')}`,
        suggestion: s ? `:${s}` : undefined,
      },
    ];
  }
  const labels = frequency ? (LABELS_BY_FREQUENCY.get(frequency) ?? []) : ALL_LABELS;
  if (term.kind === 'pattern') {
    // Removing what is absent is harmless; a pattern that adds nothing is only a hint.
    if (term.op === '-' || labels.some((l) => globMatch(text, l))) return [];
    return [
      {
        start,
        end,
        rejected: false,
        message: `'${text}' matches no metric${frequency ? ` at ${frequency} output` : ''}`,
      },
    ];
  }
  if (labels.some((l) => l.toLowerCase() === lower)) return [];
  const at = OUTPUT_FREQUENCIES.filter((f) => LABELS_BY_FREQUENCY.get(f)?.some((l) => l.toLowerCase() === lower));
  if (at.length > 0 && frequency) {
    return [
      { start, end, rejected: true, message: `${text} exists only for ${at.join('/')} output, not ${frequency}` },
    ];
  }
  return [{ start, end, rejected: true, ...unknownLabel(text, labels, frequency) }];
}

/**
 * An unknown label and the closest known one: at the asked frequency, else at any (a typo of a label of
 * another frequency, e.g. a NowCast in a minute cell, still gets its suggestion, and where it exists).
 */
function unknownLabel(
  text: string,
  labels: readonly string[],
  frequency: OutputFrequency | undefined,
): { message: string; suggestion?: string } {
  const unknown = `unknown metric label '${text}'`;
  const here = didYouMean(text, labels);
  if (here) return { message: `${unknown}; did you mean ${here}?`, suggestion: here };
  const elsewhere = didYouMean(text, ALL_LABELS);
  if (!elsewhere) return { message: unknown };
  const at = OUTPUT_FREQUENCIES.filter((f) => LABELS_BY_FREQUENCY.get(f)?.includes(elsewhere));
  return {
    message: `${unknown}; did you mean ${elsewhere}? It exists only for ${at.join('/')} output, not ${frequency}`,
    suggestion: elsewhere,
  };
}

/**
 * Every problem of a metricSelect value (grammar, then terms), for the cell checker. The terms' problems come
 * from our catalogue: refusals for the emulator, warnings naming NOT_IN_CATALOGUE for a real service.
 */
export function checkMetricSelect(
  text: string,
  frequency: OutputFrequency | undefined,
  service: ServiceKind,
): MetricSelectProblem[] {
  const parsed = parseMetricSelect(text);
  const problems = [...parsed.problems];
  for (const term of parsed.terms) {
    for (const p of termProblems(term, frequency)) {
      problems.push(service === 'real' && p.rejected ? { ...p, rejected: false, message: advisory(p.message) } : p);
    }
  }
  return problems.sort((a, b) => a.start - b.start);
}

/** A catalogue refusal reworded as a warning: what the catalogue says, then that the service decides. */
function advisory(message: string): string {
  return `${message.replace(/; known: .*$/, '')} (${NOT_IN_CATALOGUE})`;
}

function termMatches(term: MetricTerm, def: MetricDefinition): boolean {
  if (term.kind === 'category') return def.quantity.categories.includes(term.text.slice(1).toLowerCase());
  if (term.kind === 'pattern') return globMatch(term.text, def.label);
  return def.label.toLowerCase() === term.text.toLowerCase();
}

type MetricSelection = { metrics: MetricDefinition[] } | { error: string };

/** Resolves a metricSelect value to metrics in catalog order, or the service's 400 message (naming metricSelect). */
export function selectMetrics(text: string | undefined, frequency: OutputFrequency): MetricSelection {
  // The emulator: it owns the catalogue, so what the catalogue does not know is refused.
  const refused = checkMetricSelect(text ?? '', frequency, 'emulator').find((p) => p.rejected);
  if (refused) return { error: `metricSelect: ${refused.message}` };
  const parsed = parseMetricSelect(text ?? '');
  const catalog = metricCatalog(frequency);
  // `default` (or nothing) is every metric, the internal temperature and humidity included, as real replies show.
  const selected = new Set(parsed.head === 'all' || parsed.head === 'default' ? catalog : []);
  for (const term of parsed.terms) {
    for (const d of catalog) {
      if (!termMatches(term, d)) continue;
      if (term.op === '+') selected.add(d);
      else selected.delete(d);
    }
  }
  return { metrics: catalog.filter((d) => selected.has(d)) };
}
