// What a column holds, read from its header alone (canonical or english labels, any order).

import {
  ENGLISH_IDENTIFYING_COLUMNS,
  formatMetricLabel,
  type MetricLabelParts,
  parseMetricLabel,
} from '../metrics/labels';
import type { ColumnKind } from './table';

export interface ColumnInfo {
  kind: ColumnKind;
  /** Canonical column name: identifying columns in camelCase, metric columns as `<label>.<field>`. */
  canonical?: string;
  metric?: MetricLabelParts;
  /** true when the kind is a guess (unknown header): a text column whose cells are all numbers becomes a number column. */
  inferred?: boolean;
}

const TIME_COLUMNS = new Set(['time', 'startOfPeriod', 'endOfPeriod']);
const NUMBER_COLUMNS = new Set(['locationLatitude', 'locationLongitude']);
const TEXT_COLUMNS = new Set(['sourceType', 'outputFrequency', 'periodType']);
const FIELD_SUFFIX = /[. ](raw|value|status|qcAssessment|qcFlags)$/;

const ENGLISH_LOWER = new Map(Object.entries(ENGLISH_IDENTIFYING_COLUMNS).map(([k, v]) => [k.toLowerCase(), v]));

/** Canonical name of an identifying column header ('Start of Period' -> 'startOfPeriod'), or undefined. */
function identifyingColumnName(header: string): string | undefined {
  const h = header.trim();
  const english = ENGLISH_LOWER.get(h.toLowerCase());
  if (english) return english;
  if (TIME_COLUMNS.has(h) || NUMBER_COLUMNS.has(h) || TEXT_COLUMNS.has(h) || /^[a-z][A-Za-z]*Id$/.test(h)) return h;
  return undefined;
}

export function classifyColumn(header: string): ColumnInfo {
  const ident = identifyingColumnName(header);
  if (ident) {
    if (TIME_COLUMNS.has(ident)) return { kind: 'time', canonical: ident };
    if (NUMBER_COLUMNS.has(ident)) return { kind: 'number', canonical: ident };
    if (TEXT_COLUMNS.has(ident)) return { kind: 'text', canonical: ident };
    return { kind: 'identifier', canonical: ident };
  }
  const metric = parseMetricLabel(header);
  if (metric) return { kind: kindOfField(metric.field), canonical: formatMetricLabel(metric), metric };
  // Legacy or unknown labels: the field suffix still tells the kind; values are guessed from the cells.
  const suffix = FIELD_SUFFIX.exec(header)?.[1] as MetricLabelParts['field'] | undefined;
  if (suffix && suffix !== 'raw' && suffix !== 'value') return { kind: kindOfField(suffix) };
  return { kind: 'text', inferred: true };
}

function kindOfField(field: MetricLabelParts['field']): ColumnKind {
  switch (field) {
    case 'status':
      return 'status';
    case 'qcAssessment':
      return 'qcAssessment';
    case 'qcFlags':
      return 'qcFlags';
    default:
      return 'number'; // raw, value, or a bare label (its value)
  }
}
