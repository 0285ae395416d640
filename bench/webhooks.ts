import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { configWith } from '../src/config/config.ts';
import { recordEvent } from '../src/features/events/events.service.ts';
import { deliverDue } from '../src/features/webhooks/delivery.sweep.ts';
import { deliveryHeaders } from '../src/features/webhooks/signing.ts';
import { type Service, startService } from '../src/server.ts';
import { fmt, report, startChild } from './lib.ts';

/**
 * bench/webhooks: 5,000 events, each recorded in its own transaction the way an emitter does,
 * delivered by the running worker to a receiver in another process on loopback. Prints
 * deliveries per second and first-attempt latency (event recorded -> request received)
 * p50/p99, next to a baseline in the same run: the same number of signed POSTs sent straight
 * to the same receiver with the same concurrency, with no database, claims or bookkeeping.
 * Uses DATABASE_URL when set (PostgreSQL), otherwise in-memory PGlite.
 */

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000);

/** The receiver process: answers 200 and records, per delivery, now - event.createdAt. */
function runReceiver() {
  let latencies: number[] = [];
  let first = 0;
  let last = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ latencies, first, last }));
      return;
    }
    if (req.method === 'DELETE') {
      latencies = [];
      first = last = 0;
      res.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt: number };
      latencies.push(now - body.createdAt);
      first ||= now;
      last = now;
      res.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

interface Stats {
  latencies: number[];
  first: number;
  last: number;
}

async function stats(url: string, count: number): Promise<Stats> {
  for (;;) {
    // A fresh connection each time: a reused keep-alive socket may be closed under us.
    const res = await fetch(`${url}/stats`, { headers: { connection: 'close' } }).catch(() => null);
    const s = res ? ((await res.json()) as Stats) : null;
    if (s && s.latencies.length >= count) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** Baseline: the same signed POSTs straight from one process, 32 in flight, no database. */
async function baseline(url: string): Promise<number> {
  const agent = new Agent({ connections: 16 });
  const secret = 'whsec_baseline';
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < EVENTS) {
        const i = next++;
        const body = JSON.stringify({
          id: `evt_${i}`,
          type: 'post.published',
          createdAt: Date.now(),
          data: { post: { id: `pst_${i}` } },
        });
        const headers = deliveryHeaders({
          secret,
          eventType: 'post.published',
          deliveryId: `dlv_${i}`,
          nowMs: Date.now(),
          rawBody: body,
        });
        const res = await request(`${url}/hook`, { method: 'POST', headers, body, dispatcher: agent });
        await res.body.dump();
      }
    }),
  );
  const elapsed = Date.now() - started;
  await agent.close();
  return (EVENTS / elapsed) * 1000;
}

async function startBenchService(autoStartRunner: boolean) {
  return startService(
    configWith({
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: process.env.DATABASE_URL ?? 'memory://',
      KIT_VAULT_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_REQUESTS_PER_MIN: '1000000',
    }),
    { autoStartRunner },
  );
}

/** An account with one endpoint subscribed to everything, pointing at the receiver. */
async function setUp(service: Service, receiverUrl: string): Promise<string> {
  const signup = await fetch(`${service.url}/v1/account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com` }),
  });
  const { apiKey, account } = (await signup.json()) as { apiKey: string; account: { id: string } };
  const created = await fetch(`${service.url}/v1/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ url: `${receiverUrl}/hook` }),
  });
  if (created.status !== 201) throw new Error(`webhook create failed: ${await created.text()}`);
  return account.id;
}

/**
 * Records the events the way emitters do: one transaction each, a few side by side. Each commit
 * wakes a running delivery sweep (events.service.ts); a paused runner ignores the wake.
 */
async function recordEvents(service: Service, accountId: string) {
  const { deps } = service;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < EVENTS) {
        const i = next++;
        await deps.db.transaction((tx) =>
          recordEvent(tx, {
            accountId,
            type: 'post.published',
            data: { post: { id: `pst_${i}`, text: `post ${i}` } },
            now: Date.now(),
          }),
        );
      }
    }),
  );
}

async function main() {
  const receiver = await startChild('bench/webhooks.ts', {}, ['--receiver']);
  const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  try {
    const baseRate = await baseline(receiver.url);

    // 1. Backlog: 5,000 recorded events waiting, then the worker drains them flat out.
    await fetch(`${receiver.url}/stats`, { method: 'DELETE' });
    let service = await startBenchService(false);
    let drainRate: number;
    try {
      await recordEvents(service, await setUp(service, receiver.url));
      const started = Date.now();
      while ((await deliverDue(service.deps)) > 0) {}
      const s = await stats(receiver.url, EVENTS);
      drainRate = (EVENTS / (s.last - started)) * 1000;
    } finally {
      await service.close();
    }

    // 2. Live: the worker runs while emitters record; latency from event recorded to received.
    await fetch(`${receiver.url}/stats`, { method: 'DELETE' });
    service = await startBenchService(true);
    try {
      const accountId = await setUp(service, receiver.url);
      const started = Date.now();
      await recordEvents(service, accountId);
      const recordRate = (EVENTS / (Date.now() - started)) * 1000;
      const s = await stats(receiver.url, EVENTS);
      const liveRate = (EVENTS / (s.last - started)) * 1000;
      const sorted = [...s.latencies].sort((a, b) => a - b);
      const p50 = percentile(sorted, 0.5);
      const p99 = percentile(sorted, 0.99);

      console.log(`bench/webhooks (${backend}, ${fmt(EVENTS)} events, receiver in another process)`);
      console.log(`  backlog drain          ${fmt(drainRate)} deliveries/s`);
      console.log(
        `  live                   ${fmt(liveRate)} deliveries/s while emitters record ${fmt(recordRate)} events/s`,
      );
      console.log(
        `  first-attempt latency  p50 ${fmt(p50)} ms  p99 ${fmt(p99)} ms  (event committed -> received, live)`,
      );
      console.log(`  baseline (bare POSTs)  ${fmt(baseRate)} req/s, no database`);
      console.log(`  drain / baseline       ${(drainRate / baseRate).toFixed(2)}`);
      report('webhooks', {
        backend,
        events: EVENTS,
        deliveriesPerSec: Math.round(drainRate),
        liveDeliveriesPerSec: Math.round(liveRate),
        liveRecordEventsPerSec: Math.round(recordRate),
        firstAttemptP50Ms: p50,
        firstAttemptP99Ms: p99,
        baselineRps: Math.round(baseRate),
        ratio: Number((drainRate / baseRate).toFixed(3)),
      });
    } finally {
      await service.close();
    }
  } finally {
    await receiver.stop();
  }
}

if (process.argv.includes('--receiver')) runReceiver();
else await main();
