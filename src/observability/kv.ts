import type { KvStore } from '../kv/kv.ts';
import type { Metrics } from './types.ts';

/**
 * The store with its failures counted (`postkit_store_errors_total`). Callers still see every
 * rejection as before (most fail open and log it); the count lets an operator alert on a store
 * outage without reading logs. The returned promise is the store's own: nothing is added to a
 * successful call but one attached handler.
 */
export function countStoreErrors(kv: KvStore, metrics: Metrics): KvStore {
  if (!metrics.enabled) return kv;
  const watch = <T>(operation: string, promise: Promise<T>): Promise<T> => {
    promise.catch(() => metrics.storeError(kv.kind, operation));
    return promise;
  };
  return {
    kind: kv.kind,
    get: (key) => watch('get', kv.get(key)),
    set: (key, value, ttlMs) => watch('set', kv.set(key, value, ttlMs)),
    setIfAbsent: (key, value, ttlMs) => watch('setIfAbsent', kv.setIfAbsent(key, value, ttlMs)),
    del: (key) => watch('del', kv.del(key)),
    hit: (key, windowMs) => watch('hit', kv.hit(key, windowMs)),
    hitMany: (keys, windowMs) => watch('hitMany', kv.hitMany(keys, windowMs)),
    reserve: (key, want, limit, windowMs, spare) =>
      watch('reserve', kv.reserve(key, want, limit, windowMs, spare)),
    publish: (channel, message) => watch('publish', kv.publish(channel, message)),
    subscribe: (channel, onMessage) => watch('subscribe', kv.subscribe(channel, onMessage)),
    ping: () => watch('ping', kv.ping()),
    close: () => kv.close(),
  };
}
