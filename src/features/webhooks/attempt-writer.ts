import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';

/** The result of one attempt, ready to be written. */
export interface AttemptRecord {
  id: string;
  /** The claim this attempt was made under; the write is dropped if the claim was lost. */
  leaseUntil: number;
  status: 'delivered' | 'failed' | 'dead';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  at: number;
}

/**
 * Writes attempt results in groups: while one UPDATE is in flight, results that finish meanwhile
 * queue up and go out together in the next one. A lone attempt is written at once; under load
 * a batch of sends costs a few statements instead of one per delivery. Each row is written only
 * if this process still holds its claim (status `sending` with the same lease).
 */
export function createAttemptWriter(deps: AppDeps) {
  type Queued = { record: AttemptRecord; resolve: () => void; reject: (err: unknown) => void };
  let queue: Queued[] = [];
  let flushing = false;

  async function write(batch: AttemptRecord[]) {
    const rows = batch.map(
      (r) =>
        sql`(${r.id}::text, ${r.leaseUntil}::bigint, ${r.status}::text, ${r.attempts}::int, ${r.lastStatusCode}::int, ${r.lastError}::text, ${r.nextAttemptAt}::bigint, ${r.at}::bigint)`,
    );
    await deps.db.execute(sql`
      update webhook_deliveries as d set
        status = v.status, attempts = v.attempts, last_status_code = v.code, last_error = v.error,
        next_attempt_at = v.next_at, lease_until = null, updated_at = v.at
      from (values ${sql.join(rows, sql`, `)}) as v(id, lease, status, attempts, code, error, next_at, at)
      where d.id = v.id and d.status = 'sending' and d.lease_until = v.lease`);
  }

  async function loop() {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await write(batch.map((q) => q.record));
        for (const q of batch) q.resolve();
      } catch (err) {
        for (const q of batch) q.reject(err);
      }
    }
    flushing = false;
  }

  return {
    /** Queues a result; resolves once it is written (rejects if that write failed). */
    record(record: AttemptRecord): Promise<void> {
      const done = new Promise<void>((resolve, reject) => queue.push({ record, resolve, reject }));
      if (!flushing) {
        flushing = true;
        void loop();
      }
      return done;
    },
  };
}
