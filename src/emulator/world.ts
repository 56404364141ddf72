// The emulated world: orgs, API keys and datasources, all derived from the seed (nothing random at run time).
// Special datasources (by index in the demo org) give tests and demos known situations; see WORLD_ROLES.
import { createHmac } from 'node:crypto';
import type { SourceType } from '../core/api/types';
import { QUANTITIES } from '../core/metrics/catalog';
import { DAY_MS, HOUR_MS } from './clock';
import { hash4, mix32, unit } from './hash';

export const DEMO_ORG = 'demo-org';
export const SECOND_ORG = 'second-org';

/** Roles of demo-org datasources by index; the ids follow from the seed. */
export const WORLD_ROLES = {
  /** Moved 3 hours before the anchor (json-long locations carry changedAt). */
  moved: 1,
  /** PM minute values out of bounds (QC.I.OOB.001) at minutes :17-:19 of every hour; also every index ≡ 2 (mod 10). */
  qcInvalid: 2,
  /** Not subscribed during [anchor-20h, anchor-14h) and [anchor+2h, anchor+5h): no data then. */
  unsubscribed: 3,
  /** PM values have status calibration-missing (value empty). */
  calibrationMissing: 5,
  /** No measurements 03:00-03:45 UTC every day. */
  dailyOutage: 6,
  /** Subscribed only from anchor+1h: appears in allDatasources continuations after that. */
  lateSubscriber: 7,
  /** A sensor collocated with the reference site `collocatedReference` (same location, same air): PM reads 1.3 × reference + 2 µg/m³. */
  collocatedSensor: 8,
  collocatedReference: 4,
  /** Smoke episodes: PM × 6 from 10:00 to 20:00 UTC on even UTC days (days with exceedances). */
  smoky: 10,
} as const;

/** The collocated sensor's known bias against its reference site (PM mass): sensor = slope × reference + intercept. */
export const COLLOCATED_BIAS = { slope: 1.3, intercept: 2 } as const;

export const MIN_DEMO_DATASOURCES = 8;
export const SECOND_ORG_DATASOURCES = 3;

export const NQ = QUANTITIES.length;
export const Q = Object.fromEntries(QUANTITIES.map((q, i) => [q.id, i])) as Record<string, number>;

const NODE_QUANTITIES = [
  'pm1ConcMass',
  'pm2_5ConcMass',
  'pm10ConcMass',
  'pm1ConcNum',
  'pm2_5ConcNum',
  'pm10ConcNum',
  'no2Conc',
  'o3Conc',
  'temperatureAmbient',
  'temperatureInternal',
  'relHumidAmbient',
  'relHumidInternal',
  'atmPressure',
];
/** Black carbon (an aethalometer), on some nodes. */
const BC_QUANTITIES = QUANTITIES.filter((q) => q.categories.includes('bc')).map((q) => q.id);
const SITE_QUANTITIES = [
  'pm2_5ConcMass',
  'pm10ConcMass',
  'no2Conc',
  'o3Conc',
  'temperatureAmbient',
  'relHumidAmbient',
  'windSpeed',
  'windDirection',
  'atmosphericPressure',
];
const PM_MASS = new Set(['pm1ConcMass', 'pm2_5ConcMass', 'pm10ConcMass']);
const GAS = new Set(['no2Conc', 'o3Conc']);
const NUMBER_CONC = new Set(['pm1ConcNum', 'pm2_5ConcNum', 'pm10ConcNum']);
/** Statuses whose value is empty (the raw value is still reported). */
export const VALUELESS_STATUSES = new Set([
  'calibration-missing',
  'calibration-unknown',
  'calibration-error',
  'calibration-processing',
]);

/**
 * A datasource's statuses change over time: in some 6-hour blocks (about 1 in 8, by seed and datasource) its
 * calibration is being worked on, and a status moves to the one beside it with a value just as empty or not
 * (SERVICE-FACTS statuses): ready values are being reprocessed, missing ones processed.
 */
