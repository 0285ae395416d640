import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startTeam } from './team-world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('comments on posts', () => {
  it('members leave notes on a draft in their own names; everyone reads them oldest first', async () => {
    const team = await startTeam(t);
    const writer = await team.add('editor');
    const lead = await team.add('admin');
    const client = await team.add('viewer');
    const draft = await t.request('POST', '/v1/posts', {
      key: writer.apiKey,
      body: { text: 'Our launch, in one line' },
    });
    const id = draft.body.post.id;
    const first = await t.request('POST', `/v1/posts/${id}/comments`, {
      key: lead.apiKey,
      body: { text: '  Shorten the hook; lead with the number.  ' },
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body.comment).toMatchObject({
      memberId: lead.memberId,
      text: 'Shorten the hook; lead with the number.',
    });
    expect(first.body.comment.id).toMatch(/^cmt_/);
    await t.request('POST', `/v1/posts/${id}/comments`, {
      key: writer.apiKey,
      body: { text: 'Done, see the new first line.' },
    });
    const list = await t.request('GET', `/v1/posts/${id}/comments`, { key: client.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.comments.map((c: { memberId: string }) => c.memberId)).toEqual([
      lead.memberId,
      writer.memberId,
    ]);
    expect(Object.keys(list.body.comments[0]).sort()).toEqual(['createdAt', 'id', 'memberId', 'text']);
    const byViewer = await t.request('POST', `/v1/posts/${id}/comments`, {
      key: client.apiKey,
      body: { text: 'Nice' },
    });
    expect(byViewer.status).toBe(403);
  });

  it('refuses an empty or overlong comment with a 400 naming text', async () => {
    const team = await startTeam(t);
    const draft = await t.request('POST', '/v1/posts', { key: team.owner.apiKey, body: { text: 'A draft' } });
    for (const text of ['   ', 'x'.repeat(2001)]) {
      const res = await t.request('POST', `/v1/posts/${draft.body.post.id}/comments`, {
        key: team.owner.apiKey,
        body: { text },
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain('text');
    }
  });

  it('another workspace’s post is 404 to read or comment on, and its comments never show', async () => {
    const mine = await startTeam(t);
    const theirs = await startTeam(t);
    const draft = await t.request('POST', '/v1/posts', {
      key: theirs.owner.apiKey,
      body: { text: 'Theirs' },
    });
    const id = draft.body.post.id;
    await t.request('POST', `/v1/posts/${id}/comments`, {
      key: theirs.owner.apiKey,
      body: { text: 'private note' },
    });
    const read = await t.request('GET', `/v1/posts/${id}/comments`, { key: mine.owner.apiKey });
    expect(read.status).toBe(404);
    expect(read.text).not.toContain('private note');
    const write = await t.request('POST', `/v1/posts/${id}/comments`, {
      key: mine.owner.apiKey,
      body: { text: 'hi' },
    });
    expect(write.status).toBe(404);
    const theirList = await t.request('GET', `/v1/posts/${id}/comments`, { key: theirs.owner.apiKey });
    expect(theirList.body.comments).toHaveLength(1);
  });
});
