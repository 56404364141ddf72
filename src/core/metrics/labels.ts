// Metric labels: canonical, english and legacy styles <-> their parts.

import type { MetricLabelStyle } from '../api/types';
import {
  AGGREGATION_ENGLISH,
  AGGREGATION_SHORT,
  AGGREGATIONS,
  type Aggregation,
  type AqiIndex,
  CORRECTION_TAGS,
  type CorrectionTag,
  INDEXES,
  METRIC_FIELDS,
  type MetricField,
  QUANTITIES,
  type QuantityInfo,
} from './catalog';

export interface MetricLabelParts {
  quantity: string;
  aggregation?: Aggregation;
  index?: AqiIndex;
  field?: MetricField;
  /** A corrected column's method (`<label>_<tag>`): same quantity and unit, values from a correction cell. */
  correction?: CorrectionTag;
}

const QUANTITY_BY_ID = new Map(QUANTITIES.map((q) => [q.id.toLowerCase(), q]));
// The first quantity of an english text wins: node and site pressure share "Atmospheric pressure".
const QUANTITY_BY_ENGLISH = new Map(QUANTITIES.toReversed().map((q) => [q.english.toLowerCase(), q]));
const AGGREGATION_BY_ENGLISH = new Map(
  AGGREGATIONS.map((a) => [AGGREGATION_ENGLISH[a].toLowerCase(), a] as [string, Aggregation]),
);
// Longest first so that "24HourRollingMean" wins over "24HourMean" prefixes and pm10 over pm1.
const QUANTITY_IDS_LONGEST_FIRST = [...QUANTITIES].sort((a, b) => b.id.length - a.id.length);

export function quantityInfo(id: string): QuantityInfo | undefined {
  return QUANTITY_BY_ID.get(id.toLowerCase());
}

/** Parses `<quantity><aggregation>[<index>][.<field>]`; undefined when it is not a canonical label. */
export function parseCanonicalLabel(label: string): MetricLabelParts | undefined {
  let rest = label;
  let field: MetricField | undefined;
  const dot = rest.lastIndexOf('.');
  if (dot > 0) {
    const f = rest.slice(dot + 1) as MetricField;
    if (!METRIC_FIELDS.includes(f)) return undefined;
    field = f;
    rest = rest.slice(0, dot);
  }
  let correction: CorrectionTag | undefined;
  const underscore = rest.lastIndexOf('_');
  const tag = rest.slice(underscore + 1) as CorrectionTag;
  if (underscore > 0 && CORRECTION_TAGS.includes(tag)) {
    correction = tag;
    rest = rest.slice(0, underscore);
  }
  const quantity = QUANTITY_IDS_LONGEST_FIRST.find((q) => rest.startsWith(q.id));
  if (!quantity) return undefined;
  rest = rest.slice(quantity.id.length);
  let index: AqiIndex | undefined;
  for (const i of INDEXES) {
    if (rest.endsWith(i)) {
      index = i;
      rest = rest.slice(0, -i.length);
    }
  }
  if (!(AGGREGATIONS as readonly string[]).includes(rest)) return undefined;
  return { quantity: quantity.id, aggregation: rest as Aggregation, index, field, ...(correction && { correction }) };
}

/**
 * Parses an english-style header such as "PM 2.5 mass concentration, Nowcast, UsEpaAqi value"
 * into the same parts; undefined for anything else (identifying columns, unknown text).
 */
export function parseEnglishLabel(label: string): MetricLabelParts | undefined {
  let rest = label.trim();
  let field: MetricField | undefined;
  const space = rest.lastIndexOf(' ');
  if (space > 0) {
    const f = rest.slice(space + 1) as MetricField;
    if (METRIC_FIELDS.includes(f)) {
      field = f;
      rest = rest.slice(0, space);
    }
  }
  const parts = rest.split(',').map((p) => p.trim());
  const quantity = QUANTITY_BY_ENGLISH.get(parts[0].toLowerCase());
  if (!quantity || parts.length < 2 || parts.length > 3) return undefined;
  const aggregation = AGGREGATION_BY_ENGLISH.get(parts[1].toLowerCase());
  if (!aggregation) return undefined;
  let index: AqiIndex | undefined;
  if (parts.length === 3) {
    index = INDEXES.find((i) => i.toLowerCase() === parts[2].toLowerCase());
    if (!index) return undefined;
  }
  return { quantity: quantity.id, aggregation, index, field };
}

/** Parts of a canonical or english label; legacy labels are ambiguous and give undefined (kept as text). */
export function parseMetricLabel(label: string): MetricLabelParts | undefined {
  return parseCanonicalLabel(label) ?? parseEnglishLabel(label);
}

/** Formats parts in a label style. Legacy drops the aggregation (ambiguous by design). */
export function formatMetricLabel(parts: MetricLabelParts, style: MetricLabelStyle = 'canonical'): string {
  const q = quantityInfo(parts.quantity);
  if (style === 'english' && q && parts.aggregation) {
    const base = [q.english, AGGREGATION_ENGLISH[parts.aggregation], parts.index, parts.correction]
      .filter(Boolean)
      .join(', ');
    return parts.field ? `${base} ${parts.field}` : base;
  }
  const tag = parts.correction ? `_${parts.correction}` : '';
  const stem =
    style === 'legacy'
      ? `${parts.quantity}${parts.index ?? ''}${tag}`
      : `${parts.quantity}${parts.aggregation ?? ''}${parts.index ?? ''}${tag}`;
  return parts.field ? `${stem}.${parts.field}` : stem;
}

const INDEX_SHORT: Record<AqiIndex, string> = { UsEpaAqi: 'US AQI', WaDwerAqi: 'WA index' };

/**
 * A metric column's header on two lines, short enough for a narrow column: the quantity and its index
 * (`pm2_5ConcMass · US AQI`), then the aggregation and the field (`NowCast · value`): what tells apart the
 * columns of one quantity is always on a line of its own.
 */
export function headerLines(parts: MetricLabelParts): { metric: string; detail: string } {
  const metric = parts.index ? `${parts.quantity} · ${INDEX_SHORT[parts.index]}` : parts.quantity;
  const detail = [parts.aggregation && AGGREGATION_SHORT[parts.aggregation], parts.correction, parts.field];
  return { metric, detail: detail.filter(Boolean).join(' · ') };
}

/** English headers of the identifying columns (real english reports) -> canonical names. */
export const ENGLISH_IDENTIFYING_COLUMNS: Record<string, string> = {
  'Datasource Id': 'datasourceId',
  'Source Id': 'sourceId',
  'Source Type': 'sourceType',
  'Output Frequency': 'outputFrequency',
  Time: 'time',
  'Start of Period': 'startOfPeriod',
  'End of Period': 'endOfPeriod',
  'Location Latitude [deg]': 'locationLatitude',
  'Location Longitude [deg]': 'locationLongitude',
};
