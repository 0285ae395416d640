import { describe, expect, it } from 'vitest';
import { nextSlotTimes } from '../../src/features/queues/slot-times.ts';
import { occurrenceAt } from '../../src/features/series/occurrence-times.ts';
import { instantOf, wallOf } from '../../src/lib/zoned-time.ts';

/** "2027-03-28 03:00" local in the zone of each instant, for readable expectations. */
const local = (timeZone: string, ms: number) => {
  const w = wallOf(ms, timeZone);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}`;
};
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);

describe('queue slots across daylight-saving changes (Intl time-zone data)', () => {
  it('Europe/Paris spring forward (28 Mar 2027, 02:00 -> 03:00): 09:00 stays 09:00, 02:30 moves to 03:00', () => {
    const zone = 'Europe/Paris';
    const queue = {
      timezone: zone,
      slots: [
        { day: 6, time: '09:00' },
        { day: 7, time: '02:30' },
        { day: 7, time: '09:00' },
      ],
    };
    const times = nextSlotTimes(queue, Date.UTC(2027, 2, 26), 6);
    expect(times.map((t) => local(zone, t))).toEqual([
      '2027-03-27 09:00',
      '2027-03-28 03:00',
      '2027-03-28 09:00',
      '2027-04-03 09:00',
      '2027-04-04 02:30',
      '2027-04-04 09:00',
    ]);
    // 09:00 is 08:00 UTC before the change and 07:00 UTC after it.
    expect(iso(times[0]!)).toBe('2027-03-27T08:00');
    expect(iso(times[2]!)).toBe('2027-03-28T07:00');
    // The moved slot is the instant the clocks jumped.
    expect(iso(times[1]!)).toBe('2027-03-28T01:00');
  });

  it('Europe/Paris fall back (31 Oct 2027, 03:00 -> 02:00): a 02:30 slot runs once, at its first pass', () => {
    const zone = 'Europe/Paris';
    const queue = { timezone: zone, slots: [{ day: 7, time: '02:30' }] };
    const times = nextSlotTimes(queue, Date.UTC(2027, 9, 30), 2);
    expect(times.map(iso)).toEqual(['2027-10-31T00:30', '2027-11-07T01:30']);
    // 01:30 UTC on 31 Oct is also 02:30 local (the second pass): not a slot.
    expect(local(zone, Date.UTC(2027, 9, 31, 1, 30))).toBe('2027-10-31 02:30');
  });

  it('America/New_York spring forward (14 Mar 2027): 02:15 moves to 03:00; two slots in the gap become one', () => {
    const zone = 'America/New_York';
    const queue = {
      timezone: zone,
      slots: [
        { day: 7, time: '01:30' },
        { day: 7, time: '02:15' },
        { day: 7, time: '02:45' },
        { day: 7, time: '03:00' },
      ],
    };
    const times = nextSlotTimes(queue, Date.UTC(2027, 2, 13), 6);
    expect(times.map((t) => local(zone, t))).toEqual([
      '2027-03-14 01:30',
      '2027-03-14 03:00',
      '2027-03-21 01:30',
      '2027-03-21 02:15',
      '2027-03-21 02:45',
      '2027-03-21 03:00',
    ]);
  });

  it('America/New_York fall back (7 Nov 2027): 01:30 runs once, in daylight time', () => {
    const zone = 'America/New_York';
    const queue = {
      timezone: zone,
      slots: [
        { day: 7, time: '01:30' },
        { day: 7, time: '09:00' },
      ],
    };
    const times = nextSlotTimes(queue, Date.UTC(2027, 10, 6), 4);
    expect(times.map(iso)).toEqual([
      '2027-11-07T05:30', // 01:30 EDT; 06:30 UTC (01:30 EST) is not a slot
      '2027-11-07T14:00', // 09:00 EST
      '2027-11-14T06:30',
      '2027-11-14T14:00',
    ]);
  });

  it('a half-hour change (Australia/Lord_Howe, 3 Oct 2027, 02:00 -> 02:30): 02:15 moves to 02:30', () => {
    const zone = 'Australia/Lord_Howe';
    expect(local(zone, instantOf({ year: 2027, month: 10, day: 3, hour: 2, minute: 15 }, zone))).toBe(
      '2027-10-03 02:30',
    );
  });

  it('starts strictly at `from`, in order, and an empty queue yields none', () => {
    const queue = { timezone: 'UTC', slots: [{ day: 1, time: '10:00' }] };
    const monday10 = Date.UTC(2027, 0, 4, 10);
    expect(nextSlotTimes(queue, monday10, 1)).toEqual([monday10]);
    expect(nextSlotTimes(queue, monday10 + 1, 1)).toEqual([monday10 + 7 * 86_400_000]);
    expect(nextSlotTimes({ timezone: 'UTC', slots: [] }, monday10, 3)).toEqual([]);
  });
});

describe('recurring occurrence times', () => {
  it('every day at 09:00 Paris keeps 09:00 local through the spring change', () => {
    const startAt = Date.UTC(2027, 2, 26, 8); // 09:00 CET
    const r = { startAt, unit: 'day' as const, every: 1, timezone: 'Europe/Paris' };
    expect([0, 1, 2, 3].map((k) => local('Europe/Paris', occurrenceAt(r, k)))).toEqual([
      '2027-03-26 09:00',
      '2027-03-27 09:00',
      '2027-03-28 09:00',
      '2027-03-29 09:00',
    ]);
    expect(occurrenceAt(r, 3) - occurrenceAt(r, 2)).toBe(86_400_000);
    expect(occurrenceAt(r, 2) - occurrenceAt(r, 1)).toBe(23 * 3_600_000);
  });

  it('every month on the 31st falls on each month’s last day, and back on the 31st', () => {
    const r = { startAt: Date.UTC(2027, 0, 31, 12), unit: 'month' as const, every: 1, timezone: 'UTC' };
    expect([0, 1, 2, 3].map((k) => iso(occurrenceAt(r, k)))).toEqual([
      '2027-01-31T12:00',
      '2027-02-28T12:00',
      '2027-03-31T12:00',
      '2027-04-30T12:00',
    ]);
  });

  it('every 2 weeks in New York across the fall change keeps the local time', () => {
    const startAt = Date.UTC(2027, 9, 31, 13, 30); // Sunday 09:30 EDT
    const r = { startAt, unit: 'week' as const, every: 2, timezone: 'America/New_York' };
    expect(local('America/New_York', occurrenceAt(r, 1))).toBe('2027-11-14 09:30');
    expect(iso(occurrenceAt(r, 1))).toBe('2027-11-14T14:30');
  });
});
