// EPA air-quality formulas, pure and hand-checkable: NowCast (PM) and the US EPA AQI (2024 breakpoints).

/** Below this |x|·10^decimals, at most one decimal with that many places reads back as any one double. */
const EXACT_SCALED = 2 ** 50;

/**
 * Truncates (not rounds) toward zero to `decimals` places, as EPA and AirNow truncate concentrations
 * (−1.23 → −1.2). It cuts the decimal value as written (the shortest decimal that reads back as the same
 * double, as JavaScript prints it): 9.1 stays 9.1, 9.0999999999 becomes 9.0. Never −0; NaN and ±∞ unchanged.
 */
export function truncateTo(x: number, decimals: number): number {
  if (!Number.isFinite(x) || x === 0) return x === 0 ? 0 : x;
  const a = Math.abs(x);
  const f = 10 ** decimals;
  let cut: number;
  if (a * f < EXACT_SCALED && Number.isInteger(decimals) && decimals >= 0 && decimals <= 15) {
    // k/f ≤ the written decimal exactly when the double nearest k/f is ≤ a (one such decimal per double here).
    let k = Math.floor(a * f);
    while ((k + 1) / f <= a) k++;
    while (k > 0 && k / f > a) k--;
    cut = k / f;
  } else cut = truncateText(a, decimals);
  return x < 0 && cut !== 0 ? -cut : cut;
}

/** The digits of a positive number's shortest text cut after `decimals` places (any magnitude). */
function truncateText(a: number, decimals: number): number {
  const [mantissa, exponent] = String(a).split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  // The decimal point sits after `point` of `digits`; keep the digits up to `decimals` after it.
  const keep = whole.length + (exponent ? Number(exponent) : 0) + decimals;
  if (keep >= digits.length) return a;
  return keep > 0 ? Number(`${digits.slice(0, keep)}e${-decimals}`) : 0;
}

/**
 * EPA NowCast for PM. `hourly[0]` is the newest hourly mean (c1), `hourly[11]` the oldest (c12);
 * NaN marks an hour without data. Needs at least 2 of the 3 newest hours; the weight factor
 * w = cmin/cmax is floored at 0.5; the result is truncated to `decimals` places: EPA truncates the
 * PM2.5 NowCast to 0.1 µg/m³ (the default) and the PM10 NowCast to 1 µg/m³ (`nowcastDecimals`).
 * NaN when not computable.
 */
export function nowcast(hourly: ArrayLike<number>, decimals = 1): number {
  const n = Math.min(12, hourly.length);
  let recent = 0;
  for (let i = 0; i < Math.min(3, n); i++) if (!Number.isNaN(hourly[i])) recent++;
  if (recent < 2) return Number.NaN;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const c = hourly[i];
    if (Number.isNaN(c)) continue;
    if (c < min) min = c;
    if (c > max) max = c;
  }
  let w = max > 0 ? min / max : 1;
  if (w < 0.5) w = 0.5;
  let num = 0;
  let den = 0;
  let wi = 1;
  for (let i = 0; i < n; i++, wi *= w) {
    const c = hourly[i];
    if (Number.isNaN(c)) continue;
    num += wi * c;
    den += wi;
  }
  return truncateTo(num / den, decimals);
}

/** EPA's truncation of a PM NowCast (Technical Assistance Document for the Reporting of Daily Air Quality):
 * PM2.5 to 0.1 µg/m³, PM10 to whole µg/m³. */
export function nowcastDecimals(pollutant: 'pm2_5' | 'pm10'): number {
  return pollutant === 'pm10' ? 0 : 1;
}

/** One AQI band: concentrations [cLo, cHi] map to index [iLo, iHi]. */
type Band = readonly [cLo: number, cHi: number, iLo: number, iHi: number];

const INDEX_BANDS = [
  [0, 50],
  [51, 100],
  [101, 150],
  [151, 200],
  [201, 300],
  [301, 500],
] as const;

