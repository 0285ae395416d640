import { randomBytes } from 'node:crypto';
import { Agent, fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { BudgetLeases, SPARE } from '../../src/api/budget-leases.ts';
import type { KvStore } from '../../src/kv/kv.ts';
import { MemoryKv } from '../../src/kv/memory.ts';
import { startService } from '../../src/server.ts';
import { startTestApp } from '../helpers/app.ts';

/** A store that counts its reservations (the round trips a shared store would cost). */
function counted(kv: KvStore) {
  let reservations = 0;
  const store = Object.create(kv) as KvStore;
  store.reserve = (...args) => {
    reservations++;
    return kv.reserve(...args);
  };
  return { store, reservations: () => reservations };
}

describe('budget leases (src/api/budget-leases.ts)', () => {
  it('spends spare units from memory while plenty is left, numbering every unit once', async () => {
    const kv = counted(new MemoryKv());
    const leases = new BudgetLeases(kv.store);
    const counts: number[] = [];
    for (let i = 0; i < 1_000; i++) counts.push((await leases.take('k', 1, 100_000, 60_000)).count);
    expect(counts).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
    // 1 + up to SPARE.maxSpare units per reservation: about 4 round trips instead of 1,000.
    expect(kv.reservations()).toBe(Math.ceil(1_000 / (1 + SPARE.maxSpare)));
  });

  it('reserves no spare unit near the limit, and refuses exactly past it', async () => {
    const kv = counted(new MemoryKv());
    const leases = new BudgetLeases(kv.store);
    const counts = [];
    for (let i = 0; i < 12; i++) counts.push((await leases.take('k', 1, 10, 60_000)).count);
    // 10 units: less than one divisor's worth, so every unit is its own reservation.
    expect(counts.slice(0, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(counts.slice(10).every((c) => c > 10)).toBe(true);
    // The last reservation learnt that nothing is left: the refusals cost no round trip.
    expect(kv.reservations()).toBe(10);
  });

  it('never spends a unit of a window the store has already ended', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const kv = new MemoryKv(clock);
    const leases = new BudgetLeases(kv, clock);
    expect((await leases.take('k', 1, 100_000, 1_000)).count).toBe(1);
    expect((await leases.take('k', 1, 100_000, 1_000)).count).toBe(2); // a spare unit
    now += 1_000; // the store's window is over; the lease's spare units go with it
    expect((await leases.take('k', 1, 100_000, 1_000)).count).toBe(1);
  });

  it('serves a burst with one reservation in flight and takes a batch as consecutive units', async () => {
    const kv = counted(new MemoryKv());
    const leases = new BudgetLeases(kv.store);
    const burst = await Promise.all(Array.from({ length: 50 }, () => leases.take('k', 1, 100_000, 60_000)));
    expect(new Set(burst.map((h) => h.count)).size).toBe(50);
    expect(kv.reservations()).toBe(1);
    const batch = await leases.take('k', 5, 100_000, 60_000);
    expect(batch.count).toBe(55);
  });

  it('refills a busy lease before it runs out, never holding more spare units than one reservation gives', async () => {
    const store = new MemoryKv();
    const kv = counted(store);
    const leases = new BudgetLeases(kv.store);
    const counts = [(await leases.take('k', 1, 100_000, 60_000)).count];
    let queued = 0;
    let mostHeld = 0;
    for (let i = 0; i < 2_000; i++) {
      const hit = leases.takeNow('k', 100_000, 60_000);
      if (hit) counts.push(hit.count);
      else {
        queued++;
        counts.push((await leases.take('k', 1, 100_000, 60_000)).count);
      }
      mostHeld = Math.max(mostHeld, Number(await store.get('k')) - counts.length);
      await new Promise((resolve) => setImmediate(resolve)); // the store answers between requests
    }
    // Every request was served from memory (without refilling ahead, one in 257 waited for the store)...
    expect(queued).toBe(0);
    expect(counts).toEqual(Array.from({ length: 2_001 }, (_, i) => i + 1));
    // ...and the process never held more unspent units than a plain reservation leaves it.
    expect(mostHeld).toBeLessThanOrEqual(SPARE.maxSpare);
    expect(kv.reservations()).toBeLessThan(2_001 / (SPARE.maxSpare / 2));
  });

  it.runIf(Boolean(process.env.REDIS_URL))(
    'two API processes on one Redis admit at most the limit (over-admission bound 0), and nearly all of it',
    async () => {
      const limit = 3_000;
      const kvPrefix = `test:${randomBytes(6).toString('hex')}:`;
      const first = await startTestApp({ RATE_LIMIT_REQUESTS_PER_MIN: String(limit) }, { kvPrefix });
      const second = await startService(first.config, { kvPrefix, autoStartRunner: false });
      try {
        const { apiKey } = await first.signup();
        const auth = { authorization: `Bearer ${apiKey}` };
        // 3,600 requests at once, split unevenly (2:1) so one process runs out of its lease first.
        const urls = [first.url, first.url, second.url!];
        // Sent at once over a bounded pool of kept-alive connections: both processes still race
        // for units with hundreds of requests in flight, without 3,600 sockets opened at once
        // (which on a loaded machine failed a fetch rather than the property under test).
        const pool = new Agent({ connections: 128, pipelining: 1 });
        const answers = await Promise.all(
          Array.from({ length: 3_600 }, (_, i) =>
            fetch(`${urls[i % 3]}/v1/account`, { headers: auth, dispatcher: pool }).then(async (res) => {
              await res.arrayBuffer();
              return { status: res.status, remaining: res.headers.get('x-ratelimit-remaining') };
            }),
          ),
        ).finally(() => pool.close());
        const ok = answers.filter((a) => a.status === 200);
        expect(answers.filter((a) => a.status !== 200 && a.status !== 429)).toEqual([]);
        // Over-admission bound 0: every success holds a distinct unit of the one window.
        expect(ok.length).toBeLessThanOrEqual(limit);
        expect(new Set(ok.map((a) => a.remaining)).size).toBe(ok.length);
        // Under-admission: only spare units still leased when the burst ended can be unspent,
        // at most SPARE.maxSpare per process and per key (docs/decisions.md, Rate limits).
        expect(ok.length).toBeGreaterThanOrEqual(limit - 2 * SPARE.maxSpare);
      } finally {
        await second.close();
        await first.close();
      }
    },
    180_000,
  );
});
