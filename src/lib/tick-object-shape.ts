import { executionAsyncResource } from 'node:async_hooks';

/** The tick object held for the life of the process (see keepTickObjectShape). */
let heldTick: object | undefined;

/**
 * Keeps the hidden classes (V8 maps) of `process.nextTick`'s tick objects alive for the life of
 * the process, by holding one tick object. Node builds each tick as an object literal whose first
 * two keys are computed (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`);
 * V8 records the maps those two keys are defined on, and a record whose map has since been
 * collected turns megamorphic for good (`Runtime_DefineKeyedOwnPropertyInLiteral` never goes
 * back). A memory-reducing full collection (every full collection under `--optimize-for-size`,
 * which the embedded default sets; otherwise V8's memory reducer or a low-memory notification)
 * does not retain maps without live objects, so one that runs while no tick is pending collects
 * those maps, and from then on every nextTick (three or four per HTTP request) defines both keys
 * through the runtime: about a quarter of a cached request's instructions. One live
 * tick object keeps its map, and the maps it was built through, reachable. Call it before the
 * service loads (before any such collection); `executionAsyncResource()` inside a tick callback
 * is the tick object itself.
 */
export function keepTickObjectShape(): void {
  if (heldTick) return;
  process.nextTick(() => {
    heldTick = executionAsyncResource();
  });
}