function bands(concentrations: ReadonlyArray<readonly [number, number]>): Band[] {
  return concentrations.map(([lo, hi], i) => [lo, hi, INDEX_BANDS[i][0], INDEX_BANDS[i][1]] as const);
}

/** PM2.5 (µg/m³, 24 h / NowCast), 2024 revision. */
export const PM25_BANDS = bands([
  [0.0, 9.0],
  [9.1, 35.4],
  [35.5, 55.4],
  [55.5, 125.4],
  [125.5, 225.4],
  [225.5, 325.4],
]);
/** PM10 (µg/m³). */
export const PM10_BANDS = bands([
  [0, 54],
  [55, 154],
  [155, 254],
  [255, 354],
  [355, 424],
  [425, 604],
]);
/** NO2 (ppb, 1 hour). */
export const NO2_BANDS = bands([
  [0, 53],
  [54, 100],
  [101, 360],
  [361, 649],
  [650, 1249],
  [1250, 2049],
]);

/** Linear interpolation within the band holding `c` (already truncated); capped at 500; NaN for NaN. */
export function aqiFromBands(c: number, table: readonly Band[]): number {
  if (Number.isNaN(c)) return Number.NaN;
  if (c <= 0) return 0;
  for (const [cLo, cHi, iLo, iHi] of table) {
    if (c <= cHi) return Math.round(((iHi - iLo) / (cHi - cLo)) * (Math.max(c, cLo) - cLo) + iLo);
  }
  return 500;
}

export type AqiPollutant = 'pm2_5' | 'pm10' | 'no2';

/** US EPA AQI after the EPA truncation: PM2.5 to 0.1 µg/m³, PM10 to 1 µg/m³, NO2 to 1 ppb. */
export function usEpaAqi(pollutant: AqiPollutant, concentration: number): number {
  switch (pollutant) {
    case 'pm2_5':
      return aqiFromBands(truncateTo(concentration, 1), PM25_BANDS);
    case 'pm10':
      return aqiFromBands(truncateTo(concentration, 0), PM10_BANDS);
    case 'no2':
      return aqiFromBands(truncateTo(concentration, 0), NO2_BANDS);
  }
}

/** Pollutants with a Western Australia DWER index on their 1-hour means (the service's `WaDwerAqi`). */
export type WaDwerPollutant = 'pm2_5' | 'pm10' | 'no2' | 'o3';

/**
 * Reference concentrations of the WA DWER index (index 100 = the reference; µg/m³ for PM, ppb for gases).
 * NO2 0.12 ppm and O3 0.10 ppm: the 1-hour NEPM standards DWER's index is built on (Department of
 * Environment Regulation table as quoted by aqicn.org, "Australian Air Quality comparison with the US EPA
 * AQI scale", 2014-09-06: "NO2 1 hour 0.12 ppm: Count = AQI*0.12/100"; "O3 1 hour 0.10 ppm"). PM2.5 and PM10:
 * 100 µg/m³, read off the service's own english report (fixtures/public-node-report-hourly-english.csv): its
 * 1-hour-mean WaDwerAqi is the mean rounded, for both (PM10 13.42 -> 13, 187.74 -> 188; PM2.5 12.41 -> 12).
 */
export const WA_DWER_REFERENCE: Readonly<Record<WaDwerPollutant, number>> = {
  pm2_5: 100,
  pm10: 100,
  no2: 120,
  o3: 100,
};

/**
 * The WA DWER air quality index: the concentration as a percentage of the reference, rounded half up to an
 * integer (the real report: 2.50 -> 3, 68.50 -> 69); 0 at or below zero; NaN for no value. Proportional, no
 * breakpoints: DWER's index is "concentration / standard × 100" (hrbonz/python-aqi issue 21, quoting
 * der.wa.gov.au/your-environment/air/air-quality-index).
 */
export function waDwerAqi(pollutant: WaDwerPollutant, concentration: number): number {
  if (Number.isNaN(concentration)) return Number.NaN;
  if (concentration <= 0) return 0;
  return Math.floor((concentration / WA_DWER_REFERENCE[pollutant]) * 100 + 0.5 + 1e-9);
}

