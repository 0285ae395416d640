import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimerPid,
  type ProcessWorld,
  SERVERS,
  startProcessWorld,
  until,
} from '../hardening/process-world.ts';
import type { ServiceProcess } from '../helpers/processes.ts';
import { type Member, postRow } from './world.ts';

/**
 * Scheduling in one process, publishing in another (real `src/main.ts` children on one
 * PostgreSQL): the API process's NOTIFY tells the worker when the post falls due
 * (src/wake/wake-relay.ts). The worker looks for due posts by itself only every minute
 * (PUBLISH_POLL_MS) and runs its periodic sweep every ten, so only the wake can publish the
 * post within seconds; without it, waiting gives up long before the poll would come.
 */
const POLL_MS = 60_000;
/** Well under the poll: a post published later than this after its time was not woken. */
const WITHIN_MS = 5_000;
/** Waiting stops here, before the minute poll could publish the post. */
const GIVE_UP_MS = 20_000;

describe.runIf(SERVERS)('wakes across processes (PostgreSQL LISTEN/NOTIFY)', () => {
  let w: ProcessWorld;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let m: Member;

  beforeAll(async () => {
    w = await startProcessWorld({
      childEnv: { SWEEP_INTERVAL_MS: '600000', PUBLISH_POLL_MS: String(POLL_MS) },
    });
    [api, worker] = await Promise.all([w.spawn('api'), w.spawn('worker', { LOG_LEVEL: 'info' })]);
    // The worker has proven its LISTEN connection (its own probe came back) and made its first
    // pass with nothing due: from now on only a wake brings it back within the minute.
    await until('the worker to hear wakes', () =>
      worker.output().includes('wakes from other processes arrive'),
    );
    m = await w.member();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  /** Schedules through the API process and waits for the worker to publish. */
  async function scheduleAndWait(text: string, runAt: number) {
    const res = await api.request('POST', '/v1/posts', {
      key: m.apiKey,
      body: { text, channelId: m.channelId, runAt },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.body.post.id as string;
    return until(
      `${text} to publish`,
      async () => {
        const row = await postRow(w.t, id);
        return row?.status === 'published' ? row : null;
      },
      GIVE_UP_MS,
    );
  }

  it('publishes a post scheduled by the API process at its time, not at the next poll', async () => {
    const runAt = Date.now() + 1_500;
    const row = await scheduleAndWait('Woken across processes', runAt);
    // Not before its time (the worker set a timer for it), and well before the poll.
    expect(row.publishedAt!).toBeGreaterThanOrEqual(runAt);
    expect(row.publishedAt! - runAt).toBeLessThan(WITHIN_MS);
    expect(claimerPid(row.claimedBy)).toBe(worker.pid);
    expect(m.platformPosts().filter((p) => p.text === 'Woken across processes')).toHaveLength(1);
  }, 60_000);

  it('still hears the API process after its LISTEN connection is killed', async () => {
    const listeners = async () =>
      (await w.t.service.deps.db.execute(sql`
        select pid from pg_stat_activity
        where datname = current_database() and application_name = 'postkit-wake-listener'`)) as unknown as {
        pid: number;
      }[];
    const [before] = await listeners();
    // Terminate the worker's listening backend, as a database restart or a network cut would.
    await w.t.service.deps.db.execute(sql`select pg_terminate_backend(${before!.pid}::int)`);
    // Once it listens on a new connection (and has run its sweeps once, as it does then),
    // only a NOTIFY on that connection can bring the next post in time.
    await until('the worker to listen again', async () => {
      const now = await listeners();
      return now.length === 1 && now[0]!.pid !== before!.pid;
    });
    await new Promise((r) => setTimeout(r, 500));
    const runAt = Date.now() + 1_000;
    const row = await scheduleAndWait('Woken after a reconnect', runAt);
    expect(row.publishedAt!).toBeGreaterThanOrEqual(runAt);
    expect(row.publishedAt! - runAt).toBeLessThan(WITHIN_MS);
    expect(claimerPid(row.claimedBy)).toBe(worker.pid);
  }, 60_000);
});
