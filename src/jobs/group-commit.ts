/**
 * Group commit: one write for many callers. A call made while no write is in flight goes out
 * at the end of the current turn of the event loop, with the calls made in the same turn (a
 * lone caller waits for no timer). Calls made while a write is in flight queue up and go out
 * together in the next one. Under a burst the number of statements (and round trips, and
 * commits) per item falls as the load grows.
 *
 * `write` gets the queued items in call order and returns one result per item, in the same
 * order. If it throws, every caller of that batch gets the error (and may retry: it then
 * joins a later batch).
 */
export function groupCommit<I, O>(
  write: (items: I[]) => Promise<O[]>,
  maxBatch = 256,
): (item: I) => Promise<O> {
  type Queued = { item: I; resolve: (out: O) => void; reject: (err: unknown) => void };
  let queue: Queued[] = [];
  let writing = false;

  async function drain() {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const results = await write(batch.map((q) => q.item));
        if (results.length !== batch.length) throw new Error('groupCommit: one result per item expected');
        for (const [i, q] of batch.entries()) q.resolve(results[i]!);
      } catch (err) {
        for (const q of batch) q.reject(err);
      }
    }
    writing = false;
  }

  return (item) => {
    const done = new Promise<O>((resolve, reject) => queue.push({ item, resolve, reject }));
    if (!writing) {
      writing = true;
      setImmediate(() => void drain());
    }
    return done;
  };
}
