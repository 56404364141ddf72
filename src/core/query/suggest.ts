// Did-you-mean: the closest candidate by edit distance (case-insensitive), when close enough to help.

export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[n];
}

export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const hay = c.toLowerCase();
    if (hay === needle) return c;
    const d = editDistance(needle, hay);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  // Allow roughly one typo per three characters, at least one.
  const limit = Math.max(1, Math.floor(needle.length / 3));
  return bestDistance <= limit ? best : undefined;
}
