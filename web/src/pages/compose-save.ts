import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { api, ok, type PlatformId, type Post } from '../api.ts';
import { ApiError } from '../lib/errors.ts';
import {
  type GroupRefusal,
  type GroupState,
  type GroupVariant,
  leaveGroup,
  writeGroup,
} from './compose-group.ts';

/** `submit`: saved as a draft, then submitted for review with the time wanted (approvals required). */
export type SaveAction = 'draft' | 'schedule' | 'queue' | 'publish' | 'submit' | 'autosave';

/** What Compose saves: the post's parts as the platform takes them (lib/parts.ts partsToSend). */
export interface ComposeFields {
  text: string;
  channelId: string | null;
  mediaIds: string[];
  thread: string[];
  firstComment: string | null;
}

/** A fresh key for one attempt at a post: every create and publish of that attempt carries it. */
export function newAttemptKey(): string {
  return `console-${crypto.randomUUID()}`;
}

/**
 * One compose session's writes, exactly once. The session holds the server post it writes to
 * (`postId`: the draft being edited, or the one the first save created) and one Idempotency-Key
 * per attempt, sent with the create and the publish, so a retried or replayed call creates and
 * publishes nothing twice. Every write (autosave, Save draft, Schedule, Publish now) runs one
 * after another through `chain`, so a click during an autosave finds the post that autosave
 * created instead of creating a second; a click while an action is in flight is ignored.
 * A failed publish answers with the failed post, which is returned so its reason shows.
 */
export function useSavePost({
  session,
  fields,
  platform,
  group = null,
  brandId = null,
  runAt,
  onSaved,
  onConflict,
}: {
  session: ComposeSession;
  fields: ComposeFields;
  platform: PlatformId;
  /** Several channels (Compose's tabs): every tab, written as one post group (compose-group.ts). */
  group?: GroupVariant[] | null;
  /** The brand a new post is created under (a copy keeps its original's). */
  brandId?: string | null;
  runAt: number | null;
  /** Called with the fields' JSON as saved, to tell later edits from what the server holds. */
  onSaved: (post: Post, action: SaveAction, saved: string, group: SavedGroup | null) => void;
  /** The post moved on elsewhere (published, scheduled, deleted): what it is now, or null when gone. */
  onConflict: (post: Post | null) => void;
}) {
  const queryClient = useQueryClient();
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const mutation = useMutation({
    mutationFn: (action: SaveAction) => {
      const saved = group ? groupJson(group) : savedJson(fields, platform);
      const variants = group;
      const run = chain.current
        .catch(() => {})
        .then(async (): Promise<SaveResult> => {
          if (variants) {
            const written = await writeGroup(session, action, variants, runAt);
            return { post: written.posts[0]!, saved, group: written };
          }
          await leaveGroup(session, fields.channelId);
          return { post: await write(session, action, fields, platform, brandId, runAt), saved, group: null };
        });
      chain.current = run;
      return run;
    },
    onError: (err) => {
      if (!(err instanceof ApiError)) return;
      // The draft this session wrote to was published, scheduled or deleted in another tab or by the API.
      const moved = ['not_draft', 'publish_started', 'post_terminal'].includes(err.code);
      if (err.status === 409 && moved && err.post) onConflict(err.post as Post);
      if (err.status === 404 && session.postId.current) {
        session.postId.current = null;
        session.status.current = null;
        session.attemptKey.current = newAttemptKey();
        onConflict(null);
      }
    },
    onSuccess: ({ post, saved, group: written }, action) => {
      onSaved(post, action, saved, written);
      queryClient.invalidateQueries({ queryKey: ['posts'] });
      queryClient.invalidateQueries({ queryKey: ['calendar'] });
      queryClient.invalidateQueries({ queryKey: ['queue'] });
      // The review line under the editor (PostReviewById) reads the post again: an edit or a
      // submission changes its review.
      queryClient.invalidateQueries({ queryKey: ['post', post.id, 'review'] });
    },
  });
  return mutation;
}

