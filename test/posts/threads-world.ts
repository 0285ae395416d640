import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { events, posts } from '../../src/db/schema/index.ts';
import type { BTweet } from '../../src/sandbox/platformB/index.ts';
import type { SandboxOptions } from '../../src/sandbox/sandbox.ts';
import { type ChannelWorld, connected } from '../channels/helpers.ts';
import { connectedB, startWorldB } from '../platforms/platformB-world.ts';

/**
 * Both platforms against one sandbox on loopback (the service speaks to it over real HTTP),
 * with helpers to connect a member of each platform and read a thread back from the sandbox.
 */
export interface ThreadWorld extends ChannelWorld {
  dataDir: string;
  memberB(): Promise<MemberB>;
  memberA(): Promise<MemberA>;
}

export interface MemberB {
  apiKey: string;
  accountId: string;
  channelId: string;
  userId: string;
  /** The member's live platformB posts with this text. */
  tweets(text: string): BTweet[];
}

export interface MemberA {
  apiKey: string;
  accountId: string;
  channelId: string;
  author: string;
}

export async function startThreadWorld(
  options: { env?: Record<string, string>; sandbox?: SandboxOptions } = {},
): Promise<ThreadWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'postkit-threads-'));
  const world = await startWorldB({ sandbox: options.sandbox, env: { DATA_DIR: dataDir, ...options.env } });
  const state = world.sandbox.platformB.state;
  return {
    ...world,
    dataDir,
    async memberB() {
      const { apiKey, accountId } = await world.t.signup();
      state.useMember(state.addMember().id);
      const channel = await connectedB(world, apiKey);
      const userId = channel.platformUserId;
      return {
        apiKey,
        accountId,
        channelId: channel.id,
        userId,
        tweets: (text) => state.listTweets({ authorId: userId }).filter((t) => t.text === text),
      };
    },
    async memberA() {
      const { apiKey, accountId } = await world.t.signup();
      const sub = world.sandbox.platformA.state.addMember().sub;
      world.sandbox.platformA.state.useMember(sub);
      const channel = await connected(world, apiKey);
      return { apiKey, accountId, channelId: channel.id, author: `urn:li:person:${sub}` };
    },
    async close() {
      await world.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The texts of a thread of `n` follow-up parts, unique per test run. */
export const threadTexts = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${tag}: part ${i + 2} of the thread`);

/**
 * Checks on the sandbox that every part exists exactly once, each thread part replying to the
 * part before it (and the first comment, if any, to the last part), with the ids the post lists.
 */
export function expectChainOnPlatform(
  m: MemberB,
  post: { text: string; thread: string[]; firstComment: string | null; platformPostIds: string[] },
  firstCommentId: string | null,
) {
  const texts = [post.text, ...post.thread];
  const ids = texts.map((text) => {
    const found = m.tweets(text);
    expect(found, `"${text}" on the platform`).toHaveLength(1);
    return found[0]!;
  });
  expect(post.platformPostIds).toEqual(ids.map((t) => t.id));
  expect(ids[0]!.replyTo).toBeNull();
  for (let i = 1; i < ids.length; i++) expect(ids[i]!.replyTo, `part ${i + 1}`).toBe(ids[i - 1]!.id);
  if (post.firstComment !== null) {
    const comment = m.tweets(post.firstComment);
    expect(comment).toHaveLength(1);
    expect(comment[0]!.id).toBe(firstCommentId);
    expect(comment[0]!.replyTo).toBe(ids[ids.length - 1]!.id);
  }
}

/** The stored row, bookkeeping columns included. */
export async function threadRow(world: ChannelWorld, id: string) {
  const [row] = await world.t.service.deps.db.select().from(posts).where(eq(posts.id, id));
  return row!;
}

/** The `data.post` of each event of an account, oldest first (what webhook receivers get). */
export async function postEvents(world: ChannelWorld, accountId: string) {
  const rows = await world.t.service.deps.db.select().from(events).where(eq(events.accountId, accountId));
  return rows
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((r) => ({ type: r.type, post: (r.payload as { post: Record<string, any> }).post }));
}
