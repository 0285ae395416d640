import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, posts } from '../../src/db/schema/index.ts';
import { csvRecord } from '../../src/features/posts/csv-cells.ts';
import { type Member, type PostWorld, startPostWorld } from './world.ts';

/**
 * A bulk CSV names its channel as a person knows it (issue 33 item 7): the channel's name at the
 * platform (`@alice_desk`, any case, the `@` optional), with its platform in brackets where two
 * platforms share the name, or its id; `?channel=` names the channel of rows that name none. A
 * name the caller has no channel for, another account's included, is a 400 at that row's channel
 * column, listing the caller's own channels; nothing is written. Runs on both backends.
 */
let w: PostWorld;
let alice: Member;
let bob: Member;
const HOUR = 3_600_000;

beforeAll(async () => {
  w = await startPostWorld();
  alice = await w.member();
  bob = await w.member();
  // The sandbox names every member alike: give each account's channel its own name.
  const { db } = w.t.service.deps;
  await db.update(channels).set({ handle: '@alice_desk' }).where(eq(channels.id, alice.channelId));
  await db.update(channels).set({ handle: '@bob_desk' }).where(eq(channels.id, bob.channelId));
});
afterAll(async () => {
  await w?.close();
});

const csvOf = (rows: string[][]) => rows.map((r) => csvRecord(r)).join('');
const csvPost = (m: Member, rows: string[][], query = '') =>
  w.t.request('POST', `/v1/posts/bulk-schedule${query}`, {
    key: m.apiKey,
    raw: csvOf(rows),
    headers: { 'content-type': 'text/csv' },
  });
const countPosts = async (m: Member) =>
  (await w.t.service.deps.db.select().from(posts).where(eq(posts.accountId, m.accountId))).length;
const platformOf = async (m: Member) =>
  (await w.t.request('GET', `/v1/channels/${m.channelId}`, { key: m.apiKey })).body.channel
    .platform as string;

describe('a CSV names its channel by name', () => {
  it('takes the channel’s name in any case, with or without @ or its platform, beside an id', async () => {
    const at = String(w.clock.now() + HOUR);
    const platform = await platformOf(alice);
    const res = await csvPost(alice, [
      ['text', 'runAt', 'channel'],
      ['By name', at, '@alice_desk'],
      ['Without the at sign, other case', at, 'Alice_Desk'],
      ['With its platform', at, `@alice_desk (${platform})`],
      ['By id', at, alice.channelId],
    ]);
    expect(res.status, res.text).toBe(201);
    expect(res.body.posts.map((p: { channelId: string }) => p.channelId)).toEqual(
      Array(4).fill(alice.channelId),
    );
  });

  it('a name the account has no channel for is a 400 at its row, listing the account’s own channels', async () => {
    const before = await countPosts(alice);
    const at = String(w.clock.now() + HOUR);
    const platform = await platformOf(alice);
    const res = await csvPost(alice, [
      ['Text', 'RunAt', 'Channel'],
      ['fine', at, '@alice_desk'],
      ['unknown', at, '@nobody'],
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^1 of 2 rows is invalid; nothing was scheduled/);
    expect(res.body.error.details).toEqual([
      {
        path: 'row 3.Channel',
        message: `No channel of yours is called "@nobody"; write one of your channels: "@alice_desk (${platform})"`,
      },
    ]);
    expect(await countPosts(alice)).toBe(before);
  });

  it('another account’s channel name is not found either, and says nothing of that account', async () => {
    const before = await countPosts(alice);
    const res = await csvPost(alice, [
      ['text', 'runAt', 'handle'],
      ['not mine', String(w.clock.now() + HOUR), '@bob_desk'],
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toHaveLength(1);
    expect(res.body.error.details[0].path).toBe('row 2.handle');
    expect(res.body.error.details[0].message).toMatch(/^No channel of yours is called "@bob_desk"; /);
    expect(res.text).not.toContain(bob.channelId);
    expect(await countPosts(alice)).toBe(before);
    expect(await countPosts(bob)).toBe(0);
  });

  it('?channel= is the channel of rows that name none; another account’s is a 400 at the query', async () => {
    const at = String(w.clock.now() + HOUR);
    const rows = [
      ['text', 'runAt'],
      ['To the default channel', at],
    ];
    const res = await csvPost(alice, rows, '?channel=%40alice_desk');
    expect(res.status, res.text).toBe(201);
    expect(res.body.posts[0].channelId).toBe(alice.channelId);
    const dry = await csvPost(alice, rows, '?dryRun=true&channel=alice_desk');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.valid).toBe(true);

    const before = await countPosts(alice);
    const foreign = await csvPost(alice, rows, '?channel=%40bob_desk');
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details).toEqual([
      {
        path: 'querystring.channel',
        message: expect.stringMatching(/^No channel of yours is called "@bob_desk"; /),
      },
    ]);
    const json = await w.t.request('POST', '/v1/posts/bulk-schedule?channel=alice_desk', {
      key: alice.apiKey,
      body: { items: [{ text: 'JSON', runAt: w.clock.now() + HOUR, channelId: alice.channelId }] },
    });
    expect(json.status).toBe(400);
    expect(json.body.error.details).toEqual([
      { path: 'querystring.channel', message: 'Only with a text/csv body' },
    ]);
    expect(await countPosts(alice)).toBe(before);
  });

  it('a name two platforms share needs its platform, in brackets or in the platform column', async () => {
    const { db, clock } = w.t.service.deps;
    const m = await w.member();
    await db.update(channels).set({ handle: '@twin' }).where(eq(channels.id, m.channelId));
    const platform = await platformOf(m);
    const other = platform === 'platformA' ? 'platformB' : 'platformA';
    // A second channel of the same name on the other platform (no sign-in: only names are read).
    await db.insert(channels).values({
      id: `chn_twin${Date.now()}`,
      accountId: m.accountId,
      platform: other,
      platformUserId: 'twin-b',
      handle: '@twin',
      status: 'connected',
      scopes: [],
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    const at = String(w.clock.now() + HOUR);
    const dry = await csvPost(
      m,
      [
        ['text', 'runAt', 'channel', 'platform'],
        ['Ambiguous', at, '@twin', ''],
        ['In brackets', at, `@twin (${platform})`, ''],
        ['In the platform column', at, '@twin', platform],
      ],
      '?dryRun=true',
    );
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.rows.map((r: { ok: boolean }) => r.ok)).toEqual([false, true, true]);
    const [problem] = dry.body.rows[0].errors;
    expect(problem.path).toBe('row 2.channel');
    expect(problem.message).toMatch(
      /^"@twin" names 2 of your channels \((platformA and platformB|platformB and platformA)\): add the platform in brackets, e\.g\. "@twin \(platform[AB]\)"$/,
    );
    const twin = await db
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.accountId, m.accountId), eq(channels.platform, other)));
    expect(twin).toHaveLength(1);
  });
});