/** A group's posts as the last write left them, and the posts a publish could not do. */
export interface SavedGroup {
  posts: Post[];
  refused: GroupRefusal[];
}

export interface SaveResult {
  /** The post written (a group's first post). */
  post: Post;
  saved: string;
  group: SavedGroup | null;
}

/** What the server holds of a group once saved: every tab's fields and platform. */
export const groupJson = (variants: GroupVariant[]) => JSON.stringify(variants);

/** What the server holds of a post once saved: the fields and the platform, to tell later edits. */
export const savedJson = (fields: ComposeFields, platform: PlatformId) =>
  JSON.stringify({ ...fields, platform });

/** Where a compose session writes: mutable refs, read at the moment a write runs. */
export interface ComposeSession {
  /** The server post this session writes to; null until the first save creates it. */
  postId: { current: string | null };
  /** The status that post had when last seen (a draft is PATCHed; a scheduled post is moved). */
  status: { current: string | null };
  attemptKey: { current: string };
  /** The post group this session writes to once it is for several channels (compose-group.ts). */
  group: { current: GroupState | null };
}

/** Submits a saved draft for review, with the time wanted when one is set (the approver schedules it then). */
export async function submitForReview(id: string, runAt: number | null): Promise<Post> {
  const body = runAt === null ? {} : { runAt };
  return (await ok(api.POST('/v1/posts/{id}/submit', { params: { path: { id } }, body }))).post;
}

async function write(
  session: ComposeSession,
  action: SaveAction,
  fields: ComposeFields,
  platform: PlatformId,
  brandId: string | null,
  runAt: number | null,
): Promise<Post> {
  const key = session.attemptKey.current;
  let post: Post;
  const id = session.postId.current;
  if (id && session.status.current === 'draft') {
    const path = { params: { path: { id } } };
    // The platform goes too: it follows the channel, or the picker while there is none.
    post = (await ok(api.PATCH('/v1/posts/{id}', { ...path, body: { ...fields, platform } }))).post;
  } else if (id && session.status.current === 'scheduled') {
    // Until its publish starts (409 publish_started after), an extension of the contract's PATCH.
    const { channelId: _sameChannel, ...parts } = fields;
    const path = { params: { path: { id } } };
    post = (await ok(api.PATCH('/v1/posts/{id}/scheduled', { ...path, body: parts }))).post;
  } else if (id) {
    post = (await ok(api.GET('/v1/posts/{id}', { params: { path: { id } } }))).post;
  } else {
    const body = {
      ...fields,
      platform,
      ...(brandId ? { brandId } : {}),
      ...(action === 'schedule' ? { runAt: runAt! } : {}),
      ...(action === 'queue' ? { queue: true } : {}),
    };
    post = (await ok(api.POST('/v1/posts', { body, headers: { 'idempotency-key': `${key}:create` } }))).post;
  }
  session.postId.current = post.id;
  session.status.current = post.status;
  if (action === 'schedule' && (post.status !== 'scheduled' || post.scheduledFor !== runAt)) {
    const body = { runAt: runAt! };
    post = (await ok(api.POST('/v1/posts/{id}/schedule', { params: { path: { id: post.id } }, body }))).post;
  }
  if (action === 'queue' && post.status === 'draft') {
    // The channel's next free slot, chosen by the API under the queue's lock.
    const body = { queue: true };
    post = (await ok(api.POST('/v1/posts/{id}/schedule', { params: { path: { id: post.id } }, body }))).post;
  }
  if (action === 'submit') post = await submitForReview(post.id, runAt);
  if (action === 'publish') {
    try {
      post = (
        await ok(
          api.POST('/v1/posts/{id}/publish', {
            params: { path: { id: post.id } },
            headers: { 'idempotency-key': `${key}:publish` },
          }),
        )
      ).post;
    } catch (err) {
      // publish_failed / channel_revoked carry the failed post: show its reason, not a bare error.
      if (err instanceof ApiError && err.post) post = err.post as Post;
      else throw err;
    }
  }
  session.status.current = post.status;
  return post;
}
