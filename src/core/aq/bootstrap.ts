// A seeded bootstrap of the mean (openair's timeVariation draws its bands this way): the same seed draws the same
// resamples, so a re-run shows the same band. The generator is mulberry32 (32-bit state, uniform in [0, 1)).

/** A seeded uniform generator in [0, 1) (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Resamples of a bootstrap band: enough for the 2.5 and 97.5 percentiles to settle on a chart. */
export const BOOTSTRAP_RESAMPLES = 200;

/** The seed of the views' bands (a fixed number: every run draws the same resamples). */
export const BOOTSTRAP_SEED = 20_261_126;

/**
 * The bootstrap distribution of the mean of `values` (NaN-free), ascending: `resamples` resamples of n values
 * drawn with replacement (index ⌊u·n⌋ of each uniform u from `random`), each resample's mean. Its 2.5 and 97.5
 * percentiles (stats.ts quantileSorted) are the percentile bootstrap's 95 % interval. Empty when there are no values.
 */
export function bootstrapMeans(
  values: ArrayLike<number>,
  random: () => number,
  resamples = BOOTSTRAP_RESAMPLES,
): Float64Array {
  const n = values.length;
  if (!n) return new Float64Array(0);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)];
    means[b] = sum / n;
  }
  return means.sort();
}
