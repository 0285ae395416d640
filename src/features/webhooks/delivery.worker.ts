import { and, asc, eq, inArray, isNotNull, lt, lte, min, or } from 'drizzle-orm';
import { request } from 'undici';
import type { AppDeps } from '../../context.ts';
import { events, webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import type { Sweep } from '../../jobs/runner.ts';
import { vaultAad } from '../../vault/aad.ts';
import { createAttemptWriter } from './attempt-writer.ts';
import { nextAttemptDelayMs } from './retry-schedule.ts';
import { deliveryHeaders } from './signing.ts';

export const WEBHOOK_SWEEP = 'webhooks';
/** Deliveries claimed per run; a full batch makes the runner go again at once. */
export const DELIVERY_BATCH = 100;
/** Sends in flight at once within a run. */
const SEND_CONCURRENCY = 32;

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A claim lasts the longest an attempt can take plus slack; after that a dead sender's claim lapses. */
const leaseMs = (deps: AppDeps) => 3 * deps.config.WEBHOOK_TIMEOUT_MS + 30_000;

/**
 * Claims up to `limit` due deliveries: `pending` or `failed` ones whose attempt is due, and
 * `sending` ones whose lease lapsed (their sender died mid-attempt). SKIP LOCKED lets any
 * number of workers claim side by side without taking the same row twice.
 */
export async function claimDueDeliveries(deps: AppDeps, limit: number): Promise<DeliveryRow[]> {
  const now = deps.clock.now();
  const leaseUntil = now + leaseMs(deps);
  return deps.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        or(
          and(
            inArray(webhookDeliveries.status, ['pending', 'failed']),
            lte(webhookDeliveries.nextAttemptAt, now),
          ),
          and(eq(webhookDeliveries.status, 'sending'), lt(webhookDeliveries.leaseUntil, now)),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(webhookDeliveries)
      .set({ status: 'sending', leaseUntil, updatedAt: now })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

/** One HTTP attempt through the SSRF-safe dispatcher; never throws. */
async function attempt(
  deps: AppDeps,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<AttemptOutcome> {
  const timeoutMs = deps.config.WEBHOOK_TIMEOUT_MS;
  try {
    const res = await request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher: deps.webhookDispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Only the status matters; drain a little so the connection can be reused, then drop it.
    await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
    const code = res.statusCode;
    if (code >= 200 && code < 300) return { statusCode: code, error: null };
    if (code >= 300 && code < 400)
      return { statusCode: code, error: `Receiver answered ${code}; redirects are not followed.` };
    return { statusCode: code, error: `Receiver answered ${code}.` };
  } catch (err) {
    return { statusCode: null, error: describeNetworkError(err, timeoutMs) };
  }
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as {
    name?: string;
    code?: string;
    message?: string;
    summary?: string;
    cause?: { code?: string };
  };
  // The summary leaves out the address a name resolved to (safe-dispatcher.ts).
  if (e?.name === 'BlockedTargetError') return `Refused: ${e.summary ?? e.message}.`;
  if (
    e?.name === 'TimeoutError' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT'
  )
    return `No response within ${timeoutMs} ms.`;
  if (e?.code === 'UND_ERR_CONNECT_TIMEOUT') return `Could not connect within ${timeoutMs} ms.`;
  const code = e?.code ?? e?.cause?.code;
  const message = (e?.message ?? String(err)).slice(0, 200);
  return code ? `${code}: ${message}` : message;
}

interface Target {
  url: string;
  status: string;
  secretSealed: string;
}

type Writer = ReturnType<typeof createAttemptWriter>;

/** Writes one attempt's result, only if this process still holds the claim. */
async function recordAttempt(deps: AppDeps, writer: Writer, row: DeliveryRow, outcome: AttemptOutcome) {
  const now = deps.clock.now();
  const attempts = row.attempts + 1;
  const delivered = outcome.error === null;
  const gone = outcome.statusCode === 410;
  const delay = delivered || gone ? null : nextAttemptDelayMs(attempts, deps.config.WEBHOOK_BACKOFF_SCALE);
  await writer.record({
    id: row.id,
    leaseUntil: row.leaseUntil!,
    status: delivered ? 'delivered' : delay === null ? 'dead' : 'failed',
    attempts,
    lastStatusCode: outcome.statusCode,
    lastError: gone ? 'Receiver answered 410 Gone; the endpoint is now disabled.' : outcome.error,
    nextAttemptAt: delay === null ? null : now + delay,
    at: now,
  });
  if (gone) await disableEndpoint(deps, row.webhookId, now);
}

/** 410 Gone: the receiver asks us to stop. The endpoint is disabled and its queue given up. */
async function disableEndpoint(deps: AppDeps, webhookId: string, now: number) {
  await deps.db.transaction(async (tx) => {
    await tx
      .update(webhooks)
      .set({ status: 'disabled', updatedAt: now })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.status, 'active')));
    await tx
      .update(webhookDeliveries)
      .set({
        status: 'dead',
        nextAttemptAt: null,
        lastError: 'Not sent: the endpoint was disabled after its receiver answered 410 Gone.',
        updatedAt: now,
      })
      .where(
        and(
          eq(webhookDeliveries.webhookId, webhookId),
          inArray(webhookDeliveries.status, ['pending', 'failed']),
        ),
      );
  });
}

/** A queued delivery whose endpoint was disabled in the meantime is given up, not sent. */
async function giveUp(deps: AppDeps, row: DeliveryRow, reason: string) {
  const now = deps.clock.now();
  await deps.db
    .update(webhookDeliveries)
    .set({ status: 'dead', nextAttemptAt: null, leaseUntil: null, lastError: reason, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.leaseUntil, row.leaseUntil!)));
}