const STATUS_IN_EPISODE: Record<string, string> = {
  'calibrated-ready': 'calibrated-reprocessing',
  'calibration-missing': 'calibration-processing',
};
export const STATUS_EPISODE_MS = 6 * HOUR_MS;

/** The status of each quantity of a datasource at time t (ms). */
export function statusesAt(ds: Datasource, t: number): readonly string[] {
  const block = Math.floor(t / STATUS_EPISODE_MS);
  return (mix32(ds.hash ^ Math.imul(block, 0x2545f491)) & 7) === 0 ? ds.episodeStatus : ds.status;
}

export interface Location {
  lat: number;
  lon: number;
  /** First moment at this location (the first location starts at -Infinity). */
  from: number;
}

export interface Datasource {
  /** Index within its org. */
  index: number;
  /** Unique across orgs. */
  gid: number;
  /** Hash of (seed, gid): the root of every value this datasource produces. */
  hash: number;
  id: string;
  org: string;
  sourceType: SourceType;
  sourceId: string;
  name: string;
  group: string | null;
  tags: string[];
  subscriptionId: string;
  locations: Location[];
  /** Subscription intervals [from, to), sorted. */
  subscriptions: Array<[number, number]>;
  /** Per quantity: measured at all. */
  measures: Uint8Array;
  /** Per quantity: the value status and the linear calibration value = a·raw + b. */
  status: string[];
  /** Per quantity: the status while the calibration is being (re)processed (see statusesAt). */
  episodeStatus: string[];
  calA: Float64Array;
  calB: Float64Array;
  /** Per quantity: 1 when the status leaves the value empty. */
  valueless: Uint8Array;
  /** Per-source level multiplier for pollutants. */
  level: number;
  /**
   * Zero offset of a node's NO2 sensor (ppb, 0 on reference sites): its raw reading is the concentration
   * minus this, so it dips below zero near zero concentrations (real minute NO2 raw values reach -28); the
   * calibration adds it back.
   */
  gasOffset: number;
  qcInvalid: boolean;
  dailyOutage: boolean;
  /** Measures the same air as this datasource (a collocated reference site), with COLLOCATED_BIAS on PM. */
  twin?: Datasource;
  /** Has smoke episodes (see WORLD_ROLES.smoky). */
  smoky?: boolean;
}

export interface OrgInfo {
  org: string;
  apiKey: string;
  datasources: Datasource[];
}

