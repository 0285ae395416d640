import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGroups, posts } from '../../src/db/schema/index.ts';
import { connected } from '../channels/helpers.ts';
import { callErr, callOk, connectClient } from '../mcp/helpers.ts';
import { connectedB } from '../platforms/platformB-world.ts';
import { startThreadWorld, type ThreadWorld } from '../posts/threads-world.ts';

/**
 * POST /v1/post-groups and the group routes, over real HTTP to both sandbox platforms: one
 * account holding a platformA and a platformB channel composes once for both.
 */
let w: ThreadWorld;
let alice: Account;
let bob: Account;

interface Account {
  apiKey: string;
  accountId: string;
  a: string;
  b: string;
  bUserId: string;
  aAuthor: string;
}

/** An account with one channel on each platform, each its own sandbox member. */
async function account(): Promise<Account> {
  const { apiKey, accountId } = await w.t.signup();
  const sub = w.sandbox.platformA.state.addMember().sub;
  w.sandbox.platformA.state.useMember(sub);
  const a = await connected(w, apiKey);
  const stateB = w.sandbox.platformB.state;
  stateB.useMember(stateB.addMember().id);
  const b = await connectedB(w, apiKey);
  return { apiKey, accountId, a: a.id, b: b.id, bUserId: b.platformUserId, aAuthor: `urn:li:person:${sub}` };
}

beforeAll(async () => {
  w = await startThreadWorld();
  alice = await account();
  bob = await account();
});
afterAll(async () => {
  await w?.close();
});

