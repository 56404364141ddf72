// Runs a test body with the process in another time zone (node applies process.env.TZ at once), so that
// a test proves zone-less text is read as UTC in every lane, not only in unit-tz (TZ=Asia/Kolkata).
// An async body keeps the zone until its promise settles.
export function withTimeZone<T>(zone: string, body: () => T): T {
  const before = process.env.TZ;
  const restore = () => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  };
  process.env.TZ = zone;
  let result: T;
  try {
    // Proof that the zone took effect: otherwise the test would pass for the wrong reason.
    if (zone !== 'UTC' && new Date(2026, 0, 1).getTimezoneOffset() === 0) throw new Error(`TZ=${zone} not applied`);
    result = body();
  } catch (e) {
    restore();
    throw e;
  }
  if (result instanceof Promise) return result.finally(restore) as T;
  restore();
  return result;
}