async function deliverOne(
  deps: AppDeps,
  writer: Writer,
  row: DeliveryRow,
  target: Target | undefined,
  event: { id: string; type: string; createdAt: number; payload: Record<string, unknown> } | undefined,
) {
  if (!target || !event) return giveUp(deps, row, 'Not sent: the endpoint or its event no longer exists.');
  if (target.status !== 'active')
    return giveUp(deps, row, 'Not sent: the endpoint was disabled after its receiver answered 410 Gone.');
  let secret: string;
  try {
    if (!deps.vault) throw new Error('no vault');
    secret = deps.vault.open(target.secretSealed, vaultAad.webhookSecret(row.webhookId));
  } catch {
    // An operator problem (vault key removed or rotated without KIT_VAULT_OLD_KEYS): never send unsigned.
    return recordAttempt(deps, writer, row, {
      statusCode: null,
      error: 'Not sent: the signing secret could not be opened (check KIT_VAULT_KEY / KIT_VAULT_OLD_KEYS).',
    });
  }
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    data: event.payload,
  });
  const headers = deliveryHeaders({
    secret,
    eventType: event.type,
    deliveryId: row.id,
    nowMs: deps.clock.now(),
    rawBody: body,
  });
  const outcome = await attempt(deps, target.url, headers, body);
  await recordAttempt(deps, writer, row, outcome);
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}

/** Claims and sends one batch of due deliveries; returns how many were handled. */
export async function deliverDue(deps: AppDeps, limit = DELIVERY_BATCH): Promise<number> {
  const claimed = await claimDueDeliveries(deps, limit);
  if (claimed.length === 0) return 0;
  const webhookIds = [...new Set(claimed.map((d) => d.webhookId))];
  const eventIds = [...new Set(claimed.map((d) => d.eventId))];
  const [targets, eventRows] = await Promise.all([
    deps.db
      .select({
        id: webhooks.id,
        url: webhooks.url,
        status: webhooks.status,
        secretSealed: webhooks.secretSealed,
      })
      .from(webhooks)
      .where(inArray(webhooks.id, webhookIds)),
    deps.db.select().from(events).where(inArray(events.id, eventIds)),
  ]);
  const targetById = new Map(targets.map((t) => [t.id, t]));
  const eventById = new Map(eventRows.map((e) => [e.id, e]));
  const writer = createAttemptWriter(deps);
  await eachLimited(claimed, SEND_CONCURRENCY, (row) =>
    deliverOne(deps, writer, row, targetById.get(row.webhookId), eventById.get(row.eventId)).catch((err) =>
      // The claim lapses and another run retries; nothing is lost.
      deps.log.error({ err, deliveryId: row.id }, 'could not record a webhook attempt'),
    ),
  );
  return claimed.length;
}

/** The earliest moment a delivery becomes due (or a lapsed claim becomes claimable again). */
export async function nextDeliveryDueAt(deps: AppDeps): Promise<number | null> {
  const [[queued], [leased]] = await Promise.all([
    deps.db
      .select({ at: min(webhookDeliveries.nextAttemptAt) })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.status, ['pending', 'failed'])),
    deps.db
      .select({ at: min(webhookDeliveries.leaseUntil) })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, 'sending'), isNotNull(webhookDeliveries.leaseUntil))),
  ]);
  const times = [queued?.at, leased?.at].filter((t): t is number => t !== null && t !== undefined);
  return times.length ? Math.min(...times) : null;
}

/**
 * The delivery sweep. Besides the per-tick run it polls every WEBHOOK_POLL_MS so that an
 * event recorded by another process (an API replica) goes out within about a second even
 * though that process cannot wake this one; emitters in this process may also call
 * `deps.wake('webhooks')` after committing.
 */
export const webhookDeliverySweep: Sweep = {
  name: WEBHOOK_SWEEP,
  batchSize: DELIVERY_BATCH,
  run: (deps) => deliverDue(deps),
  async nextDueAt(deps) {
    const poll = deps.clock.now() + Math.min(deps.config.WEBHOOK_POLL_MS, deps.config.SWEEP_INTERVAL_MS);
    const due = await nextDeliveryDueAt(deps);
    return due === null ? poll : Math.min(due, poll);
  },
};
