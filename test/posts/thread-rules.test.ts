import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MemberA,
  type MemberB,
  startThreadWorld,
  type ThreadWorld,
  threadTexts,
} from './threads-world.ts';

/**
 * The parts of a post (thread, first comment) are checked before anything is sent: each
 * problem is a 400 at the part's path, counted the platform's way; validate reports per part.
 */
let w: ThreadWorld;
let b: MemberB;
let a: MemberA;

beforeAll(async () => {
  w = await startThreadWorld();
  b = await w.memberB();
  a = await w.memberA();
});
afterAll(async () => {
  await w?.close();
});

const create = (m: { apiKey: string }, body: Record<string, unknown>) =>
  w.t.request('POST', '/v1/posts', { key: m.apiKey, body });

async function draft(m: { apiKey: string; channelId: string }, body: Record<string, unknown>) {
  const res = await create(m, { channelId: m.channelId, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.post as { id: string; [k: string]: any };
}

describe('parts are validated before anything is sent', () => {
  it('a thread on platformA is a 400 that says to use firstComment', async () => {
    const res = await create(a, { channelId: a.channelId, text: 'No threads here', thread: ['two'] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'thread', message: expect.stringContaining('firstComment') },
    ]);
    const bulk = await w.t.request('POST', '/v1/posts/bulk-schedule', {
      key: a.apiKey,
      body: { items: [{ text: 'x', runAt: w.clock.now() + 60_000, channelId: a.channelId, thread: ['y'] }] },
    });
    expect(bulk.status).toBe(400);
    expect(bulk.body.error.details[0]).toMatchObject({ path: 'items[0].thread' });
    expect(bulk.body.error.details[0].message).toContain('firstComment');
  });

  it('each bad part is a 400 naming it; URLs count 23 on platformB', async () => {
    const url = `https://example.com/${'a'.repeat(200)}`;
    const res = await create(b, {
      channelId: b.channelId,
      text: 'Parts checked',
      thread: ['  ', 'x'.repeat(281), `${'y'.repeat(250)} ${url}`, 'Parts checked'],
      firstComment: 'z'.repeat(281),
    });
    expect(res.status).toBe(400);
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths.sort()).toEqual(['firstComment', 'thread[0]', 'thread[1]', 'thread[3]']);
    const byPath = Object.fromEntries(res.body.error.details.map((d: any) => [d.path, d.message]));
    expect(byPath['thread[1]']).toContain('281 weighted characters');
    expect(byPath['thread[3]']).toContain('Repeats text');
    const comment = await create(a, {
      channelId: a.channelId,
      text: 'Too long a comment',
      firstComment: 'c'.repeat(1251),
    });
    expect(comment.status).toBe(400);
    expect(comment.body.error.details).toEqual([
      { path: 'firstComment', message: expect.stringContaining('1250') },
    ]);
    const tooMany = await create(b, {
      channelId: b.channelId,
      text: 'Too many',
      thread: threadTexts('Many', 25),
    });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body.error)).toContain('thread');
  });

  it('PATCH sets and checks the parts of a draft', async () => {
    const p = await draft(b, { text: 'Edited thread' });
    const bad = await w.t.request('PATCH', `/v1/posts/${p.id}`, {
      key: b.apiKey,
      body: { thread: ['', 'ok'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('thread[0]');
    const ok = await w.t.request('PATCH', `/v1/posts/${p.id}`, {
      key: b.apiKey,
      body: { thread: ['Edited thread 2/2'], firstComment: 'Edited comment' },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.post).toMatchObject({ thread: ['Edited thread 2/2'], firstComment: 'Edited comment' });
    const cleared = await w.t.request('PATCH', `/v1/posts/${p.id}`, {
      key: b.apiKey,
      body: { firstComment: null },
    });
    expect(cleared.body.post).toMatchObject({ thread: ['Edited thread 2/2'], firstComment: null });
  });

  it('POST /v1/posts/validate reports each part', async () => {
    const res = await w.t.request('POST', '/v1/posts/validate', {
      key: b.apiKey,
      body: {
        post: 'The post',
        platform: 'platformB',
        thread: ['fine', 'x'.repeat(281), 'fine'],
        firstComment: '   ',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.errors.map((e: any) => [e.code, e.part])).toEqual([
      ['too_long', 'thread[1]'],
      ['empty', 'firstComment'],
      ['duplicate_part', 'thread[2]'],
    ]);
    expect(res.body.parts).toEqual([
      { part: 'text', length: 8, limit: 280 },
      { part: 'thread[0]', length: 4, limit: 280 },
      { part: 'thread[1]', length: 281, limit: 280 },
      { part: 'thread[2]', length: 4, limit: 280 },
      { part: 'firstComment', length: 3, limit: 280 },
    ]);
    const onA = await w.t.request('POST', '/v1/posts/validate', {
      key: a.apiKey,
      body: { post: 'The post', thread: ['two'], firstComment: 'c'.repeat(1251) },
    });
    expect(onA.body.errors.map((e: any) => [e.code, e.part])).toEqual([
      ['thread_not_supported', 'thread'],
      ['too_long', 'firstComment'],
    ]);
    // Without parts the report is as it always was.
    const plain = await w.t.request('POST', '/v1/posts/validate', {
      key: a.apiKey,
      body: { post: 'The post' },
    });
    expect(plain.body).not.toHaveProperty('parts');
  });
});
