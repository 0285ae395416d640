import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVERS } from '../hardening/process-world.ts';
import { killAll, spawnService } from '../helpers/processes.ts';
import { setQueueSlots } from '../helpers/queue-slots.ts';
import { type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/**
 * Queue assignment across processes: two API processes on one PostgreSQL take `queue: true`
 * creates for the same channel at once; the queue row's lock makes them take turns.
 */
let w: PostWorld;
let m: Member;

beforeAll(async () => {
  if (!SERVERS) return;
  w = await startPostWorld();
  m = await w.member();
});
afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await w?.close();
});

describe.runIf(SERVERS)('queue: true across two API processes', () => {
  it('thirty concurrent creates through two processes take thirty different slots', async () => {
    const env = {
      DATABASE_URL: w.t.config.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      KIT_VAULT_KEY: w.vaultKey,
      DATA_DIR: w.dataDir,
    };
    const [a, b] = await Promise.all([spawnService('api', env), spawnService('api', env)]);
    await setQueueSlots(a, {
      key: m.apiKey,
      channelId: m.channelId,
      timezone: 'Asia/Tokyo',
      slots: [
        { day: 2, time: '07:45' },
        { day: 6, time: '20:00' },
      ],
    });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).request('POST', '/v1/posts', {
          key: m.apiKey,
          body: { text: `Across processes ${i}`, channelId: m.channelId, queue: true },
        }),
      ),
    );
    for (const r of results) expect(r.status, r.text).toBe(201);
    const times = results.map((r) => r.body.post.scheduledFor as number);
    expect(new Set(times).size).toBe(30);
    const view = await a.request('GET', `/v1/channels/${m.channelId}/queue?count=30`, { key: m.apiKey });
    expect([...times].sort((x, y) => x - y)).toEqual(view.body.upcoming.map((s: { at: number }) => s.at));
  }, 90_000);
});
