// Minute measurements as a pure function of (seed, datasource, minute): nothing is stored.
import { MINUTE_MS } from './clock';
import * as hash from './hash';
import type { Datasource } from './world';
import * as world from './world';

// Bound once: under a CommonJS transform (tsx in tests) named imports are getters read on every use,
// which costs more than the work in these per-value loops.
const { mix32i } = hash;
const { inDailyOutage, Q, smokeFactor, COLLOCATED_BIAS } = world;

const MINUTES_PER_DAY = 1440;
/** Traffic profile (rush hours 08:00 and 18:00 UTC) and sun profile (peak 14:00 UTC), per minute of day. */
const TRAFFIC = new Float64Array(MINUTES_PER_DAY);
const SUN = new Float64Array(MINUTES_PER_DAY);
for (let m = 0; m < MINUTES_PER_DAY; m++) {
  const h = m / 60;
  TRAFFIC[m] = 0.65 + 0.7 * Math.exp(-(((h - 8) / 1.6) ** 2)) + 0.5 * Math.exp(-(((h - 18) / 2) ** 2));
  SUN[m] = Math.cos(((h - 14) / 24) * 2 * Math.PI);
}

/** Upper bound of a plausible mass concentration; above it a value is flagged QC.I.OOB.001. */
export const PM_MASS_UPPER_BOUND = 1000;
export const OOB_FLAG = 'QC.I.OOB.001';
/** Minutes of each hour at which qcInvalid datasources report out-of-bounds PM values. */
export const QC_INVALID_MINUTES = [17, 18, 19];

const I_PM1 = Q.pm1ConcMass;
const I_PM25 = Q.pm2_5ConcMass;
const I_PM10 = Q.pm10ConcMass;
const I_PM1N = Q.pm1ConcNum;
const I_PM25N = Q.pm2_5ConcNum;
const I_PM10N = Q.pm10ConcNum;
const I_NO2 = Q.no2Conc;
const I_O3 = Q.o3Conc;
const I_TA = Q.temperatureAmbient;
const I_TI = Q.temperatureInternal;
const I_RA = Q.relHumidAmbient;
const I_RI = Q.relHumidInternal;
const I_WS = Q.windSpeed;
const I_WD = Q.windDirection;
const I_AP = Q.atmosphericPressure;
const I_APN = Q.atmPressure;
const I_BC_ALL = Q.bcAllSources;
const I_BC_BIO = Q.bcBiomass;
const I_BC_FOSSIL = Q.bcFossilFuel;
/** Spectral channels (B, G, IR, R, UV) relative to the total. */
const BC_SPECTRAL = [
  [Q.bcSpectralB, 1.08],
  [Q.bcSpectralG, 1.03],
  [Q.bcSpectralIR, 1],
  [Q.bcSpectralR, 0.98],
  [Q.bcSpectralUV, 1.21],
] as const;

// Every generated value but a node's raw NO2 is positive and far below 2^31 / 100, so an int32 conversion
// rounds it (and is much cheaper than Math.round); multiplying by 0.01 is cheaper than dividing. Writers round
// again for display. Raw NO2 may be negative: roundSigned2.
const round2 = (x: number) => ((x * 100 + 0.5) | 0) * 0.01;
const roundSigned2 = (x: number) => Math.round(x * 100) * 0.01;

const GOLDEN = 0x9e3779b1;

/** Per-minute base hash of a datasource: every noise of that minute derives from it with one more mix. */
const minuteHash = (ds: Datasource, minute: number) => mix32i(ds.hash ^ Math.imul(minute, GOLDEN));
/** About 1 % of minutes have no measurement. */
const isGap = (h: number) => (h & 1023) < 10;
/** A centred noise in [-1, 1) from a hash and a channel. */
const channelNoise = (h: number, channel: number) => {
  const x = mix32i(h ^ channel);
  return ((x & 0xffff) + ((x >>> 16) & 0xffff)) / 65536 - 1;
};

