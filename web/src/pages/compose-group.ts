import { api, ok, type PlatformId, type Post, type Schemas } from '../api.ts';
import { ApiError } from '../lib/errors.ts';
import { variantFieldName } from '../lib/parts.ts';
import { type ComposeFields, type ComposeSession, type SaveAction, submitForReview } from './compose-save.ts';

/**
 * One post to several channels: what Compose holds per channel (a tab) and how it writes them as
 * one post group (POST /v1/post-groups), exactly once. The group's drafts autosave like a single
 * post's: while the tabs' channels stay the same each draft is PATCHed in place; when a channel is
 * added or removed, a new group of drafts is created for the new set (under a new key) and the
 * drafts of the old one are deleted, so the server never holds a draft for a channel the writer
 * took out. Scheduling, queueing and publishing then act on every post of the group.
 */

/** One tab of Compose: a channel and the text written for it. */
export interface ComposeTab {
  /** Stable across renders (React's key), not shown. */
  key: string;
  channelId: string;
  text: string;
  thread: string[];
  firstComment: string;
}

/** A tab as the group create and the drafts' updates take it. */
export interface GroupVariant extends ComposeFields {
  channelId: string;
  platform: PlatformId;
  /** The channel as people know it ("Sandy Sandbox (platformB)"), to name it in an error; not sent. */
  label: string;
}

/** Names each refused field of a group create by its channel and part, in place. */
function nameVariantPaths(err: unknown, variants: GroupVariant[]) {
  if (!(err instanceof ApiError)) return;
  const labels = variants.map((v) => v.label);
  for (const detail of err.details) detail.path = variantFieldName(detail.path ?? '', labels) ?? detail.path;
}

/** The server group this compose session writes to. */
export interface GroupState {
  id: string;
  /** Its posts, in the order of `channels`. */
  postIds: string[];
  channels: string[];
  /** How many groups this session created: each create has its own Idempotency-Key. */
  generation: number;
  /** draft while every post is a draft; done once any was scheduled or published. */
  status: 'draft' | 'done';
}

export type GroupRefusal = Schemas['PostGroupRefusal'];

export const newTabKey = () => crypto.randomUUID();

const sameChannels = (a: string[], b: string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/** Deletes drafts this session no longer writes to; one already gone (or no longer a draft) is left alone. */
export async function dropDrafts(ids: string[]) {
  await Promise.all(
    ids.map((id) =>
      ok(api.DELETE('/v1/posts/{id}', { params: { path: { id } } })).catch((err) => {
        if (!(err instanceof ApiError)) throw err;
      }),
    ),
  );
}

/**
 * Updates the group's drafts in place; null when one of them is gone (deleted elsewhere: Posts,
 * the API), so the caller makes a new group for every tab instead of failing for good.
 */
async function patchDrafts(group: GroupState, variants: GroupVariant[]): Promise<Post[] | null> {
  try {
    return await Promise.all(
      variants.map(async (v, i) => {
        const { platform, label: _name, ...fields } = v;
        const path = { params: { path: { id: group.postIds[i]! } } };
        return (await ok(api.PATCH('/v1/posts/{id}', { ...path, body: { ...fields, platform } }))).post;
      }),
    );
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * Writes every tab of a group: creates the group (drafts, or scheduled at `runAt`, or each at
 * its channel's next free slot) or updates its drafts, then schedules, queues or publishes
 * them. Answers every post as it now is and, for a publish, the posts it could not publish.
 */
export async function writeGroup(
  session: ComposeSession,
  action: SaveAction,
  variants: GroupVariant[],
  runAt: number | null,
): Promise<{ posts: Post[]; refused: GroupRefusal[] }> {
  const channels = variants.map((v) => v.channelId);
  const group = session.group.current;
  const same = group !== null && group.status === 'draft' && sameChannels(group.channels, channels);
  let posts = group && same ? await patchDrafts(group, variants) : null;
  let current: GroupState;
  if (posts && group) current = group;
  else {
    const generation = (group?.generation ?? 0) + 1;
    const body = {
      variants: variants.map(({ channelId, text, thread, firstComment, mediaIds }) => ({
        channelId,
        text,
        thread,
        mediaIds,
        ...(firstComment !== null ? { firstComment } : {}),
      })),
      ...(action === 'schedule' ? { runAt: runAt! } : {}),
      ...(action === 'queue' ? { queue: true } : {}),
    };
    const key = `${session.attemptKey.current}:group-${generation}`;
    const made = await ok(api.POST('/v1/post-groups', { body, headers: { 'idempotency-key': key } })).catch(
      (err) => {
        nameVariantPaths(err, variants);
        throw err;
      },
    );
    // The drafts written before this group (the single post, or the group of other channels) go.
    const old = group
      ? group.postIds
      : session.postId.current && session.status.current === 'draft'
        ? [session.postId.current]
        : [];
    current = { id: made.group.id, postIds: made.group.postIds, channels, generation, status: 'draft' };
    session.group.current = current;
    session.postId.current = null;
    session.status.current = null;
    await dropDrafts(old);
    posts = made.posts;
  }
  let refused: GroupRefusal[] = [];
  const scheduling = action === 'schedule' || action === 'queue';
  if (scheduling) {
    const body = action === 'schedule' ? { runAt: runAt! } : { queue: true };
    // Each post on its own: one channel refusing (no free slot, disconnected) leaves the others
    // scheduled, and the refusal is reported with that post as a group publish reports one.
    const settled = await Promise.allSettled(
      posts.map(async (p) =>
        p.status === 'draft' || (action === 'schedule' && p.scheduledFor !== runAt)
          ? (await ok(api.POST('/v1/posts/{id}/schedule', { params: { path: { id: p.id } }, body }))).post
          : p,
      ),
    );
    const before = posts;
    posts = settled.map((outcome, i) => {
      if (outcome.status === 'fulfilled') return outcome.value;
      if (!(outcome.reason instanceof ApiError)) throw outcome.reason;
      const { code, message } = outcome.reason;
      refused.push({ postId: before[i]!.id, code, message });
      return before[i]!;
    });
    if (refused.length === posts.length) throw (settled[0] as PromiseRejectedResult).reason;
  }
  if (action === 'submit') posts = await Promise.all(posts.map((p) => submitForReview(p.id, runAt)));
  if (action === 'publish') {
    const path = { params: { path: { id: current.id } } };
    const key = `${session.attemptKey.current}:publish-${current.id}`;
    const done = await ok(
      api.POST('/v1/post-groups/{id}/publish', { ...path, headers: { 'idempotency-key': key } }),
    );
    posts = done.posts;
    refused = done.refused;
  }
  if (posts.some((p) => p.status !== 'draft')) current.status = 'done';
  return { posts, refused };
}

/**
 * Back to one channel after a group was saved: the remaining channel's draft of the group becomes
 * the post this session writes to, and the other channels' drafts are deleted.
 */
export async function leaveGroup(session: ComposeSession, channelId: string | null) {
  const group = session.group.current;
  if (group?.status !== 'draft') return;
  const keep = channelId ? group.channels.indexOf(channelId) : -1;
  session.group.current = null;
  session.postId.current = keep >= 0 ? group.postIds[keep]! : null;
  session.status.current = keep >= 0 ? 'draft' : null;
  await dropDrafts(group.postIds.filter((_, i) => i !== keep));
}
