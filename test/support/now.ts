// The tests' fixed "now": Friday 2026-11-20 10:30 UTC (the emulator's anchor hour is 10:00).
export const NOW = Date.parse('2026-11-20T10:30:00.000Z');
export const HOUR = 3_600_000;
export const MINUTE = 60_000;