// Slowly varying state: random points per hour, linearly interpolated; the last hour's points are memoized
// because rows of one datasource are generated hour by hour.
let slowDs: Datasource | undefined;
let slowHour = Number.NaN;
let slowA1 = 0;
let slowB1 = 0;
let slowA2 = 0;
let slowB2 = 0;
function slowPoints(ds: Datasource, hour: number): void {
  if (ds === slowDs && hour === slowHour) return;
  const ha = mix32i(ds.hash ^ Math.imul(hour, 0x85ebca6b) ^ 0x51a7);
  const hb = mix32i(ds.hash ^ Math.imul(hour + 1, 0x85ebca6b) ^ 0x51a7);
  slowA1 = channelNoise(ha, 1);
  slowB1 = channelNoise(hb, 1);
  slowA2 = channelNoise(ha, 2);
  slowB2 = channelNoise(hb, 2);
  slowDs = ds;
  slowHour = hour;
}

/** Offset of a minute's measurement within its minute: irregular milliseconds, as real sensors report. */
const offsetIn = (ds: Datasource, minute: number) =>
  500 + ((mix32i(ds.hash ^ Math.imul(minute, 0x27d4eb2d) ^ 0x7157) >>> 0) % 58_500);

/**
 * When the measurement of this minute was taken (ms since the epoch): at an irregular moment of the minute;
 * about 1 in 64 is taken late, in the next minute just before that minute's own (two in one minute, none in
 * this one). Never late at the end of an hour, nor just before or within the QC minutes :17-:19 or an outage,
 * so hour aggregates and the known situations keep their minutes.
 */
export function measuredAt(ds: Datasource, minute: number): number {
  const mh = minute - Math.floor(minute / 60) * 60;
  const late =
    (mix32i(ds.hash ^ Math.imul(minute, 0x165667b1)) & 63) === 0 &&
    mh !== 59 &&
    (mh < QC_INVALID_MINUTES[0] - 1 || mh > QC_INVALID_MINUTES[QC_INVALID_MINUTES.length - 1]) &&
    !ds.dailyOutage;
  if (!late) return minute * MINUTE_MS + offsetIn(ds, minute);
  return (minute + 1) * MINUTE_MS + Math.floor(offsetIn(ds, minute + 1) / 2);
}

/** True when the datasource produced a measurement at this minute (independent of subscriptions). */
export function hasMeasurement(ds: Datasource, minute: number): boolean {
  if (isGap(minuteHash(ds, minute))) return false;
  return !inDailyOutage(ds, minute * MINUTE_MS);
}

/**
 * Fills `raw` (NaN where the quantity is not measured) and `invalid` for one minute.
 * Returns false, leaving the buffers untouched, when there is no measurement at this minute.
 */
