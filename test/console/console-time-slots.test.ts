import { describe, expect, it } from 'vitest';
import { nextHourStarts } from '../../web/src/lib/time.ts';

/** Insights' heat map opens Compose at a weekday and hour's next start on the author's clock. */
describe('nextHourStarts', () => {
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

  it('finds every weekday and hour, each at least an hour away, on the zone’s clock', () => {
    const now = Date.parse('2026-11-25T12:00:00Z'); // a Wednesday, 13:00 in Paris
    const paris = nextHourStarts('Europe/Paris', now);
    expect(paris.size).toBe(168);
    expect(iso(paris.get('2-9'))).toBe('2026-12-01T08:00:00.000Z'); // Tuesday 09:00 CET
    expect(iso(paris.get('3-14'))).toBe('2026-11-25T13:00:00.000Z'); // today 14:00, an hour on
    expect(iso(paris.get('3-13'))).toBe('2026-12-02T12:00:00.000Z'); // now: next week
    for (const at of paris.values()) expect(at).toBeGreaterThanOrEqual(now + 3_600_000);
  });

  it('lands on the hour in a zone half an hour off UTC', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(iso(nextHourStarts('Asia/Kolkata', now).get('1-9'))).toBe('2026-11-30T03:30:00.000Z');
  });

  it('finds an hour a clock change skips on the week after', () => {
    // Paris skips 02:00-03:00 on Sunday 28 March 2027.
    const now = Date.parse('2027-03-27T12:00:00Z');
    const paris = nextHourStarts('Europe/Paris', now);
    expect(iso(paris.get('0-3'))).toBe('2027-03-28T01:00:00.000Z');
    expect(iso(paris.get('0-2'))).toBe('2027-04-04T00:00:00.000Z');
  });
});
