import { asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { claimBatch } from '../../src/jobs/claim-batch.ts';
import { groupCommit } from '../../src/jobs/group-commit.ts';
import { boundedPool, forEachBounded } from '../../src/jobs/pool.ts';
import { maxAttempts, nextDelayMs, PUBLISH_RETRY, WEBHOOK_RETRY } from '../../src/jobs/schedules.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { SweepName } from '../../src/wake/sweep-names.ts';
import { createWakeHub } from '../../src/wake/wake.ts';
import { wakeAfterCommit, wakeOnCommit } from '../../src/wake/wake-on-commit.ts';
import { createWakeRelay } from '../../src/wake/wake-relay.ts';
import { freshDatabase } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('retry schedules', () => {
  it('webhooks: ten attempts at +0 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 24 h', () => {
    const seconds = Array.from({ length: 11 }, (_, made) => {
      const ms = nextDelayMs(WEBHOOK_RETRY, made);
      return ms === null ? null : ms / 1000;
    });
    expect(seconds).toEqual([0, 30, 120, 600, 1_800, 3_600, 10_800, 21_600, 43_200, 86_400, null]);
    expect(maxAttempts(WEBHOOK_RETRY)).toBe(10);
    expect(nextDelayMs(WEBHOOK_RETRY, 1, 0.001)).toBe(30);
  });

  it('publish: 30 s, then four times longer after each failure', () => {
    expect([1, 2, 3, 4].map((made) => nextDelayMs(PUBLISH_RETRY, made))).toEqual([
      30_000, 120_000, 480_000, 1_920_000,
    ]);
  });
});

describe('bounded pool', () => {
  it('forEachBounded never has more than the limit in flight and stops starting on abort', async () => {
    let inFlight = 0;
    let peak = 0;
    const abort = new AbortController();
    const seen: number[] = [];
    const started = await forEachBounded(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (i) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        seen.push(i);
        if (i === 7) abort.abort();
        await sleep(5);
        inFlight--;
      },
      abort.signal,
    );
    expect(peak).toBe(3);
    // Items 0-7 started before the abort; at most the two other workers' next picks after it.
    expect(started).toBe(seen.length);
    expect(started).toBeGreaterThanOrEqual(8);
    expect(started).toBeLessThan(20);
  });

  it('boundedPool refills freed slots and drains', async () => {
    const pool = boundedPool(2);
    const done: string[] = [];
    pool.add(async () => {
      await sleep(30);
      done.push('slow');
    });
    pool.add(async () => {
      await sleep(5);
      done.push('fast');
    });
    expect(pool.free).toBe(0);
    expect(() => pool.add(async () => {})).toThrow(RangeError);
    await pool.next();
    expect(done).toEqual(['fast']);
    expect(pool.free).toBe(1);
    pool.add(async () => {
      done.push('third');
    });
    await pool.drain();
    expect(done.sort()).toEqual(['fast', 'slow', 'third']);
    expect(pool.size).toBe(0);
  });
});

describe('wake hub', () => {
  it('forwards wakes to listeners until they stop listening', () => {
    const hub = createWakeHub();
    hub.wake(SweepName.publish); // nobody listening: a no-op
    const got: [string, number | undefined][] = [];
    const unlisten = hub.listen((sweep, at) => got.push([sweep, at]));
    hub.wake(SweepName.webhooks);
    hub.wake(SweepName.publish, 123);
    unlisten();
    hub.wake(SweepName.metrics);
    expect(got).toEqual([
      ['webhooks', undefined],
      ['publish', 123],
    ]);
  });
});

describe('group commit', () => {
  it('writes calls of the same turn together, queues calls made during a write for the next one', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    let gate: Promise<void> = Promise.resolve();
    const write = groupCommit(async (items: number[]) => {
      writes.push(items);
      await gate;
      return items.map((n) => n * 10);
    });
    // One turn of the event loop: one write.
    expect(await Promise.all([write(1), write(2)])).toEqual([10, 20]);
    // A write held in flight: what arrives meanwhile waits and goes out together after it.
    gate = new Promise((r) => (release = r));
    const first = write(3);
    await sleep(5);
    const later = [write(4), write(5), write(6)];
    await sleep(5);
    expect(writes).toEqual([[1, 2], [3]]);
    release();
    expect(await Promise.all([first, ...later])).toEqual([30, 40, 50, 60]);
    expect(writes).toEqual([[1, 2], [3], [4, 5, 6]]);
  });

  it('rejects every caller of a failed write; the next write goes on', async () => {
    let fail = true;
    const write = groupCommit(async (items: string[]) => {
      if (fail) throw new Error('database hiccup');
      return items.map((s) => s.toUpperCase());
    });
    const failed = await Promise.allSettled([write('a'), write('b')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await write('c')).toBe('C');
    // A write that does not answer every item fails its callers rather than leave one hanging.
    const short = groupCommit(async () => ['only one']);
    await expect(Promise.all([short('x'), short('y')])).rejects.toThrow(/one result per item/);
  });
});

