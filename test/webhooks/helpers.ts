import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebhookEvent } from '../../src/domain/enums.ts';
import { recordEvent } from '../../src/features/events/events.service.ts';
import { freshDatabase, type TestApp } from '../helpers/app.ts';
import type { Received } from './receiver.ts';

export const vaultKey = () => randomBytes(32).toString('base64');

/** Records an event the way an emitter does: inside a transaction of the caller's. */
export async function emit(
  t: TestApp,
  accountId: string,
  type: WebhookEvent = 'post.published',
  data: Record<string, unknown> = { post: { id: `pst_${randomBytes(6).toString('hex')}`, text: 'hello' } },
) {
  const { db, clock } = t.service.deps;
  return db.transaction((tx) => recordEvent(tx, { accountId, type, data, now: clock.now() }));
}

/**
 * The receiver's side, written independently of the service's signing code: recompute
 * HMAC-SHA256(secret, "<timestamp>.<raw body>") and compare in constant time.
 */
export function signatureValid(secret: string, received: Received): boolean {
  const timestamp = received.headers['x-kit-timestamp'];
  const header = received.headers['x-kit-signature'];
  if (typeof timestamp !== 'string' || typeof header !== 'string' || !/^\d+$/.test(timestamp)) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest('hex')}`;
  const a = Buffer.from(expected);
  const b = Buffer.from(header);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function createWebhook(t: TestApp, key: string, url: string, events?: string[]) {
  const res = await t.request('POST', '/v1/webhooks', { key, body: events ? { url, events } : { url } });
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${res.text}`);
  return res.body as { webhook: { id: string; status: string; events: string[] }; secret: string };
}

export async function deliveries(t: TestApp, key: string, webhookId: string, query = '') {
  const res = await t.request('GET', `/v1/webhooks/${webhookId}/deliveries${query}`, { key });
  if (res.status !== 200) throw new Error(`deliveries failed: ${res.status} ${res.text}`);
  return res.body as {
    deliveries: {
      id: string;
      status: string;
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
      nextAttemptAt: number | null;
      createdAt: number;
      updatedAt: number;
      event: string;
      webhookId: string;
    }[];
    pagination: { limit: number; offset: number; hasMore: boolean };
  };
}

/** A clock tests move by hand, so a 47-hour retry schedule runs in milliseconds. */
export function manualClock(start = Date.now()) {
  let now = start;
  return {
    now: () => now,
    set(at: number) {
      now = at;
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

/** One database that outlives a service: a PostgreSQL database, or a PGlite directory. */
export async function durableDatabase() {
  const server = await freshDatabase();
  if (server) return { env: { DATABASE_URL: server.url }, drop: server.drop };
  const dir = mkdtempSync(join(tmpdir(), 'postkit-webhooks-'));
  return {
    env: { DATABASE_URL: undefined, DATA_DIR: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
