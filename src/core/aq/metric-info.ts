// What the air-quality views need to know about a metric: its unit (from the metric catalogue), whether
// its values are a US EPA AQI, and whether its averaging has EPA breakpoints (a concentration chip).
import type { MetricLabelParts } from '../metrics/labels';
import { quantityInfo } from '../metrics/labels';
import { type AqiCategory, type AqiPollutant, categoryConcentrationBands, categoryIndexBands } from './aqi';

const POLLUTANT_BY_QUANTITY: Record<string, AqiPollutant> = {
  pm2_5ConcMass: 'pm2_5',
  pm10ConcMass: 'pm10',
  no2Conc: 'no2',
};

/** EPA breakpoints are defined for PM on 24-hour averages (and the NowCast that estimates them), NO2 on 1 hour. */
const EPA_AVERAGING: Record<AqiPollutant, readonly string[]> = {
  pm2_5: ['Nowcast', '24HourMean', '24HourRollingMean'],
  pm10: ['Nowcast', '24HourMean', '24HourRollingMean'],
  no2: ['1HourMean'],
};

type MetricScale =
  /** The value is a US EPA AQI (an index, no unit). */
  | { kind: 'aqi'; unit: 'AQI' }
  /** A concentration whose averaging has EPA breakpoints. */
  | { kind: 'concentration'; unit: string; pollutant: AqiPollutant }
  /** Anything else with a known unit. */
  | { kind: 'plain'; unit: string };

/** The scale of a metric column's values; undefined when the column is not a known metric or not a value. */
export function metricScale(parts: MetricLabelParts | undefined): MetricScale | undefined {
  if (!parts) return undefined;
  if (parts.field && parts.field !== 'value' && parts.field !== 'raw') return undefined;
  if (parts.index === 'UsEpaAqi') return { kind: 'aqi', unit: 'AQI' };
  const q = quantityInfo(parts.quantity);
  if (!q) return undefined;
  if (parts.index) return { kind: 'plain', unit: 'index' };
  const pollutant = POLLUTANT_BY_QUANTITY[q.id];
  if (pollutant && parts.aggregation && EPA_AVERAGING[pollutant].includes(parts.aggregation))
    return { kind: 'concentration', unit: q.unit, pollutant };
  return { kind: 'plain', unit: q.unit };
}

/** The EPA pollutant of a metric's quantity (PM2.5, PM10, NO2; any averaging, not an index); undefined for others. */
export function pollutantOf(parts: MetricLabelParts | undefined): AqiPollutant | undefined {
  const q = parts && !parts.index ? quantityInfo(parts.quantity) : undefined;
  return q ? POLLUTANT_BY_QUANTITY[q.id] : undefined;
}

/**
 * The AQI category bands to draw behind a metric's values (the on-screen chart and its image): the index bands
 * for a US EPA AQI, the concentration bands for an averaging with EPA breakpoints, none for anything else.
 */
export function aqiBandsOf(
  parts: MetricLabelParts | undefined,
): Array<{ category: AqiCategory; from: number; to: number }> {
  const scale = metricScale(parts);
  if (scale?.kind === 'aqi') return categoryIndexBands();
  if (scale?.kind === 'concentration') return categoryConcentrationBands(scale.pollutant);
  return [];
}

/** The unit of a metric column, e.g. `µg/m³`, `AQI`; undefined when not known. */
export function metricUnit(parts: MetricLabelParts | undefined): string | undefined {
  return metricScale(parts)?.unit;
}

/**
 * The default exceedance threshold of a metric: the 24-hour standard for 24-hour PM (35 µg/m³ PM2.5,
 * 150 µg/m³ PM10), otherwise the top of the AQI "Moderate" band (AQI 100, PM2.5 35.4, PM10 154,
 * NO2 100 ppb), so "above" means Unhealthy for Sensitive Groups or worse. Undefined without EPA breakpoints.
 */
export function defaultThreshold(parts: MetricLabelParts | undefined): number | undefined {
  const scale = metricScale(parts);
  if (!scale || scale.kind === 'plain') return undefined;
  if (scale.kind === 'aqi') return 100;
  const daily = parts?.aggregation === '24HourMean' || parts?.aggregation === '24HourRollingMean';
  if (scale.pollutant === 'pm2_5') return daily ? 35 : 35.4;
  if (scale.pollutant === 'pm10') return daily ? 150 : 154;
  return 100;
}

/**
 * Whether a metric is a PM2.5 mass concentration (any averaging, not an index): the metrics EPA's PM2.5
 * sensor performance targets are defined for.
 */
export function isPm25Concentration(parts: MetricLabelParts | undefined): boolean {
  if (!parts || parts.index) return false;
  if (parts.field && parts.field !== 'value' && parts.field !== 'raw') return false;
  return quantityInfo(parts.quantity)?.id === 'pm2_5ConcMass';
}

/**
 * The pollutant whose EPA 24-hour breakpoints categorise a daily mean of this metric: PM2.5 and PM10 mass
 * concentrations of any averaging (a day's mean of their values is a 24-hour mean). Undefined otherwise: NO2's
 * breakpoints are for 1-hour values, and a day's mean of an AQI is not EPA's daily AQI.
 */
export function dailyMeanPollutant(parts: MetricLabelParts | undefined): 'pm2_5' | 'pm10' | undefined {
  if (!parts || parts.index) return undefined;
  if (parts.field && parts.field !== 'value' && parts.field !== 'raw') return undefined;
  const pollutant = POLLUTANT_BY_QUANTITY[quantityInfo(parts.quantity)?.id ?? ''];
  return pollutant === 'pm2_5' || pollutant === 'pm10' ? pollutant : undefined;
}
