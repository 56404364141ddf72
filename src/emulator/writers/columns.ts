// Column layout shared by the csv-wide and parquet-wide writers (SERVICE-FACTS "csv-wide layout").
import type { MetricLabelStyle, OutputFrequency, ReportIdColumn } from '../../core/api/types';
import type { MetricField } from '../../core/metrics/catalog';
import { ENGLISH_IDENTIFYING_COLUMNS, formatMetricLabel } from '../../core/metrics/labels';
import type { CompiledMetric } from '../aggregates';

/** The first column: datasource reports and the recent query name rows by datasource, others by node or site. */
export type IdColumn = ReportIdColumn;

export interface WideLayout {
  idColumn: IdColumn;
  frequency: OutputFrequency;
  labelStyle: MetricLabelStyle;
  /** Reports always carry raw/status/value per metric; the recent query only the value unless QC is asked. */
  valueColumns: boolean;
  qcAssessment: boolean;
  qcFlags: boolean;
  locationDecimals: number;
  /** Sort metric columns by canonical label, whatever the label style (as real files are). */
  sortMetrics: boolean;
}

interface MetricColumns {
  metric: CompiledMetric;
  /** Position of the metric in the row values. */
  index: number;
  /** Fields in column order; undefined = the single value column named by the label. */
  fields: Array<{ field: MetricField; name: string }> | undefined;
  name: string;
}

const ENGLISH_BY_CANONICAL = Object.fromEntries(Object.entries(ENGLISH_IDENTIFYING_COLUMNS).map(([e, c]) => [c, e]));

export function identifyingColumns(layout: WideLayout): string[] {
  const cols = [layout.idColumn, 'sourceId', 'sourceType', 'outputFrequency'];
  cols.push(...(layout.frequency === 'minute' ? ['time'] : ['startOfPeriod', 'endOfPeriod']));
  cols.push('locationLatitude', 'locationLongitude');
  return layout.labelStyle === 'english' ? cols.map((c) => ENGLISH_BY_CANONICAL[c] ?? c) : cols;
}

/** Metric column groups; legacy labels drop the aggregation, so later metrics with a taken label are left out. */
export function metricColumns(layout: WideLayout, metrics: readonly CompiledMetric[]): MetricColumns[] {
  const fields: MetricField[] | undefined =
    layout.valueColumns || layout.qcAssessment || layout.qcFlags
      ? [
          ...(layout.qcAssessment ? (['qcAssessment'] as const) : []),
          ...(layout.qcFlags ? (['qcFlags'] as const) : []),
          'raw',
          'status',
          'value',
        ]
      : undefined;
  const taken = new Set<string>();
  const out: MetricColumns[] = [];
  metrics.forEach((metric, index) => {
    const parts = {
      quantity: metric.def.quantity.id,
      aggregation: metric.def.aggregation,
      index: metric.def.index,
    };
    const name = formatMetricLabel(parts, layout.labelStyle);
    if (taken.has(name)) return;
    taken.add(name);
    out.push({
      metric,
      index,
      name,
      fields: fields?.map((field) => ({ field, name: formatMetricLabel({ ...parts, field }, layout.labelStyle) })),
    });
  });
  if (layout.sortMetrics) {
    const key = (c: MetricColumns) => c.metric.def.label;
    out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  return out;
}

/** Two decimals, like toFixed(2) but cheaper (hot path of every csv cell); non-finite values are empty. */
function fixed2(x: number): string {
  if (!Number.isFinite(x)) return '';
  if (x < 0) {
    const t = fixed2(-x);
    return t === '0.00' ? t : `-${t}`;
  }
  if (x >= 1e15) return x.toFixed(2);
  const cents = Math.round(x * 100);
  const whole = Math.floor(cents / 100);
  const frac = cents - whole * 100;
  return `${whole}.${frac < 10 ? '0' : ''}${frac}`;
}

/** At most two decimals, without trailing zeros (JSON numbers). */
export function decimal2(x: number): string {
  const t = fixed2(x);
  if (t.endsWith('.00')) return t.slice(0, -3);
  return t.endsWith('0') ? t.slice(0, -1) : t;
}

export function formatNumber(x: number, isIndex: boolean): string {
  if (Number.isNaN(x)) return '';
  return isIndex ? String(x) : fixed2(x);
}

/** A cache key for everything in a layout that changes row text. */
export function layoutShape(layout: WideLayout, metrics: readonly CompiledMetric[]): string {
  return `wide|${JSON.stringify(layout)}|${metrics.map((m) => m.def.label).join(',')}`;
}