/** The six US EPA AQI categories with EPA's official colours (AirNow: RGB 0,228,0 … 126,0,35). */
export interface AqiCategory {
  /** 0 (Good) … 5 (Hazardous). */
  level: number;
  name: string;
  /** Short name for narrow places (chips); the full name is always in the tooltip or legend. */
  short: string;
  /** One to three letters that name the category without its colour (map markers, table chips). */
  abbr: string;
  colour: string;
  /** Text colour with enough contrast on `colour` (EPA's yellow needs dark text, maroon needs light). */
  textColour: string;
  indexLow: number;
  indexHigh: number;
}

export const AQI_CATEGORIES: readonly AqiCategory[] = [
  {
    level: 0,
    name: 'Good',
    short: 'Good',
    abbr: 'G',
    colour: '#00e400',
    textColour: '#000000',
    indexLow: 0,
    indexHigh: 50,
  },
  {
    level: 1,
    name: 'Moderate',
    short: 'Moderate',
    abbr: 'M',
    colour: '#ffff00',
    textColour: '#000000',
    indexLow: 51,
    indexHigh: 100,
  },
  {
    level: 2,
    name: 'Unhealthy for Sensitive Groups',
    short: 'USG',
    abbr: 'USG',
    colour: '#ff7e00',
    textColour: '#000000',
    indexLow: 101,
    indexHigh: 150,
  },
  {
    level: 3,
    name: 'Unhealthy',
    short: 'Unhealthy',
    abbr: 'U',
    colour: '#ff0000',
    textColour: '#ffffff',
    indexLow: 151,
    indexHigh: 200,
  },
  {
    level: 4,
    name: 'Very Unhealthy',
    short: 'Very Unh.',
    abbr: 'VU',
    colour: '#8f3f97',
    textColour: '#ffffff',
    indexLow: 201,
    indexHigh: 300,
  },
  {
    level: 5,
    name: 'Hazardous',
    short: 'Hazardous',
    abbr: 'H',
    colour: '#7e0023',
    textColour: '#ffffff',
    indexLow: 301,
    indexHigh: 500,
  },
];

/** The category of an AQI value (rounded index); undefined for NaN or a negative value. Above 500 is Hazardous. */
export function aqiCategory(index: number): AqiCategory | undefined {
  if (Number.isNaN(index) || index < 0) return undefined;
  const i = Math.round(index);
  return AQI_CATEGORIES.find((c) => i <= c.indexHigh) ?? AQI_CATEGORIES[5];
}

export function bandsOf(pollutant: AqiPollutant): readonly Band[] {
  return pollutant === 'pm2_5' ? PM25_BANDS : pollutant === 'pm10' ? PM10_BANDS : NO2_BANDS;
}

/** The category of a concentration (EPA truncation first, as the AQI itself). */
export function concentrationCategory(pollutant: AqiPollutant, concentration: number): AqiCategory | undefined {
  return aqiCategory(usEpaAqi(pollutant, concentration));
}

/**
 * The concentration ranges of the categories, contiguous, for drawing bands behind a chart:
 * band i runs from its own low breakpoint to the next band's (the last to its high breakpoint).
 */
export function categoryConcentrationBands(
  pollutant: AqiPollutant,
): Array<{ category: AqiCategory; from: number; to: number }> {
  const b = bandsOf(pollutant);
  return b.map(([cLo, cHi], i) => ({
    category: AQI_CATEGORIES[i],
    from: cLo,
    to: i + 1 < b.length ? b[i + 1][0] : cHi,
  }));
}

/** The index bands as ranges for an AQI axis (0–50, 50–100, …), contiguous. */
export function categoryIndexBands(): Array<{ category: AqiCategory; from: number; to: number }> {
  return AQI_CATEGORIES.map((c, i) => ({ category: c, from: i === 0 ? 0 : c.indexLow - 1, to: c.indexHigh }));
}
