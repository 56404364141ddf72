// The metric dictionary: quantities, aggregations, indexes and which labels exist per output frequency.
// One home for it: the emulator generates these labels, the table and the query language read them.
import type { OutputFrequency } from '../api/types';

export interface QuantityInfo {
  /** Canonical quantity stem, e.g. pm2_5ConcMass. */
  id: string;
  /** The english-style text, as seen in real english-label reports. */
  english: string;
  unit: string;
  /** metricSelect categories (`:pollutant`, `:pm25`, ...), lower case, without the colon. */
  categories: string[];
}

export const QUANTITIES: readonly QuantityInfo[] = [
  {
    id: 'pm1ConcMass',
    english: 'PM 1 mass concentration',
    unit: 'µg/m³',
    categories: ['pollutant', 'pm', 'pm1', 'node2'],
  },
  {
    id: 'pm2_5ConcMass',
    english: 'PM 2.5 mass concentration',
    unit: 'µg/m³',
    categories: ['pollutant', 'pm', 'pm25', 'node2'],
  },
  {
    id: 'pm10ConcMass',
    english: 'PM 10 mass concentration',
    unit: 'µg/m³',
    categories: ['pollutant', 'pm', 'pm10', 'node2'],
  },
  { id: 'pm1ConcNum', english: 'PM 1 number concentration', unit: '#/cm³', categories: ['pm', 'pm1', 'node2'] },
  { id: 'pm2_5ConcNum', english: 'PM 2.5 number concentration', unit: '#/cm³', categories: ['pm', 'pm25', 'node2'] },
  { id: 'pm10ConcNum', english: 'PM 10 number concentration', unit: '#/cm³', categories: ['pm', 'pm10', 'node2'] },
  { id: 'no2Conc', english: 'NO2 concentration', unit: 'ppb', categories: ['pollutant', 'gas', 'no2', 'node2'] },
  { id: 'o3Conc', english: 'Ozone', unit: 'ppb', categories: ['pollutant', 'gas', 'o3', 'node2'] },
  {
    id: 'temperatureAmbient',
    english: 'Temperature ambient',
    unit: '°C',
    categories: ['weather', 'temperature', 'node2'],
  },
  { id: 'temperatureInternal', english: 'Temperature internal', unit: '°C', categories: ['internal', 'temperature'] },
  {
    id: 'relHumidAmbient',
    english: 'Relative humidity ambient',
    unit: '%',
    categories: ['weather', 'humidity', 'node2'],
  },
  { id: 'relHumidInternal', english: 'Relative humidity internal', unit: '%', categories: ['internal', 'humidity'] },
  { id: 'windSpeed', english: 'Wind speed', unit: 'm/s', categories: ['weather', 'wind'] },
  { id: 'windDirection', english: 'Wind direction', unit: '°', categories: ['weather', 'wind'] },
  { id: 'atmosphericPressure', english: 'Atmospheric pressure', unit: 'hPa', categories: ['weather', 'pressure'] },
  // Seen in real node extracts (SERVICE fixtures): the node's own pressure sensor, and black carbon. Its
  // english text is the site quantity's ("Atmospheric pressure", as in the real english node report).
  { id: 'atmPressure', english: 'Atmospheric pressure', unit: 'hPa', categories: ['pressure'] },
  ...(
    ['AllSources', 'Biomass', 'FossilFuel', 'SpectralB', 'SpectralG', 'SpectralIR', 'SpectralR', 'SpectralUV'] as const
  ).map((part) => ({
    id: `bc${part}`,
    english: `Black carbon ${part.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`,
    unit: 'µg/m³',
    categories: ['bc'],
  })),
];

export const AGGREGATIONS = ['Individual', '1HourMean', '24HourRollingMean', 'Nowcast', '24HourMean'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export const AGGREGATION_ENGLISH: Record<Aggregation, string> = {
  Individual: 'individual',
  '1HourMean': '1-hour mean',
  '24HourRollingMean': '24-hour rolling mean',
  Nowcast: 'Nowcast',
  '24HourMean': '24-hour mean',
};

/** Short forms for a column header's second line (headers are narrow): what tells two columns apart. */
export const AGGREGATION_SHORT: Record<Aggregation, string> = {
  Individual: 'individual',
  '1HourMean': '1-h mean',
  '24HourRollingMean': '24-h rolling',
  Nowcast: 'NowCast',
  '24HourMean': '24-h mean',
};

export const INDEXES = ['UsEpaAqi', 'WaDwerAqi'] as const;
export type AqiIndex = (typeof INDEXES)[number];

/**
 * Tags of corrected columns (`<label>_<tag>`, e.g. `pm2_5ConcMass1HourMean_epa2021`): a column a correction cell
 * computes from a metric (core/aq/corrections.ts) keeps the metric's quantity, unit and averaging.
 */
export const CORRECTION_TAGS = ['epa2021', 'epafsm2021', 'nilson2022', 'fit', 'fitrh'] as const;
export type CorrectionTag = (typeof CORRECTION_TAGS)[number];

/** Per-metric field suffixes of csv-wide columns (`<label>.<field>`). */
export const METRIC_FIELDS = ['raw', 'status', 'value', 'qcAssessment', 'qcFlags'] as const;
export type MetricField = (typeof METRIC_FIELDS)[number];

const AGGREGATIONS_BY_FREQUENCY: Record<OutputFrequency, readonly Aggregation[]> = {
  minute: ['Individual'],
  hour: ['1HourMean', '24HourRollingMean', 'Nowcast'],
  day: ['24HourMean'],
};

const PM_MASS = new Set(['pm2_5ConcMass', 'pm10ConcMass']);
/** Quantities with a WA DWER index on their 1-hour mean, as in the service's real english report (fixtures). */
const WA_DWER = new Set(['no2Conc', 'o3Conc', 'pm10ConcMass', 'pm2_5ConcMass']);
const ROLLING = new Set(['pm1ConcMass', 'pm2_5ConcMass', 'pm10ConcMass', 'pm2_5ConcNum', 'pm10ConcNum', 'no2Conc']);

export interface MetricDefinition {
  label: string;
  quantity: QuantityInfo;
  aggregation: Aggregation;
  index?: AqiIndex;
}

/** Every metric label the service offers at an output frequency (canonical style), in a stable order. */
export function metricCatalog(frequency: OutputFrequency): MetricDefinition[] {
  const out: MetricDefinition[] = [];
  for (const quantity of QUANTITIES) {
    for (const aggregation of AGGREGATIONS_BY_FREQUENCY[frequency]) {
      if (aggregation === 'Nowcast' && !PM_MASS.has(quantity.id)) continue;
      if (aggregation === '24HourRollingMean' && !ROLLING.has(quantity.id)) continue;
      out.push({ label: quantity.id + aggregation, quantity, aggregation });
      // US EPA AQI: PM on NowCast and 24-hour means, NO2 on its 1-hour mean.
      const usEpa =
        (PM_MASS.has(quantity.id) && (aggregation === 'Nowcast' || aggregation === '24HourMean')) ||
        (quantity.id === 'no2Conc' && aggregation === '1HourMean');
      if (usEpa) out.push({ label: `${quantity.id}${aggregation}UsEpaAqi`, quantity, aggregation, index: 'UsEpaAqi' });
      // WA DWER index (Western Australia's Department of Water and Environmental Regulation) on 1-hour means.
      if (WA_DWER.has(quantity.id) && aggregation === '1HourMean') {
        out.push({ label: `${quantity.id}${aggregation}WaDwerAqi`, quantity, aggregation, index: 'WaDwerAqi' });
      }
    }
  }
  return out;
}
