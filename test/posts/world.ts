import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { events, posts } from '../../src/db/schema/index.ts';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/sandbox.ts';
import { type ChannelWorld, connected, startChannelWorld, type TestClock } from '../channels/helpers.ts';
import type { TestApp } from '../helpers/app.ts';
import { sampleFile } from '../media/fixtures.ts';

/**
 * The service and the platformA sandbox on loopback, with media stored in a temporary
 * DATA_DIR. Each `member()` is a new account connected to its own sandbox member, so the
 * sandbox's posts can be counted per account.
 */
export interface PostWorld extends ChannelWorld {
  dataDir: string;
  member(): Promise<Member>;
  close(): Promise<void>;
}

export interface Member {
  apiKey: string;
  accountId: string;
  channelId: string;
  /** The sandbox author URN this account posts as. */
  author: string;
  /** Posts the sandbox holds for this member. */
  platformPosts(): { id: string; text: string; contentKind: string }[];
}

export async function startPostWorld(
  options: {
    env?: Record<string, string | undefined>;
    sandbox?: SandboxOptions;
    /** Reuse a running sandbox and clock (left running on close). */
    shared?: { sandbox: Sandbox; clock: TestClock };
  } = {},
): Promise<PostWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'postkit-posts-'));
  const world = await startChannelWorld({
    sandbox: options.sandbox,
    ...(options.shared ? { shared: options.shared } : {}),
    env: { DATA_DIR: dataDir, ...options.env },
  });
  return {
    ...world,
    dataDir,
    async member() {
      const { apiKey, accountId } = await world.t.signup();
      const sub = world.sandbox.platformA.state.addMember().sub;
      world.sandbox.platformA.state.useMember(sub);
      const channel = await connected(world, apiKey);
      const author = `urn:li:person:${sub}`;
      return {
        apiKey,
        accountId,
        channelId: channel.id,
        author,
        platformPosts: () => world.sandbox.platformA.state.listPosts({ author }),
      };
    },
    async close() {
      await world.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function createPost(t: TestApp, m: Pick<Member, 'apiKey'>, body: Record<string, unknown>) {
  const res = await t.request('POST', '/v1/posts', { key: m.apiKey, body });
  expect(res.status, res.text).toBe(201);
  return res.body.post as { id: string; status: string; [k: string]: unknown };
}

export async function uploadImage(
  t: TestApp,
  m: Pick<Member, 'apiKey'>,
  kind: keyof typeof sampleFile = 'png',
) {
  const types = {
    png: 'image/png',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    mp4: 'video/mp4',
    pdf: 'application/pdf',
  };
  const res = await t.request('POST', '/v1/media', {
    key: m.apiKey,
    raw: sampleFile[kind](2048),
    headers: { 'content-type': types[kind], 'x-filename': `file.${kind}` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.media.id as string;
}

/** The stored row, bookkeeping columns included (tests only). */
export async function postRow(t: TestApp, id: string) {
  const [row] = await t.service.deps.db.select().from(posts).where(eq(posts.id, id));
  return row;
}

export async function eventsOf(t: TestApp, accountId: string) {
  const rows = await t.service.deps.db.select().from(events).where(eq(events.accountId, accountId));
  return rows.map((r) => ({
    type: r.type,
    post: (r.payload as { post?: { id: string; status: string } }).post,
  }));
}

/**
 * Leaves a post as a process that died mid-publish would: claimed by a process that is gone,
 * longer ago than the lease (`leaseMs`), with `createSentAt` as given (null: it died before
 * sending the create) and any other columns the test needs (`extra`, e.g. recorded parts).
 */
export async function crashMidPublish(
  world: { t: TestApp; clock: TestClock },
  id: string,
  options: { leaseMs: number; createSent: boolean; extra?: Partial<typeof posts.$inferInsert> },
) {
  const then = world.clock.now() - options.leaseMs - 1_000;
  await world.t.service.deps.db
    .update(posts)
    .set({
      ...options.extra,
      status: 'publishing',
      claimedAt: then,
      claimedBy: 'dead-process:x',
      createSentAt: options.createSent ? then : null,
      publishAttempts: 1,
    })
    .where(eq(posts.id, id));
}

/**
 * Runs the sweep once with the world's clock just past `retryAt` (a look-up put off by
 * recovery), then moves the clock back: later tests, and the real processes some of them
 * start, keep the wall clock.
 */
export async function runPastBackoff(world: { t: TestApp; clock: TestClock }, retryAt: number) {
  const ahead = retryAt - world.clock.now() + 1;
  world.clock.advance(ahead);
  try {
    await world.t.service.runner!.runOnce();
  } finally {
    world.clock.advance(-ahead);
  }
}
