import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, eventsOf, type Member, type PostWorld, startPostWorld, uploadImage } from './world.ts';

let w: PostWorld;
let alice: Member;

beforeAll(async () => {
  w = await startPostWorld();
  alice = await w.member();
});
afterAll(async () => {
  await w?.close();
});

const TEXT =
  'I shipped 3 releases in 2 weeks.\n\nHere is what broke, and what I would do again.\n\nWhat would you change?';

describe('post scores', () => {
  it('scores the stored text exactly like POST /v1/score, keeps it, and records post.scored', async () => {
    const mediaId = await uploadImage(w.t, alice);
    const p = await createPost(w.t, alice, { text: TEXT, mediaIds: [mediaId] });
    const res = await w.t.request('POST', `/v1/posts/${p.id}/score`, { key: alice.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-ratelimit-llm-limit')).not.toBeNull();
    const { score, result } = res.body;
    const direct = await w.t.request('POST', '/v1/score', {
      key: alice.apiKey,
      body: { post: TEXT, platform: 'platformA', media: 'single-image' },
    });
    expect(result).toEqual(direct.body);
    expect(score).toEqual({
      id: expect.stringMatching(/^psc_/),
      postId: p.id,
      score: Math.round(result.overall),
      verdict: result.verdict,
      payload: result,
      createdAt: expect.any(Number),
    });
    const scored = (await eventsOf(w.t, alice.accountId)).filter((e) => e.type === 'post.scored');
    expect(scored).toHaveLength(1);
    expect(scored[0]!.post).toMatchObject({ id: p.id, text: TEXT });
  });

  it('lists a post scores newest first', async () => {
    const p = await createPost(w.t, alice, { text: 'A short one.' });
    const first = await w.t.request('POST', `/v1/posts/${p.id}/score`, { key: alice.apiKey });
    await new Promise((r) => setTimeout(r, 3));
    const second = await w.t.request('POST', `/v1/posts/${p.id}/score`, { key: alice.apiKey });
    const list = await w.t.request('GET', `/v1/posts/${p.id}/scores`, { key: alice.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.scores.map((s: { id: string }) => s.id)).toEqual([
      second.body.score.id,
      first.body.score.id,
    ]);
    const none = await createPost(w.t, alice, { text: 'Never scored' });
    expect((await w.t.request('GET', `/v1/posts/${none.id}/scores`, { key: alice.apiKey })).body).toEqual({
      scores: [],
    });
  });
});