export interface World {
  seed: number;
  anchor: number;
  orgs: Map<string, OrgInfo>;
  byKey: Map<string, OrgInfo>;
  /** Every datasource, indexed by gid. */
  all: Datasource[];
  byId: Map<string, Datasource>;
  /** Secret for signing tokens and file URLs (stable per seed). */
  secret: Buffer;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function makeId(prefix: string, seed: number, gid: number, salt: number, taken: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    let id = prefix;
    for (let i = 0; id.length < 8; i++) id += ALPHABET[hash4(seed, gid, salt + attempt * 97, i) % ALPHABET.length];
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

export function apiKeyFor(seed: number, org: string): string {
  return `emu_${createHmac('sha256', `measnb-emulator-seed:${seed}`).update(`key:${org}`).digest('hex').slice(0, 32)}`;
}

const GROUPS = ['Downtown', 'Harbour', 'School district', 'Industrial park', null];
const CITIES = [
  { lat: 37.7749, lon: -122.4194 },
  { lat: 51.5072, lon: -0.1276 },
  { lat: 28.6139, lon: 77.209 },
];

function makeDatasource(
  seed: number,
  org: string,
  index: number,
  gid: number,
  anchor: number,
  taken: Set<string>,
  demo: boolean,
): Datasource {
  const isSite = index % 5 === 4;
  const sourceType: SourceType = isSite ? 'REFERENCE_SITE' : 'SERVICE_NODE';
  const id = makeId('D', seed, gid, 1, taken);
  const sourceId = makeId(isSite ? 'R' : 'A', seed, gid, 2, taken);
  const city = CITIES[demo ? 0 : 1];
  const lat = city.lat + (unit(seed, gid, 3) - 0.5) * 0.2;
  const lon = city.lon + (unit(seed, gid, 4) - 0.5) * 0.2;
  const locations = locationsOf(lat, lon, demo && index === WORLD_ROLES.moved, anchor);
  const subscriptions = subscriptionsOf(demo ? index : -1, anchor);
  const gasOffset = isSite ? 0 : 4 + unit(seed, gid, 9) * 10;
  const { measures, status, calA, calB, valueless } = sensorsOf(seed, gid, index, isSite, demo, gasOffset);
  const group = GROUPS[hash4(seed, gid, 6) % GROUPS.length];
  return {
    index,
    gid,
    hash: hash4(seed, gid, 0x5eed) | 0,
    id,
    org,
    sourceType,
    sourceId,
    name: `${isSite ? 'Reference site' : 'Node'} ${index + 1}${group ? ` (${group})` : ''}`,
    group,
    tags: isSite ? ['reference'] : index % 3 === 0 ? ['outdoor', 'school'] : ['outdoor'],
    subscriptionId: makeId('S', seed, gid, 7, taken),
    locations,
    subscriptions,
    measures,
    status,
    episodeStatus: status.map((st) => STATUS_IN_EPISODE[st] ?? st),
    calA,
    calB,
    valueless,
    level: 0.6 + unit(seed, gid, 8) * 1.2,
    gasOffset,
    qcInvalid: demo ? index % 10 === WORLD_ROLES.qcInvalid : false,
    dailyOutage: demo && index === WORLD_ROLES.dailyOutage,
  };
}

/** Where a datasource is; the demo's moved one moves 3 hours before the anchor. */
function locationsOf(lat: number, lon: number, moved: boolean, anchor: number): Location[] {
  const locations: Location[] = [{ lat, lon, from: Number.NEGATIVE_INFINITY }];
  if (moved) locations.push({ lat: lat + 0.0123456, lon: lon - 0.0234567, from: anchor - 3 * HOUR_MS });
  return locations;
}

/** When a datasource is subscribed; `demoIndex` is its index in the demo org (-1 elsewhere). */
function subscriptionsOf(demoIndex: number, anchor: number): Array<[number, number]> {
  if (demoIndex === WORLD_ROLES.unsubscribed) {
    return [
      [Number.NEGATIVE_INFINITY, anchor - 20 * HOUR_MS],
      [anchor - 14 * HOUR_MS, anchor + 2 * HOUR_MS],
      [anchor + 5 * HOUR_MS, Number.POSITIVE_INFINITY],
    ];
  }
  if (demoIndex === WORLD_ROLES.lateSubscriber) return [[anchor + HOUR_MS, Number.POSITIVE_INFINITY]];
  return [[Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]];
}

/** What a datasource measures, each quantity's status and calibration, and which statuses carry no value. */
function sensorsOf(seed: number, gid: number, index: number, isSite: boolean, demo: boolean, gasOffset: number) {
  const measures = new Uint8Array(NQ);
  const status: string[] = new Array(NQ).fill('sensor-ready');
  const calA = new Float64Array(NQ).fill(1);
  const calB = new Float64Array(NQ);
  for (const q of isSite ? SITE_QUANTITIES : NODE_QUANTITIES) measures[Q[q]] = 1;
  if (!isSite && index % 4 === 1) for (const q of BC_QUANTITIES) measures[Q[q]] = 1;
  if (!isSite) {
    for (let qi = 0; qi < NQ; qi++) {
      const qid = QUANTITIES[qi].id;
      if (PM_MASS.has(qid)) {
        status[qi] = demo && index === WORLD_ROLES.calibrationMissing ? 'calibration-missing' : 'calibrated-ready';
        calA[qi] = 0.78 + unit(seed, gid, 5, qi) * 0.1;
        calB[qi] = 0.4;
      } else if (GAS.has(qid)) {
        // A status outside the documented list, as in real extracts: raw reported, value empty.
        status[qi] = qid === 'no2Conc' && index % 4 === 2 ? 'calibration-error' : 'calibrated-ready';
        calA[qi] = 0.9;
        if (qid === 'no2Conc') calB[qi] = 0.9 * gasOffset;
      } else if (NUMBER_CONC.has(qid) && index % 4 === 3) {
        // As in real node reports: number concentrations whose calibration state is unknown.
        status[qi] = 'calibration-unknown';
      }
    }
  }
  const valueless = new Uint8Array(NQ);
  for (let qi = 0; qi < NQ; qi++) valueless[qi] = VALUELESS_STATUSES.has(status[qi]) ? 1 : 0;
  return { measures, status, calA, calB, valueless };
}

/** Builds the world; `anchor` (ms, a whole hour) places the timed events (move, subscription changes). */
export function buildWorld(seed: number, anchor: number, datasourceCount = 20): World {
  const taken = new Set<string>();
  const all: Datasource[] = [];
  const orgs = new Map<string, OrgInfo>();
  const demoCount = Math.max(MIN_DEMO_DATASOURCES, Math.floor(datasourceCount));
  for (const [org, count, demo] of [
    [DEMO_ORG, demoCount, true],
    [SECOND_ORG, SECOND_ORG_DATASOURCES, false],
  ] as const) {
    const list: Datasource[] = [];
    for (let i = 0; i < count; i++) {
      const ds = makeDatasource(seed, org, i, all.length, anchor, taken, demo);
      list.push(ds);
      all.push(ds);
    }
    if (demo) placeRoles(list);
    orgs.set(org, { org, apiKey: apiKeyFor(seed, org), datasources: list });
  }
  const byKey = new Map([...orgs.values()].map((o) => [o.apiKey, o]));
  const byId = new Map(all.map((d) => [d.id, d]));
  const secret = createHmac('sha256', `measnb-emulator-seed:${seed}`).update('signing').digest();
  return { seed, anchor, orgs, byKey, all, byId, secret };
}

/** Roles that relate datasources to each other: the collocated pair, the smoky one. */
function placeRoles(list: Datasource[]): void {
  const sensor = list[WORLD_ROLES.collocatedSensor];
  const reference = list[WORLD_ROLES.collocatedReference];
  if (sensor && reference?.sourceType === 'REFERENCE_SITE') {
    sensor.locations = reference.locations.map((l) => ({ ...l }));
    sensor.twin = reference;
    // Its raw PM is reported as its value: the bias is the sensor's, not a calibration's.
    for (const q of PM_MASS) {
      sensor.calA[Q[q]] = 1;
      sensor.calB[Q[q]] = 0;
    }
    sensor.name = `Node ${sensor.index + 1} (at ${reference.name})`;
  }
  const smoky = list[WORLD_ROLES.smoky];
  if (smoky) smoky.smoky = true;
}

/** Smoke multiplier of PM for a smoky datasource at a minute (1 outside its episodes). */
export function smokeFactor(ds: Datasource, minute: number): number {
  if (!ds.smoky) return 1;
  const day = Math.floor(minute / 1440);
  const hourOfDay = Math.floor((minute - day * 1440) / 60);
  return day % 2 === 0 && hourOfDay >= 10 && hourOfDay < 20 ? 6 : 1;
}

export function isSubscribed(ds: Datasource, t: number): boolean {
  for (const [from, to] of ds.subscriptions) if (t >= from && t < to) return true;
  return false;
}

export function locationAt(ds: Datasource, t: number): Location {
  let loc = ds.locations[0];
  for (const l of ds.locations) if (t >= l.from) loc = l;
  return loc;
}

/** Daily outage window of the dailyOutage datasource: 03:00-03:45 UTC. */
export function inDailyOutage(ds: Datasource, t: number): boolean {
  if (!ds.dailyOutage) return false;
  const inDay = t - Math.floor(t / DAY_MS) * DAY_MS;
  return inDay >= 3 * HOUR_MS && inDay < 3 * HOUR_MS + 45 * 60_000;
}
