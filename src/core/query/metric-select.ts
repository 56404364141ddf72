// Checks of metricSelect values against the public grammar (default/all/none/only, + and -, *, :category)
// and the metric catalog. Problems are warnings: the service is the judge of its own grammar.
import { OUTPUT_FREQUENCIES, type OutputFrequency } from '../api/types';
import { metricCatalog, QUANTITIES } from '../metrics/catalog';
import { didYouMean } from './suggest';

export const METRIC_SELECT_KEYWORDS = ['default', 'all', 'none', 'only'] as const;

export interface MetricSelectProblem {
  /** Offsets into the value text. */
  start: number;
  end: number;
  message: string;
  suggestion?: string;
}

const LABELS_BY_FREQUENCY = new Map<OutputFrequency, string[]>(
  OUTPUT_FREQUENCIES.map((f) => [f, metricCatalog(f).map((m) => m.label)]),
);
const ALL_LABELS = [...new Set([...LABELS_BY_FREQUENCY.values()].flat())];
const ALL_LABELS_LOWER = new Set(ALL_LABELS.map((l) => l.toLowerCase()));
export const METRIC_CATEGORIES = [...new Set(QUANTITIES.flatMap((q) => q.categories))].sort();

/** Canonical metric labels for completion: of one frequency, or every label. */
export function metricLabels(frequency?: OutputFrequency): string[] {
  return frequency ? [...(LABELS_BY_FREQUENCY.get(frequency) ?? [])] : [...ALL_LABELS];
}

function wildcardMatches(pattern: string, labels: readonly string[]): boolean {
  const re = new RegExp(
    `^${pattern
      .toLowerCase()
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return labels.some((l) => re.test(l.toLowerCase()));
}

export function checkMetricSelect(text: string, frequency: OutputFrequency | undefined): MetricSelectProblem[] {
  const problems: MetricSelectProblem[] = [];
  const tokenRe = /[^\s+-]+|[+-]/g;
  // State: 'start' (a keyword may come), 'term' (a term is expected), 'operator' (after a term).
  let state: 'start' | 'keyword' | 'term' | 'operator' = 'start';
  let removing = false;
  let keyword: { text: string; start: number; end: number } | undefined;
  for (let m = tokenRe.exec(text); m; m = tokenRe.exec(text)) {
    const tok = m[0];
    const start = m.index;
    const end = start + tok.length;
    if (tok === '+' || tok === '-') {
      if (state === 'term') problems.push({ start, end, message: `expected a metric term before '${tok}'` });
      removing = tok === '-';
      state = 'term';
      continue;
    }
    if (state === 'start' && (METRIC_SELECT_KEYWORDS as readonly string[]).includes(tok.toLowerCase())) {
      state = 'keyword';
      keyword = { text: tok.toLowerCase(), start, end };
      continue;
    }
    if (state === 'operator') {
      problems.push({ start, end, message: `join metric terms with + or - (before '${tok}')` });
    }
    state = 'operator';
    // Removing something absent is harmless; only added terms must match.
    if (!removing) checkTerm(tok, start, end, frequency, problems);
  }
  if (state === 'keyword' && keyword?.text === 'only') {
    problems.push({
      start: keyword.start,
      end: keyword.end,
      message: "'only' needs at least one metric term after it (e.g. only pm2_5ConcMassNowcast, only :pm)",
    });
  }
  const expectTerm = state === 'term';
  const first = false;
  if (expectTerm && !first && /[+-]\s*$/.test(text)) {
    problems.push({ start: text.length - 1, end: text.length, message: 'a metric term is missing at the end' });
  }
  return problems;
}

function checkTerm(
  term: string,
  start: number,
  end: number,
  frequency: OutputFrequency | undefined,
  problems: MetricSelectProblem[],
): void {
  if (term.startsWith(':')) {
    const cat = term.slice(1).toLowerCase();
    if (!METRIC_CATEGORIES.includes(cat)) {
      const s = didYouMean(cat, METRIC_CATEGORIES);
      problems.push({
        start,
        end,
        message: `unknown metric category '${term}'; known: ${METRIC_CATEGORIES.map((c) => `:${c}`).join(', ')}`,
        suggestion: s ? `:${s}` : undefined,
      });
    }
    return;
  }
  const labels = frequency ? (LABELS_BY_FREQUENCY.get(frequency) ?? []) : ALL_LABELS;
  if (term.includes('*')) {
    if (!wildcardMatches(term, labels)) {
      problems.push({
        start,
        end,
        message: `'${term}' matches no metric${frequency ? ` at ${frequency} output` : ''}`,
      });
    }
    return;
  }
  const lower = term.toLowerCase();
  if (labels.some((l) => l.toLowerCase() === lower)) return;
  if (ALL_LABELS_LOWER.has(lower) && frequency) {
    const at = OUTPUT_FREQUENCIES.filter((f) => LABELS_BY_FREQUENCY.get(f)?.some((l) => l.toLowerCase() === lower));
    problems.push({ start, end, message: `${term} exists only for ${at.join('/')} output, not ${frequency}` });
    return;
  }
  const suggestion = didYouMean(term, labels);
  problems.push({
    start,
    end,
    message: `unknown metric label '${term}'${suggestion ? `; did you mean ${suggestion}?` : ''}`,
    suggestion,
  });
}
