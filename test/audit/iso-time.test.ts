/** The audit's time stamps read exactly as `Date#toISOString` would write them, whatever the time. */
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/audit/iso-time.js';

describe('isoTime', () => {
  it('matches toISOString on every millisecond around second, minute, day and year changes', () => {
    const edges = [Date.UTC(2026, 11, 31, 23, 59, 59, 990), Date.UTC(2024, 1, 28, 23, 59, 59, 0), 0, 999];
    for (const start of edges) {
      for (let offset = -20; offset <= 1_020; offset += 1) {
        const time = start + offset;
        expect(isoTime(time)).toBe(new Date(time).toISOString());
      }
    }
  });

  it('matches toISOString for times out of order, fractions, and years past four digits', () => {
    const times = [Date.now(), 5, Date.now() - 86_400_000, 1.5, -1, -62_198_755_200_001, 253_402_300_800_000, 1e15];
    for (const time of times) expect(isoTime(time), String(time)).toBe(new Date(time).toISOString());
  });
});
