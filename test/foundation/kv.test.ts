import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KvStore } from '../../src/kv/kv.ts';
import { MemoryKv } from '../../src/kv/memory.ts';
import { RedisKv } from '../../src/kv/redis.ts';

const stores: [string, () => Promise<KvStore>][] = [['memory', async () => new MemoryKv()]];
if (process.env.REDIS_URL) {
  const url = process.env.REDIS_URL;
  stores.push(['redis', () => RedisKv.connect(url, `test:${randomBytes(4).toString('hex')}:`)]);
}

describe.each(stores)('%s key-value store', (_name, open) => {
  let kv: KvStore;
  beforeAll(async () => {
    kv = await open();
  });
  afterAll(async () => {
    await kv.close();
  });

  it('gets, sets with a TTL and deletes', async () => {
    expect(await kv.get('a')).toBeNull();
    await kv.set('a', '1', 60_000);
    expect(await kv.get('a')).toBe('1');
    await kv.del('a');
    expect(await kv.get('a')).toBeNull();
    await kv.set('short', 'x', 30);
    await new Promise((r) => setTimeout(r, 80));
    expect(await kv.get('short')).toBeNull();
  });

  it('setIfAbsent lets exactly one of many concurrent callers win', async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => kv.setIfAbsent('lock', String(i), 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('hit counts within a fixed window and resets after it', async () => {
    const hits = await Promise.all(Array.from({ length: 10 }, () => kv.hit('window', 200)));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const h of hits) expect(h.resetMs).toBeGreaterThan(0);
    for (const h of hits) expect(h.resetMs).toBeLessThanOrEqual(200);
    await new Promise((r) => setTimeout(r, 260));
    expect((await kv.hit('window', 200)).count).toBe(1);
  });
});
