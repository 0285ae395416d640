import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { backend } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';
import { type Member, type PostWorld, postRow, startPostWorld, uploadImage } from './world.ts';

/**
 * Real worker processes (`KIT_ROLE=worker`, started from src/main.ts) against one PostgreSQL.
 * PGlite is embedded in a single process, so these run on the server backend only.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const NODE = resolve(ROOT, 'node_modules/.bin/node');

let w: PostWorld;
let m: Member;
const children: ChildProcess[] = [];

function spawnWorker(extra: Record<string, string> = {}): Promise<ChildProcess> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: w.t.config.DATABASE_URL!,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    KIT_ROLE: 'worker',
    KIT_VAULT_KEY: w.vaultKey,
    ...w.sandbox.platformA.env(w.redirectUri),
    PLATFORMA_BACKOFF_SCALE: '0.001',
    DATA_DIR: w.dataDir,
    SWEEP_INTERVAL_MS: '1000',
    PUBLISH_LEASE_MS: '2000',
    LOG_LEVEL: 'error',
    ...extra,
  };
  const child = spawn(NODE, ['src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((ready, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('postkit worker started')) ready(child);
    });
    child.once('exit', (code) => fail(new Error(`worker exited early with ${code}: ${out}`)));
  });
}

async function stop(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}

beforeAll(async () => {
  if (backend !== 'postgres') return;
  w = await startPostWorld();
  m = await w.member();
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => stop(c, 'SIGKILL')));
  w?.sandbox.platformA.faults.clear();
});
afterAll(async () => {
  await w?.close();
});

describe.skipIf(backend !== 'postgres')('worker processes', () => {
  it('two workers sweeping 500 due posts make exactly 500 platform posts', async () => {
    await Promise.all([spawnWorker(), spawnWorker()]);
    const runAt = Date.now() + 2_000;
    const ids: string[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const items = Array.from({ length: 100 }, (_, i) => ({
        text: `Swept post ${batch * 100 + i}`,
        runAt,
        channelId: m.channelId,
      }));
      const res = await w.t.request('POST', '/v1/posts/bulk-schedule', { key: m.apiKey, body: { items } });
      expect(res.status, res.text).toBe(201);
      ids.push(...res.body.posts.map((p: { id: string }) => p.id));
    }
    const db = w.t.service.deps.db;
    await until(
      'all 500 posts to publish',
      async () => {
        const [row] = await db
          .select({ n: count() })
          .from(posts)
          .where(and(inArray(posts.id, ids), eq(posts.status, 'published')));
        return row!.n === 500;
      },
      110_000,
      200,
    );
    const onPlatform = m.platformPosts().filter((p) => p.text.startsWith('Swept post '));
    expect(onPlatform).toHaveLength(500);
    expect(new Set(onPlatform.map((p) => p.text)).size).toBe(500);
    const rows = await db.select().from(posts).where(inArray(posts.id, ids));
    expect(new Set(rows.map((r) => r.platformPostId)).size).toBe(500);
    for (const r of rows) expect(r.publishedAt!).toBeGreaterThanOrEqual(runAt);
    // Both processes took a share of the work.
    const claimers = new Set(rows.map((r) => r.claimedBy!.split(':')[0]!.split('-')[0]));
    expect(claimers.size).toBe(2);
  }, 120_000);

  it('a worker killed after sending the create never causes a second create', async () => {
    // A member of its own: recovery lists the member's recent posts, and the 500 posts above
    // would only make that listing longer.
    const m = await w.member();
    const first = await spawnWorker();
    w.sandbox.platformA.faults.latency(1_000, 'createPost');
    const creates = w.sandbox.platformA.state.calls('createPost');
    const res = await w.t.request('POST', '/v1/posts', {
      key: m.apiKey,
      body: { text: 'Killed mid-create', channelId: m.channelId, runAt: Date.now() + 500 },
    });
    const id = res.body.post.id;
    await until(
      'the create request to reach the sandbox',
      async () => w.sandbox.platformA.state.calls('createPost') > creates,
    );
    await stop(first, 'SIGKILL');
    const crashed = await postRow(w.t, id);
    expect(crashed!.status).toBe('publishing');
    expect(crashed!.createSentAt).not.toBeNull();
    // Let the platform finish (or drop) the request its dead caller sent, then recover.
    await new Promise((r) => setTimeout(r, 1_200));
    w.sandbox.platformA.faults.clear();
    await spawnWorker();
    const row = await until(
      'the post to publish',
      async () => {
        const r = await postRow(w.t, id);
        return r?.status !== 'publishing' ? r : null;
      },
      50_000,
      100,
    );
    const onPlatform = m.platformPosts().filter((p) => p.text === 'Killed mid-create');
    // Whatever the platform did with the orphaned request, recovery ends with exactly one post:
    // found, or sent again once because the platform listed no such post.
    expect(onPlatform, JSON.stringify(row)).toHaveLength(1);
    expect(row).toMatchObject({ status: 'published', platformPostId: onPlatform[0]!.id });
    expect([creates + 1, creates + 2]).toContain(w.sandbox.platformA.state.calls('createPost'));
  }, 60_000);

  it('a worker killed while uploading media leaves no post; recovery publishes it once', async () => {
    const first = await spawnWorker();
    const mediaId = await uploadImage(w.t, m);
    w.sandbox.platformA.faults.latency(1_500, 'uploadImage');
    const uploads = w.sandbox.platformA.state.calls('uploadImage');
    const res = await w.t.request('POST', '/v1/posts', {
      key: m.apiKey,
      body: {
        text: 'Killed mid-upload',
        channelId: m.channelId,
        mediaIds: [mediaId],
        runAt: Date.now() + 500,
      },
    });
    const id = res.body.post.id;
    await until(
      'the image upload to reach the sandbox',
      async () => w.sandbox.platformA.state.calls('uploadImage') > uploads,
    );
    await stop(first, 'SIGKILL');
    const crashed = await postRow(w.t, id);
    expect(crashed).toMatchObject({ status: 'publishing', createSentAt: null });
    w.sandbox.platformA.faults.clear();
    await spawnWorker();
    const row = await until(
      'the post to publish',
      async () => {
        const r = await postRow(w.t, id);
        return r?.status === 'published' ? r : null;
      },
      50_000,
      100,
    );
    const onPlatform = m.platformPosts().filter((p) => p.text === 'Killed mid-upload');
    expect(onPlatform).toHaveLength(1);
    expect(onPlatform[0]!.contentKind).toBe('image');
    expect(row.platformPostId).toBe(onPlatform[0]!.id);
  }, 60_000);

  it('SIGTERM lets a worker finish the publish it claimed', async () => {
    const worker = await spawnWorker();
    w.sandbox.platformA.faults.latency(800, 'createPost');
    const creates = w.sandbox.platformA.state.calls('createPost');
    const res = await w.t.request('POST', '/v1/posts', {
      key: m.apiKey,
      body: { text: 'Drained on SIGTERM', channelId: m.channelId, runAt: Date.now() + 300 },
    });
    await until(
      'the create request to reach the sandbox',
      async () => w.sandbox.platformA.state.calls('createPost') > creates,
    );
    const exited = new Promise<number | null>((r) => worker.once('exit', (code) => r(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    const row = await postRow(w.t, res.body.post.id);
    expect(row!.status).toBe('published');
  }, 60_000);
});
