import type { KvStore } from './kv.ts';
import { MemoryKv } from './memory.ts';

/** Redis when configured; its client (ioredis, about 9 MB resident) is loaded only then. */
export async function openKv(options: { url?: string; prefix?: string }): Promise<KvStore> {
  if (!options.url) return new MemoryKv();
  const { RedisKv } = await import('./redis.ts');
  return RedisKv.connect(options.url, options.prefix);
}
