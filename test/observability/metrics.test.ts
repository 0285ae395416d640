import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import { posts } from '../../src/db/schema/index.ts';
import type { KvStore } from '../../src/kv/kv.ts';
import { countStoreErrors } from '../../src/observability/kv.ts';
import { createPrometheusMetrics } from '../../src/observability/prometheus.ts';
import { startService } from '../../src/server.ts';
import { freshDatabase, startTestApp } from '../helpers/app.ts';
import { createPost, type Member, type PostWorld, postRow, startPostWorld } from '../posts/world.ts';
import { createWebhook } from '../webhooks/helpers.ts';
import { type Receiver, startReceiver } from '../webhooks/receiver.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample of the exposition (labels in any order), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('who can read GET /metrics', () => {
  it('is not served at all without METRICS_PORT or METRICS_TOKEN', async () => {
    const t = await startTestApp();
    try {
      expect(t.service.deps.metrics.enabled).toBe(false);
      expect(t.service.metricsUrl).toBeNull();
      const res = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('postkit_');
    } finally {
      await t.close();
    }
  });

  it('with METRICS_TOKEN, answers the main port only to that bearer token', async () => {
    const t = await startTestApp({ METRICS_TOKEN: TOKEN });
    try {
      const none = await t.request('GET', '/metrics');
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('unauthorized');
      const wrong = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } });
      expect(wrong.status).toBe(401);
      expect(wrong.text).not.toContain('postkit_');
      const right = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(right.status).toBe(200);
      expect(right.headers.get('content-type')).toContain('text/plain');
      expect(right.text).toContain('# TYPE postkit_http_request_duration_seconds histogram');
      // Not an API operation: absent from the OpenAPI document the security tests enumerate.
      const doc = await t.request('GET', '/v1/openapi.json');
      expect(Object.keys(doc.body.paths)).not.toContain('/metrics');
    } finally {
      await t.close();
    }
  });

  it('with METRICS_PORT, serves them on that port only (token enforced there when set)', async () => {
    const t = await startTestApp({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
    try {
      const url = t.service.metricsUrl!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(url).not.toBe(t.url);
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await t.request('GET', '/metrics', { headers: auth })).status).toBe(404);
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      const ok = await fetch(`${url}/metrics`, { headers: auth });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('postkit_posts_due ');
      expect((await fetch(`${url}/other`, { headers: auth })).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('a worker process (no HTTP API) serves them on METRICS_PORT', async () => {
    const db = await freshDatabase();
    const service = await startService(
      configWith({
        KIT_ROLE: 'worker',
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        LOG_LEVEL: 'silent',
        DATABASE_URL: db?.url ?? 'memory://',
        REDIS_URL: process.env.REDIS_URL,
      }),
      { autoStartRunner: false, kvPrefix: `test:metrics-worker:${Date.now()}:` },
    );
    try {
      expect(service.url).toBeNull();
      await service.runner!.runOnce();
      const text = await (await fetch(`${service.metricsUrl}/metrics`)).text();
      expect(sample(text, 'postkit_sweep_duration_seconds_count', { sweep: 'publish' })).toBe(1);
    } finally {
      await service.close();
      await db?.drop();
    }
  });
});

describe('the metrics follow real work', () => {
  let w: PostWorld;
  let m: Member;
  let receiver: Receiver;
  const scrape = async () => (await fetch(`${w.t.service.metricsUrl}/metrics`)).text();

  beforeAll(async () => {
    receiver = await startReceiver((req) => (req.path.startsWith('/fail') ? 500 : 200));
    w = await startPostWorld({ env: { METRICS_PORT: '0', WEBHOOK_ALLOW_PRIVATE: 'true' } });
    m = await w.member();
  });
  afterAll(async () => {
    await w?.close();
    await receiver?.close();
  });

  it('times requests by route pattern and status, not by raw URL', async () => {
    const route = { method: 'GET', route: '/v1/posts/:id', status: '404' };
    const before = sample(await scrape(), 'postkit_http_request_duration_seconds_count', route) ?? 0;
    const res = await w.t.request('GET', '/v1/posts/pst_doesnotexist000000', { key: m.apiKey });
    expect(res.status).toBe(404);
    const text = await scrape();
    expect(sample(text, 'postkit_http_request_duration_seconds_count', route)).toBe(before + 1);
    expect(text).not.toContain('pst_doesnotexist');
  });

  it('counts the backlog, the publish, its lateness and the webhook delivery it causes', async () => {
    await createWebhook(w.t, m.apiKey, `${receiver.url}/ok`, ['post.published']);
    const post = await createPost(w.t, m, {
      text: 'Metrics follow this one',
      channelId: m.channelId,
      runAt: w.clock.now() + 60_000,
    });
    w.clock.advance(90_000);
    const due = await scrape();
    expect(sample(due, 'postkit_posts_due')).toBe(1);
    expect(sample(due, 'postkit_posts_due_oldest_seconds')).toBeGreaterThanOrEqual(30);

    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, post.id))?.status).toBe('published');
    await receiver.waitFor(1);
    await w.t.service.runner!.runOnce();
    const text = await scrape();
    expect(sample(text, 'postkit_posts_due')).toBe(0);
    expect(sample(text, 'postkit_publishes_total', { outcome: 'published' })).toBe(1);
    expect(sample(text, 'postkit_publish_lateness_seconds_count')).toBe(1);
    // Published about 30 s after its time on the test clock.
    expect(sample(text, 'postkit_publish_lateness_seconds_bucket', { le: '10' })).toBe(0);
    expect(sample(text, 'postkit_publish_lateness_seconds_bucket', { le: '60' })).toBe(1);
    expect(sample(text, 'postkit_webhook_attempts_total', { outcome: 'delivered' })).toBe(1);
    expect(sample(text, 'postkit_webhook_lateness_seconds_count')).toBe(1);
    expect(sample(text, 'postkit_sweep_lag_seconds_count', { sweep: 'webhooks' })).toBeGreaterThanOrEqual(2);
  });

  it('counts a failing webhook endpoint and a recovered claim', async () => {
    await createWebhook(w.t, m.apiKey, `${receiver.url}/fail`, ['post.published']);
    const post = await createPost(w.t, m, {
      text: 'Its publisher died',
      channelId: m.channelId,
      runAt: w.clock.now() + 60_000,
    });
    // A claim whose process died long ago: recovery takes it over.
    const lease = w.t.config.PUBLISH_LEASE_MS;
    await w.t.service.deps.db
      .update(posts)
      .set({ status: 'publishing', claimedBy: 'dead:process', claimedAt: w.clock.now() - lease - 1_000 })
      .where(eq(posts.id, post.id));
    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, post.id))?.status).toBe('published');
    await w.t.service.runner!.runOnce();
    const text = await scrape();
    expect(sample(text, 'postkit_publish_claims_recovered_total')).toBe(1);
    expect(sample(text, 'postkit_webhook_attempts_total', { outcome: 'failed' })).toBe(1);
    expect(sample(text, 'postkit_webhook_endpoints_failing')).toBe(1);
  });

  it('counts engine runs and cache hits', async () => {
    const body = { post: 'A post scored twice for the metrics test.\n\nSecond paragraph here.' };
    for (let i = 0; i < 2; i++)
      expect((await w.t.request('POST', '/v1/score', { key: m.apiKey, body })).status).toBe(200);
    const text = await scrape();
    const runs = { operation: 'score', engine: 'heuristic', outcome: 'ok' };
    expect(sample(text, 'postkit_engine_runs_total', runs)).toBe(1);
    expect(
      sample(text, 'postkit_intelligence_cache_lookups_total', { operation: 'score', result: 'miss' }),
    ).toBe(1);
    expect(
      sample(text, 'postkit_intelligence_cache_lookups_total', { operation: 'score', result: 'hit' }),
    ).toBe(1);
  });
});

describe('store errors', () => {
  it('counts each failed store call by store and operation, and still rejects it', async () => {
    const down = new Error('connection refused');
    const failing = {
      kind: 'redis',
      hitMany: () => Promise.reject(down),
      get: () => Promise.resolve('v'),
    } as unknown as KvStore;
    const metrics = createPrometheusMetrics(async () => ({
      postsDue: 0,
      oldestDueMs: null,
      claimsLapsed: 0,
      deliveriesDue: 0,
      endpointsFailing: 0,
      channelsExpiring: [],
    }));
    const kv = countStoreErrors(failing, metrics);
    await expect(kv.hitMany(['a'], 1000)).rejects.toBe(down);
    await expect(kv.get('a')).resolves.toBe('v');
    const { body } = await metrics.render();
    expect(sample(body, 'postkit_store_errors_total', { store: 'redis', operation: 'hitMany' })).toBe(1);
    expect(sample(body, 'postkit_store_errors_total', { store: 'redis', operation: 'get' })).toBeUndefined();
  });
});
