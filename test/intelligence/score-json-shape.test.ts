import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Ctx } from '../../src/context.ts';
import { FollowerBand, MediaKind } from '../../src/domain/enums.ts';
import { ScoreRequest, ScoreResult } from '../../src/features/intelligence/intelligence.schemas.ts';
import { scoreText, scoreTextJson } from '../../src/features/intelligence/intelligence.service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * POST /v1/score sends the cached JSON as is, past the response schema's serializer (a cache
 * hit is one store read). So the JSON itself is held to that schema here, on real posts: it
 * parses as a ScoreResult, and the schema's serializer would send exactly the same content
 * (nothing missing, nothing extra). score_post (MCP) and stored scores get the object the JSON
 * was made from, which must read the same as the JSON.
 */

const all = [...readRealPosts('linkedin-posts-2025.csv'), ...readRealPosts('linkedin-creator-posts.csv')];
const posts = all
  .filter((p) => p.text.trim().length > 0)
  .filter((_, i) => i % 25 === 0)
  .slice(0, 40);

let t: TestApp;
let ctx: Ctx;
let key: string;

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_MODEL_QUOTA: '100000', RATE_LIMIT_MODEL_PER_MIN: '100000' });
  const { accountId, keyId, apiKey } = await t.signup();
  key = apiKey;
  ctx = {
    deps: t.service.deps,
    caller: {
      accountId,
      keyId,
      plan: 'free',
      memberId: 'test',
      role: 'owner',
      scopes: ['read', 'write', 'publish'],
    },
    requestId: 'test',
    log: t.service.deps.log,
  };
});
afterAll(async () => {
  await t?.close();
});

/** What the route's serializer (fastify-type-provider-zod: encode, then JSON.stringify) would send. */
const serialized = (value: unknown) => JSON.parse(JSON.stringify(ScoreResult.encode(value as never)));

function expectScoreResultJson(json: string) {
  const parsed = JSON.parse(json);
  const checked = ScoreResult.safeParse(parsed);
  expect(checked.success, checked.error?.message).toBe(true);
  expect(serialized(parsed)).toStrictEqual(parsed);
}

/** Inputs across both platforms, every media kind and the optional context fields, as the route validates them. */
const inputsOf = (post: string, i: number) =>
  [
    { post },
    { post, platform: 'platformB' },
    {
      post,
      platform: i % 2 ? 'platformA' : 'platformB',
      media: MediaKind.options[i % MediaKind.options.length],
      followerBand: FollowerBand.options[i % FollowerBand.options.length],
      dayOfWeek: i % 7,
      hourLocal: (i * 5) % 24,
    },
  ].map((body) => ScoreRequest.parse(body));

describeRealPosts('the score JSON sent past the serializer', () => {
  it('samples enough real posts', () => {
    expect(posts.length).toBeGreaterThanOrEqual(30);
  });

  it('holds with a personal model too (the result carries `personal`)', async () => {
    // One real author's history, imported and fitted as a user's would be.
    const byAuthor = Map.groupBy(all, (p) => p.author);
    const author = [...byAuthor.values()].sort((a, b) => b.length - a.length)[0]!.slice(0, 40);
    const items = author.map((p, i) => ({
      text: p.text,
      reactions: p.engagement,
      comments: 0,
      publishedAt: Date.UTC(2025, 0, 1) + i * 86_400_000,
    }));
    const imported = await t.request('POST', '/v1/history', { key, body: { items } });
    expect(imported.status, imported.text).toBe(201);
    await t.service.runner!.runOnce();
    let personal = 0;
    for (const p of posts.slice(0, 10)) {
      const json = await scoreTextJson({
        ctx,
        input: ScoreRequest.parse({ post: p.text, personalize: true }),
      });
      expectScoreResultJson(json);
      if (JSON.parse(json).personal) personal++;
    }
    expect(personal).toBe(10);
  });

  it('is a ScoreResult the response schema would send unchanged, computed or cached', async () => {
    for (const [i, p] of posts.entries()) {
      for (const input of inputsOf(p.text, i)) {
        const computed = await scoreTextJson({ ctx, input });
        expectScoreResultJson(computed);
        // The second time it comes from the cache: the very same bytes.
        expect(await scoreTextJson({ ctx, input })).toBe(computed);
      }
    }
  });

  it('the route sends that JSON, and the object score_post gets reads the same', async () => {
    for (const p of posts.slice(0, 8)) {
      // A text this account has not scored yet, so scoreText computes it (a cache miss).
      const body = { post: `${p.text}\n\n${randomUUID()}` };
      const input = ScoreRequest.parse(body);
      const value = await scoreText({ ctx, input });
      const json = await scoreTextJson({ ctx, input });
      expect(value).toStrictEqual(JSON.parse(json));
      const res = await t.request('POST', '/v1/score', { key, body });
      expect(res.status, res.text).toBe(200);
      expect(res.text).toBe(json);
    }
  });
});
