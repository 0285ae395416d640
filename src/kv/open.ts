import type { KvStore } from './kv.ts';
import { MemoryKv } from './memory.ts';
import { RedisKv } from './redis.ts';

export async function openKv(options: { url?: string; prefix?: string }): Promise<KvStore> {
  if (options.url) return RedisKv.connect(options.url, options.prefix);
  return new MemoryKv();
}