describe.runIf(process.env.DATABASE_URL)('wake relay (PostgreSQL LISTEN/NOTIFY)', () => {
  it('hands one process’s wakes to another, merged per sweep, never back to itself', async () => {
    const fresh = (await freshDatabase())!;
    const database = await openDatabase({ url: fresh.url });
    const log = createLogger('silent');
    const sender = createWakeRelay({ url: fresh.url, db: database.db, origin: 'sender', log });
    const receiver = createWakeRelay({ url: fresh.url, db: database.db, origin: 'receiver', log });
    const toReceiver: [string, number | undefined][] = [];
    const toSender: [string, number | undefined][] = [];
    try {
      await sender.receive((sweep, at) => toSender.push([sweep, at]));
      await receiver.receive((sweep, at) => toReceiver.push([sweep, at]));
      // Each proves its connection with its own probe; that wakes its sweeps once.
      await until('both to listen', () => sender.listening && receiver.listening);
      toReceiver.length = 0;
      toSender.length = 0;
      // A burst: the first goes out alone, the rest merge while it is in flight (earliest wins).
      sender.send(SweepName.publish, 5_000);
      sender.send(SweepName.publish, 3_000);
      sender.send(SweepName.publish, 4_000);
      sender.send(SweepName.webhooks);
      await until('the wakes to arrive', () => toReceiver.some(([s]) => s === 'webhooks'));
      await sleep(100);
      expect(toReceiver).toContainEqual(['publish', 5_000]);
      expect(toReceiver).toContainEqual(['publish', 3_000]);
      expect(toReceiver).not.toContainEqual(['publish', 4_000]);
      expect(toReceiver).toContainEqual(['webhooks', undefined]);
      expect(toSender).toEqual([]);
    } finally {
      await sender.close();
      await receiver.close();
      await database.close();
      await fresh.drop();
    }
  });
});

/** A table of its own, so the claim is tested apart from any feature's rules. */
const jobs = pgTable('kit_claim_jobs', {
  id: text('id').primaryKey(),
  status: text('status').notNull(),
  dueAt: bigint('due_at', { mode: 'number' }).notNull(),
  leaseUntil: bigint('lease_until', { mode: 'number' }),
  claimedBy: text('claimed_by'),
});

/** A table keyed by something other than `id`. */
const keyed = pgTable('kit_claim_keyed', {
  accountId: text('account_id').primaryKey(),
  claimedAt: bigint('claimed_at', { mode: 'number' }),
});

describe('claimBatch', () => {
  let database: Database;
  let dropDb: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const fresh = await freshDatabase();
    dropDb = fresh?.drop;
    database = await openDatabase({ url: fresh?.url ?? 'memory://' });
    await database.db.execute(
      sql`create table kit_claim_jobs (id text primary key, status text not null, due_at bigint not null, lease_until bigint, claimed_by text)`,
    );
    await database.db.execute(
      sql`create table kit_claim_keyed (account_id text primary key, claimed_at bigint)`,
    );
  });
  afterAll(async () => {
    await database?.close();
    await dropDb?.();
  });

  const claim = (by: string, now: number, limit: number) =>
    claimBatch(database.db, {
      table: jobs,
      where: or(
        eq(jobs.status, 'queued'),
        // A lapsed lease: its holder died, anyone may take it over.
        sql`${jobs.status} = 'running' and ${lt(jobs.leaseUntil, now)}`,
      ),
      orderBy: asc(jobs.dueAt),
      limit,
      set: { status: 'running', leaseUntil: now + 1_000, claimedBy: by },
    });

  it('claims due rows oldest first, up to the limit, never the same row twice, and retakes lapsed leases', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `j${i}`, status: 'queued', dueAt: 1_000 - i }));
    await database.db.insert(jobs).values(rows);

    const first = await claim('a', 0, 5);
    // The oldest due five (UPDATE ... RETURNING gives no order of its own).
    expect(first.map((r) => r.id).sort()).toEqual(['j25', 'j26', 'j27', 'j28', 'j29']);
    expect(first.every((r) => r.status === 'running' && r.claimedBy === 'a' && r.leaseUntil === 1_000)).toBe(
      true,
    );

    // Claimers racing: every row is claimed exactly once.
    const racing = await Promise.all(['b', 'c', 'd', 'e', 'f'].map((by) => claim(by, 0, 7)));
    const ids = racing.flat().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(25);
    expect(await claim('g', 0, 5)).toEqual([]);

    // Past the lease, the rows are claimable again (the holders are presumed dead).
    const retaken = await claim('h', 2_000, 100);
    expect(retaken).toHaveLength(30);
    expect(retaken.every((r) => r.claimedBy === 'h' && r.leaseUntil === 3_000)).toBe(true);
  });

  it('claims by a named key on a table without an id', async () => {
    await database.db.insert(keyed).values([{ accountId: 'acc_1' }, { accountId: 'acc_2' }]);
    const spec = {
      table: keyed,
      key: keyed.accountId,
      where: isNull(keyed.claimedAt),
      orderBy: asc(keyed.accountId),
      limit: 1,
      set: { claimedAt: 5 },
    };
    expect(await claimBatch(database.db, spec)).toEqual([{ accountId: 'acc_1', claimedAt: 5 }]);
    expect(await claimBatch(database.db, spec)).toEqual([{ accountId: 'acc_2', claimedAt: 5 }]);
    expect(await claimBatch(database.db, spec)).toEqual([]);
    // @ts-expect-error: without an `id` column the key must be named.
    await expect(claimBatch(database.db, { ...spec, key: undefined })).rejects.toThrow();
  });

  it('wakeAfterCommit wakes once after the outermost commit, never for a rollback', async () => {
    const woken: string[] = [];
    const db = wakeOnCommit(database.db, (sweep) => woken.push(sweep));
    await db.transaction(async (tx) => {
      wakeAfterCommit(tx, SweepName.webhooks);
      await tx.transaction(async (savepoint) => {
        wakeAfterCommit(savepoint, SweepName.webhooks);
        wakeAfterCommit(savepoint, SweepName.publish);
      });
      expect(woken).toEqual([]);
    });
    expect(woken.sort()).toEqual(['publish', 'webhooks']);

    woken.length = 0;
    await expect(
      db.transaction(async (tx) => {
        wakeAfterCommit(tx, SweepName.webhooks);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(woken).toEqual([]);

    // Outside a transaction the write is already committed: wake at once.
    wakeAfterCommit(db, SweepName.metrics);
    expect(woken).toEqual(['metrics']);
  });
});