const req = (m: Account, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  w.t.request(method, path, { key: m.apiKey, body, headers });
const tag = () => randomBytes(4).toString('hex');

/** A variant per platform: a thread for platformB, a first comment on each. */
const variants = (m: Account, t: string) => [
  { channelId: m.a, text: `${t}: the whole story on platformA`, firstComment: `${t}: link on A` },
  {
    channelId: m.b,
    text: `${t}: the short version`,
    thread: [`${t}: part two`, `${t}: part three`],
    firstComment: `${t}: link on B`,
  },
];

const groupRows = async (accountId: string) =>
  w.t.service.deps.db.select().from(postGroups).where(eq(postGroups.accountId, accountId));
const postRows = async (accountId: string) =>
  w.t.service.deps.db.select().from(posts).where(eq(posts.accountId, accountId));

describe('POST /v1/post-groups', () => {
  it('creates one draft per variant, each on its own platform, all carrying the group id', async () => {
    const t = tag();
    const res = await req(alice, 'POST', '/v1/post-groups', { variants: variants(alice, t) });
    expect(res.status, res.text).toBe(201);
    const { group, posts: made } = res.body;
    expect(group.id).toMatch(/^pgr_/);
    expect(group.postIds).toEqual(made.map((p: any) => p.id));
    expect(made.map((p: any) => [p.channelId, p.platform, p.status, p.groupId])).toEqual([
      [alice.a, 'platformA', 'draft', group.id],
      [alice.b, 'platformB', 'draft', group.id],
    ]);
    expect(made[1].thread).toEqual([`${t}: part two`, `${t}: part three`]);

    const got = await req(alice, 'GET', `/v1/post-groups/${group.id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual(res.body);
    const listed = await req(alice, 'GET', `/v1/posts?groupId=${group.id}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.posts.map((p: any) => p.id).sort()).toEqual([...group.postIds].sort());
    // An ungrouped post says so.
    const single = await req(alice, 'POST', '/v1/posts', { text: `${t} alone`, channelId: alice.a });
    expect(single.body.post.groupId).toBeNull();
  });

  it('is all or none: a bad variant fails the request at its index and nothing is written', async () => {
    const groupsBefore = (await groupRows(alice.accountId)).length;
    const postsBefore = (await postRows(alice.accountId)).length;
    const t = tag();
    const res = await req(alice, 'POST', '/v1/post-groups', {
      variants: [
        { channelId: alice.a, text: `${t}: fine on A` },
        // platformA has no threads; platformB's limit is 280 characters.
        { channelId: alice.b, text: 'x'.repeat(400) },
        { channelId: alice.a, text: `${t}: A again`, thread: ['no threads here'] },
      ],
      runAt: w.clock.now() + 3_600_000,
    });
    expect(res.status, res.text).toBe(400);
    const paths = res.body.error.details.map((d: any) => d.path);
    expect(paths).toContain('variants[1].text');
    expect(paths).toContain('variants[2].thread');
    expect(paths).toContain('variants[2].channelId');
    expect(paths.some((p: string) => p.startsWith('variants[0]'))).toBe(false);
    expect(res.body.error.message).toMatch(/nothing was created/);
    expect((await groupRows(alice.accountId)).length).toBe(groupsBefore);
    expect((await postRows(alice.accountId)).length).toBe(postsBefore);
  });

  it('refuses another account’s channel in a variant with 400 at that variant, and its group paths with 404', async () => {
    const res = await req(alice, 'POST', '/v1/post-groups', {
      variants: [
        { channelId: alice.a, text: 'Mine' },
        { channelId: bob.b, text: 'Not mine' },
      ],
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'variants[1].channelId', message: 'No such channel for this account' },
    ]);

    const bobs = await req(bob, 'POST', '/v1/post-groups', { variants: variants(bob, tag()) });
    expect(bobs.status, bobs.text).toBe(201);
    const id = bobs.body.group.id;
    for (const [method, path] of [
      ['GET', `/v1/post-groups/${id}`],
      ['POST', `/v1/post-groups/${id}/cancel`],
      ['POST', `/v1/post-groups/${id}/publish`],
    ] as const) {
      const other = await req(alice, method, path);
      expect(other.status, `${method} ${path}`).toBe(404);
      expect(other.body.error.code).toBe('not_found');
    }
    const listed = await req(alice, 'GET', `/v1/posts?groupId=${id}`);
    expect(listed.status).toBe(400);
    expect(listed.body.error.details[0].path).toBe('querystring.groupId');
    // Bob's posts were not touched.
    const still = await req(bob, 'GET', `/v1/post-groups/${id}`);
    expect(still.body.posts.map((p: any) => p.status)).toEqual(['draft', 'draft']);
  });

  it('refuses runAt with queue, a past runAt once, and a channel twice', async () => {
    const past = await req(alice, 'POST', '/v1/post-groups', {
      variants: variants(alice, tag()),
      runAt: w.clock.now() - 1_000,
    });
    expect(past.status).toBe(400);
    expect(past.body.error.details.map((d: any) => d.path)).toEqual(['runAt']);
    const both = await req(alice, 'POST', '/v1/post-groups', {
      variants: variants(alice, tag()),
      runAt: w.clock.now() + 60_000,
      queue: true,
    });
    expect(both.status).toBe(400);
    expect(both.body.error.details.map((d: any) => d.path)).toContain('queue');
    const twice = await req(alice, 'POST', '/v1/post-groups', {
      variants: [
        { channelId: alice.a, text: 'One' },
        { channelId: alice.a, text: 'Two' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.details).toEqual([
      {
        path: 'variants[1].channelId',
        message: 'Another variant goes to this channel already; give each channel one variant',
      },
    ]);
  });

  it('replays an Idempotency-Key: the same group, no second set of posts', async () => {
    const key = `group-${tag()}`;
    const body = { variants: variants(alice, tag()), runAt: w.clock.now() + 7_200_000 };
    const first = await req(alice, 'POST', '/v1/post-groups', body, { 'idempotency-key': key });
    expect(first.status, first.text).toBe(201);
    const before = (await postRows(alice.accountId)).length;
    const again = await req(alice, 'POST', '/v1/post-groups', body, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await postRows(alice.accountId)).length).toBe(before);
    const changed = await req(
      alice,
      'POST',
      '/v1/post-groups',
      { ...body, runAt: body.runAt + 1 },
      {
        'idempotency-key': key,
      },
    );
    expect(changed.status).toBe(422);
  });

  it('queues each post at its own channel’s next free slot', async () => {
    const m = await account();
    for (const channelId of [m.a, m.b]) {
      const put = await req(m, 'PUT', `/v1/channels/${channelId}/queue`, {
        timezone: 'UTC',
        slots: [{ day: 1, time: channelId === m.a ? '09:00' : '10:00' }],
      });
      expect(put.status, put.text).toBe(200);
    }
    const res = await req(m, 'POST', '/v1/post-groups', { variants: variants(m, tag()), queue: true });
    expect(res.status, res.text).toBe(201);
    const [a, b] = res.body.posts;
    expect([a.status, b.status]).toEqual(['scheduled', 'scheduled']);
    expect(new Date(a.scheduledFor).toISOString()).toMatch(/T09:00:00/);
    expect(new Date(b.scheduledFor).toISOString()).toMatch(/T10:00:00/);
    // A channel without slots is named at its variant.
    const n = await account();
    const none = await req(n, 'POST', '/v1/post-groups', { variants: variants(n, tag()), queue: true });
    expect(none.status).toBe(400);
    expect(none.body.error.details.map((d: any) => d.path)).toEqual([
      'variants[0].channelId',
      'variants[1].channelId',
    ]);
  });

  it('cancels a group: every post not yet sent is canceled, a published one is listed as refused', async () => {
    const res = await req(alice, 'POST', '/v1/post-groups', {
      variants: variants(alice, tag()),
      runAt: w.clock.now() + 3_600_000,
    });
    expect(res.status, res.text).toBe(201);
    const [a, b] = res.body.posts;
    // One variant alone first: it goes out now, the other stays scheduled.
    const one = await req(alice, 'POST', `/v1/posts/${a.id}/publish`);
    expect(one.status, one.text).toBe(200);
    const canceled = await req(alice, 'POST', `/v1/post-groups/${res.body.group.id}/cancel`);
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body.posts.map((p: any) => [p.id, p.status])).toEqual([
      [a.id, 'published'],
      [b.id, 'canceled'],
    ]);
    expect(canceled.body.refused).toEqual([
      {
        postId: a.id,
        code: 'post_terminal',
        message: 'The post is published, which is final; it cannot be canceled.',
      },
    ]);
    // A single post of a group cancels alone too.
    const other = await req(alice, 'POST', '/v1/post-groups', { variants: variants(alice, tag()) });
    const alone = await req(alice, 'POST', `/v1/posts/${other.body.posts[1].id}/cancel`);
    expect(alone.body.post.status).toBe('canceled');
    const after = await req(alice, 'GET', `/v1/post-groups/${other.body.group.id}`);
    expect(after.body.posts.map((p: any) => p.status)).toEqual(['draft', 'canceled']);
  });

  it('publishes a two-channel group to both sandbox platforms, each post once, with one groupId', async () => {
    const t = tag();
    const res = await req(alice, 'POST', '/v1/post-groups', { variants: variants(alice, t) });
    expect(res.status, res.text).toBe(201);
    const id = res.body.group.id;
    const key = `publish-${t}`;
    const published = await req(alice, 'POST', `/v1/post-groups/${id}/publish`, undefined, {
      'idempotency-key': key,
    });
    expect(published.status, published.text).toBe(200);
    expect(published.body.refused).toEqual([]);
    const [a, b] = published.body.posts;
    expect([a.status, b.status]).toEqual(['published', 'published']);
    expect([a.groupId, b.groupId]).toEqual([id, id]);
    expect(b.platformPostIds).toHaveLength(3);

    const onA = w.sandbox.platformA.state
      .listPosts({ author: alice.aAuthor })
      .filter((p) => p.text.startsWith(t));
    expect(onA.map((p) => p.text)).toEqual([`${t}: the whole story on platformA`]);
    const onB = w.sandbox.platformB.state
      .listTweets({ authorId: alice.bUserId })
      .filter((x) => x.text.startsWith(t));
    expect(onB.map((x) => x.text).sort()).toEqual(
      [`${t}: the short version`, `${t}: part two`, `${t}: part three`, `${t}: link on B`].sort(),
    );
    // A replay answers the same; a second call without the key publishes nothing again.
    const replay = await req(alice, 'POST', `/v1/post-groups/${id}/publish`, undefined, {
      'idempotency-key': key,
    });
    expect(replay.body).toEqual(published.body);
    const second = await req(alice, 'POST', `/v1/post-groups/${id}/publish`);
    expect(second.status).toBe(200);
    expect(second.body.refused).toEqual([]);
    expect(
      w.sandbox.platformB.state.listTweets({ authorId: alice.bUserId }).filter((x) => x.text.startsWith(t)),
    ).toHaveLength(4);
  });

  it('a key without the publish scope may group drafts but not schedule them', async () => {
    const key = await req(alice, 'POST', '/v1/keys', { scopes: ['read', 'write'] });
    const writer = { ...alice, apiKey: key.body.apiKey };
    const drafts = await req(writer, 'POST', '/v1/post-groups', { variants: variants(alice, tag()) });
    expect(drafts.status, drafts.text).toBe(201);
    const scheduled = await req(writer, 'POST', '/v1/post-groups', {
      variants: variants(alice, tag()),
      runAt: w.clock.now() + 60_000,
    });
    expect(scheduled.status).toBe(403);
    expect(scheduled.body.error.scope).toBe('publish');
  });
});

describe('create_post_group (MCP)', () => {
  it('creates the group through the same verb, and reports a bad variant at its index', async () => {
    const client = await connectClient(w.t.url, alice.apiKey);
    try {
      const t = tag();
      const { data: made, summary } = await callOk(client, 'create_post_group', {
        variants: variants(alice, t),
        runAt: w.clock.now() + 3_600_000,
        idempotencyKey: `mcp-${t}`,
      });
      expect(summary).toContain(made.group.id);
      expect(made.posts.map((p: any) => [p.platform, p.status, p.groupId])).toEqual([
        ['platformA', 'scheduled', made.group.id],
        ['platformB', 'scheduled', made.group.id],
      ]);
      const { data: replay } = await callOk(client, 'create_post_group', {
        variants: variants(alice, t),
        runAt: made.posts[0].scheduledFor,
        idempotencyKey: `mcp-${t}`,
      });
      expect(replay.group.id).toBe(made.group.id);
      const bad = await callErr(client, 'create_post_group', {
        variants: [{ channelId: bob.a, text: 'Not mine' }],
      });
      expect(bad.error.code).toBe('invalid_request');
      expect(bad.error.details).toEqual([
        { path: 'variants[0].channelId', message: 'No such channel for this account' },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('get_post_group, publish_post_group, cancel_post_group (MCP)', () => {
  it('reads, publishes (once, replayed by its key) and cancels a group through the same verbs', async () => {
    const client = await connectClient(w.t.url, alice.apiKey);
    try {
      const t = tag();
      const { data: made } = await callOk(client, 'create_post_group', { variants: variants(alice, t) });
      const id = made.group.id;
      const { data: read, summary } = await callOk(client, 'get_post_group', { id });
      expect(read).toEqual({ group: made.group, posts: made.posts });
      expect(summary).toContain(made.posts[1].id);

      const { data: published } = await callOk(client, 'publish_post_group', {
        id,
        idempotencyKey: `mcp-${t}`,
      });
      expect(published.refused).toEqual([]);
      expect(published.posts.map((p: any) => [p.platform, p.status, p.groupId])).toEqual([
        ['platformA', 'published', id],
        ['platformB', 'published', id],
      ]);
      const { data: replay } = await callOk(client, 'publish_post_group', { id, idempotencyKey: `mcp-${t}` });
      expect(replay).toEqual(published);
      const onB = w.sandbox.platformB.state
        .listTweets({ authorId: alice.bUserId })
        .filter((x) => x.text.startsWith(t));
      expect(onB).toHaveLength(4);

      // Canceling a published group changes nothing and says why for each post.
      const { data: canceled, summary: said } = await callOk(client, 'cancel_post_group', { id });
      expect(canceled.posts.map((p: any) => p.status)).toEqual(['published', 'published']);
      expect(canceled.refused.map((r: any) => r.code)).toEqual(['post_terminal', 'post_terminal']);
      expect(said).toContain('Not done:');

      const { data: drafts } = await callOk(client, 'create_post_group', {
        variants: variants(alice, tag()),
      });
      const { data: off } = await callOk(client, 'cancel_post_group', { id: drafts.group.id });
      expect(off.posts.map((p: any) => p.status)).toEqual(['canceled', 'canceled']);
      expect(off.refused).toEqual([]);

      // Another account's group is as unknown as a made-up id.
      const bobClient = await connectClient(w.t.url, bob.apiKey);
      try {
        for (const name of ['get_post_group', 'cancel_post_group', 'publish_post_group']) {
          const err = await callErr(bobClient, name, { id });
          expect(err.error.code, name).toBe('not_found');
        }
      } finally {
        await bobClient.close();
      }
    } finally {
      await client.close();
    }
  });
});
