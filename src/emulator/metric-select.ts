// metricSelect, the public grammar: `default` (or nothing), `all`, `none` or `only <term>`, then terms joined
// by `+` (add) and `-` (remove); `*` is a wildcard; `:name` is a quantity category. Case-insensitive.
import { OUTPUT_FREQUENCIES, type OutputFrequency } from '../core/api/types';
import { type MetricDefinition, metricCatalog, QUANTITIES } from '../core/metrics/catalog';

export type MetricSelection = { metrics: MetricDefinition[] } | { error: string };

const CATEGORIES = new Set(QUANTITIES.flatMap((q) => q.categories));

/** The metrics selected when nothing (or `default`) is asked: everything but the internal sensors. */
export function isDefaultMetric(def: MetricDefinition): boolean {
  return !def.quantity.categories.includes('internal');
}

function tokenize(expr: string): string[] {
  return expr.match(/[+-]|[^\s+-]+/g) ?? [];
}

function matcher(term: string, frequency: OutputFrequency): ((d: MetricDefinition) => boolean) | string {
  const t = term.toLowerCase();
  if (t.startsWith(':')) {
    const category = t.slice(1);
    if (!CATEGORIES.has(category)) {
      return `metricSelect: unknown category ':${category}' (known: ${[...CATEGORIES].map((c) => `:${c}`).join(', ')})`;
    }
    return (d) => d.quantity.categories.includes(category);
  }
  if (t.includes('*')) {
    const re = new RegExp(`^${t.split('*').map(escapeRegExp).join('.*')}$`, 'i');
    return (d) => re.test(d.label);
  }
  if (!metricCatalog(frequency).some((d) => d.label.toLowerCase() === t)) {
    const elsewhere = OUTPUT_FREQUENCIES.find((f) => metricCatalog(f).some((d) => d.label.toLowerCase() === t));
    return elsewhere
      ? `metricSelect: metric '${term}' is not available with outputFrequency ${frequency} (it is a ${elsewhere} metric)`
      : `metricSelect: unknown metric '${term}'`;
  }
  return (d) => d.label.toLowerCase() === t;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Resolves a metricSelect expression to metrics in catalog order, or an error message naming metricSelect. */
export function selectMetrics(expr: string | undefined, frequency: OutputFrequency): MetricSelection {
  const catalog = metricCatalog(frequency);
  const tokens = tokenize(expr ?? '');
  let selected = new Set(catalog.filter(isDefaultMetric));
  let i = 0;
  const head = tokens[0]?.toLowerCase();
  let op: '+' | '-' | undefined = '+';
  if (head === 'default') i = 1;
  else if (head === 'all') {
    selected = new Set(catalog);
    i = 1;
  } else if (head === 'none' || head === 'only') {
    selected = new Set();
    i = 1;
    if (head === 'only' && (tokens.length < 2 || tokens[1] === '+' || tokens[1] === '-')) {
      return { error: "metricSelect: 'only' must be followed by a metric, pattern or :category" };
    }
  }
  let afterOperator = false;
  for (; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === '+' || token === '-') {
      if (afterOperator) return { error: `metricSelect: expected a term after '${op}'` };
      op = token;
      afterOperator = true;
      continue;
    }
    afterOperator = false;
    if (op === undefined) return { error: `metricSelect: expected '+' or '-' before '${token}'` };
    const match = matcher(token, frequency);
    if (typeof match === 'string') return { error: match };
    for (const d of catalog) {
      if (!match(d)) continue;
      if (op === '+') selected.add(d);
      else selected.delete(d);
    }
    op = undefined;
  }
  if (afterOperator) return { error: `metricSelect: expected a term after '${op}'` };
  return { metrics: catalog.filter((d) => selected.has(d)) };
}