export function fillMinute(ds: Datasource, minute: number, raw: Float64Array, invalid: Uint8Array): boolean {
  const h = minuteHash(ds, minute);
  if (isGap(h) || (ds.dailyOutage && inDailyOutage(ds, minute * MINUTE_MS))) return false;
  const mod = minute - Math.floor(minute / MINUTES_PER_DAY) * MINUTES_PER_DAY;
  const traffic = TRAFFIC[mod];
  const sun = SUN[mod];
  const hour = Math.floor(minute / 60);
  // A collocated sensor breathes its reference site's air: the same slow variation and level.
  const air = ds.twin ?? ds;
  slowPoints(air, hour);
  const f = (minute - hour * 60) / 60;
  const s1 = slowA1 + (slowB1 - slowA1) * f;
  const s2 = slowA2 + (slowB2 - slowA2) * f;
  const n1 = channelNoise(h, 11);
  const n2 = channelNoise(h, 12);
  const n3 = channelNoise(h, 13);

  let pm25 = Math.max(0.3, air.level * 9 * traffic * (1 + 0.45 * s1) + 0.9 * n1) * smokeFactor(ds, minute);
  if (ds.twin) pm25 = COLLOCATED_BIAS.slope * pm25 + COLLOCATED_BIAS.intercept;
  const pm1 = Math.max(0.2, pm25 * 0.72 + 0.3 * n2);
  const pm10 = Math.max(0.5, pm25 * 1.55 + 2 + 0.9 * n3);
  const no2 = Math.max(0.5, air.level * 14 * traffic * (1 + 0.3 * s2) + 1.2 * n2);
  const o3 = Math.max(1, 30 + 14 * sun - 0.35 * no2 + 1.5 * n3);
  const ta = 12 + 7 * sun + 2 * s2 + 0.1 * n1;
  const ra = Math.min(100, Math.max(5, 65 - 20 * sun - 6 * s1 + 0.5 * n3));
  const m = ds.measures;
  raw[I_PM1] = m[I_PM1] ? round2(pm1) : Number.NaN;
  raw[I_PM25] = m[I_PM25] ? round2(pm25) : Number.NaN;
  raw[I_PM10] = m[I_PM10] ? round2(pm10) : Number.NaN;
  raw[I_PM1N] = m[I_PM1N] ? round2(pm1 * 6.5 + n1) : Number.NaN;
  raw[I_PM25N] = m[I_PM25N] ? round2(pm25 * 7 + n2) : Number.NaN;
  raw[I_PM10N] = m[I_PM10N] ? round2(pm10 * 7.2 + n3) : Number.NaN;
  raw[I_NO2] = m[I_NO2] ? roundSigned2(no2 - ds.gasOffset) : Number.NaN;
  raw[I_O3] = m[I_O3] ? round2(o3) : Number.NaN;
  raw[I_TA] = m[I_TA] ? round2(ta) : Number.NaN;
  raw[I_TI] = m[I_TI] ? round2(ta + 4.5 + 0.2 * n2) : Number.NaN;
  raw[I_RA] = m[I_RA] ? round2(ra) : Number.NaN;
  raw[I_RI] = m[I_RI] ? round2(Math.max(3, ra - 12 + 0.3 * n1)) : Number.NaN;
  raw[I_WS] = m[I_WS] ? round2(Math.max(0, 3 + 2 * s1 + 0.6 * n2)) : Number.NaN;
  // 200 ± 102 degrees: always within [0, 360), so no (slow, floating) modulo is needed.
  raw[I_WD] = m[I_WD] ? round2(200 + 90 * s2 + 12 * n3) : Number.NaN;
  raw[I_AP] = m[I_AP] ? round2(1013 + 6 * s2 + 0.2 * n1) : Number.NaN;
  raw[I_APN] = m[I_APN] ? round2(1011.5 + 6 * s2 + 0.4 * n3) : Number.NaN;
  fillBlackCarbon(ds, raw, traffic, s1, s2, n1, n2, n3);
  flagStuckSensor(ds, minute, raw, invalid, n1, n2);
  return true;
}

/** Black carbon (fossil, biomass, total and the spectral channels), or NaN where it is not measured. */
function fillBlackCarbon(
  ds: Datasource,
  raw: Float64Array,
  traffic: number,
  s1: number,
  s2: number,
  n1: number,
  n2: number,
  n3: number,
): void {
  if (!ds.measures[I_BC_ALL]) {
    raw[I_BC_ALL] = raw[I_BC_BIO] = raw[I_BC_FOSSIL] = Number.NaN;
    for (const [q] of BC_SPECTRAL) raw[q] = Number.NaN;
    return;
  }
  const fossil = Math.max(0.05, ds.level * 0.9 * traffic * (1 + 0.3 * s1) + 0.05 * n1);
  const biomass = Math.max(0.02, ds.level * 0.35 * (1 + 0.4 * s2) + 0.03 * n2);
  raw[I_BC_FOSSIL] = round2(fossil);
  raw[I_BC_BIO] = round2(biomass);
  raw[I_BC_ALL] = round2(fossil + biomass);
  for (const [q, f] of BC_SPECTRAL) raw[q] = round2((fossil + biomass) * f + 0.02 * n3);
}

/** The QC-invalid minutes of a datasource with a stuck sensor: PM mass far out of range, and flagged. */
function flagStuckSensor(
  ds: Datasource,
  minute: number,
  raw: Float64Array,
  invalid: Uint8Array,
  n1: number,
  n2: number,
): void {
  // Only PM mass can be flagged (cheaper than clearing the whole array).
  invalid[I_PM25] = 0;
  invalid[I_PM10] = 0;
  if (!ds.qcInvalid) return;
  const mh = minute % 60;
  if (mh >= QC_INVALID_MINUTES[0] && mh <= QC_INVALID_MINUTES[QC_INVALID_MINUTES.length - 1]) {
    // A stuck optical sensor: far above the plausible range, flagged out of bounds.
    raw[I_PM25] = round2(PM_MASS_UPPER_BOUND + 500 + 20 * n1);
    raw[I_PM10] = round2(PM_MASS_UPPER_BOUND + 700 + 20 * n2);
    invalid[I_PM25] = 1;
    invalid[I_PM10] = 1;
  }
}
