// Decimals as scaled integers: a csv number such as 1009.35 is held as the Int32 100935 with scale 2,
// half the memory of a Float64 and exact; a column whose scaled values all fit 16 bits (11.88 as 1188)
// as Int16, a quarter. Its value is ints[i] / 10^scale: both operands are exact doubles (|ints| < 2^31,
// 10^scale for scale <= 15), so the quotient is the double nearest the decimal, the same double as
// parsing the text. The type's least value marks an empty cell (INT32_MIN, or INT16_MIN in an Int16
// column): a value's magnitude is at most the type's greatest.
// Also here: reading decimal text (the exact fast path every number cell takes).

/** Powers of ten that are exact doubles, by exponent. */
export const DECIMAL_POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** The largest scale a column takes (its values then have at most 9 fraction digits). */
export const MAX_DECIMAL_SCALE = 9;

/** The scaled integers of a decimal column: Int16 while every value fits, else Int32. */
export type DecimalInts = Int16Array | Int32Array;

/** The empty cell of an Int32 decimal column. */
export const DECIMAL_EMPTY = -2147483648;

/** The largest magnitude of a scaled integer in an Int32 column. */
export const DECIMAL_MAX = 2147483647;

/** The empty cell of an Int16 decimal column. */
export const DECIMAL16_EMPTY = -32768;

/** The largest magnitude of a scaled integer in an Int16 column. */
export const DECIMAL16_MAX = 32767;

/** The empty-cell marker of a decimal column's array (it depends on the element width). */
export function decimalEmptyOf(ints: DecimalInts): number {
  return ints.BYTES_PER_ELEMENT === 2 ? DECIMAL16_EMPTY : DECIMAL_EMPTY;
}

/** The value of row i of a decimal column's array; NaN for the empty cell. */
export function decimalAt(ints: DecimalInts, i: number, scale: number): number {
  const x = ints[i];
  return x === decimalEmptyOf(ints) ? Number.NaN : x / DECIMAL_POW10[scale];
}

/** The values of scaled integers as Float64 (NaN for empty cells), into `out` from `at`. */
export function decimalsToFloat64(
  ints: DecimalInts,
  scale: number,
  out: Float64Array = new Float64Array(ints.length),
  at = 0,
): Float64Array {
  const p = DECIMAL_POW10[scale];
  const empty = decimalEmptyOf(ints);
  for (let i = 0; i < ints.length; i++) {
    const x = ints[i];
    out[at + i] = x === empty ? Number.NaN : x / p;
  }
  return out;
}

/**
 * A number from text. Plain decimals of at most 15 digits take the exact fast path (an integer mantissa
 * divided by a power of ten: both exact, so the quotient is correctly rounded, same as `+text`);
 * everything else goes to `+text`. NaN when the text is not a number ('' too).
 */
export function parseDecimal(s: string): number {
  const v = fastDecimal(s);
  if (!Number.isNaN(v)) return v;
  return s === '' ? Number.NaN : +s;
}

/** A plain decimal's parts: the digits as an integer, the count of fraction digits, the sign. */
export interface DecimalParts {
  m: number;
  frac: number;
  neg: boolean;
}

/**
 * Reads a plain decimal (`-12.5`: digits with at most one point, at most 15 digits) into `out`; false for
 * any other text (then `out` is unspecified).
 */
export function scanDecimal(s: string, out: DecimalParts): boolean {
  const n = s.length;
  if (n === 0 || n > 17) return false;
  let i = 0;
  out.neg = s.charCodeAt(0) === 45; /* - */
  if (out.neg) i = 1;
  let m = 0;
  let digits = 0;
  let frac = -1;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
      if (frac >= 0) frac++;
    } else if (c === 46 /* . */ && frac < 0) frac = 0;
    else return false;
  }
  if (digits === 0 || digits > 15) return false;
  out.m = m;
  out.frac = Math.max(frac, 0);
  return true;
}

/** The double of a decimal's parts (exact operands, so correctly rounded: the same as `+text`). */
export function partsValue(m: number, frac: number, neg: boolean): number {
  const v = frac > 0 ? m / DECIMAL_POW10[frac] : m;
  return neg ? -v : v;
}

const PARTS: DecimalParts = { m: 0, frac: 0, neg: false };

/** The fast path alone: the value of a plain decimal (`-12.5`, at most 15 digits), NaN for any other text. */
function fastDecimal(s: string): number {
  return scanDecimal(s, PARTS) ? partsValue(PARTS.m, PARTS.frac, PARTS.neg) : Number.NaN;
}

export function isPlainNumber(s: string): boolean {
  const n = s.length;
  let i = 0;
  let c = s.charCodeAt(0);
  if (c === 45 /* - */) {
    if (n === 1) return false;
    c = s.charCodeAt(++i);
  }
  if (c === 48 /* 0 */ && i + 1 < n && s.charCodeAt(i + 1) !== 46 /* . */) return false; // leading zero
  let digits = 0;
  let dot = false;
  for (; i < n; i++) {
    c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && !dot) dot = true;
    else if ((c === 101 || c === 69) && digits > 0) return /^[eE][+-]?\d+$/.test(s.slice(i));
    else return false;
  }
  return digits > 0;
}
