import { eq } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { posts } from '../../db/schema/index.ts';
import { Conflict } from '../../domain/errors.ts';
import { loadPostRow, type PostRow, toPost } from './post-row.ts';
import { checkOne } from './post-rules.ts';
import type { Post, ReviseScheduledRequest } from './posts.schemas.ts';
import { allows, transitionPost } from './publishing/transitions.ts';

/** Why a post's parts can no longer change, in words about that post. */
function refusal(row: PostRow): Conflict {
  const about = { about: { post: toPost(row) } };
  if (row.status === 'draft')
    return new Conflict('not_scheduled', 'This post is a draft: edit it with PATCH /v1/posts/{id}.', about);
  if (row.status === 'scheduled' || row.status === 'publishing')
    return new Conflict(
      'publish_started',
      'This post can no longer be edited: its publish has started, so the text on its way to the platform is final. Cancel it if nothing was sent yet, or write a copy.',
      about,
    );
  return new Conflict(
    'post_terminal',
    `This post is ${row.status} and can no longer be edited; write a copy of it instead.`,
    about,
  );
}

/**
 * Changes the parts of a scheduled post (text, thread, first comment, media) until its publish
 * starts. The write is the `revise` transition: it applies only while the post is scheduled
 * with nothing sent, in the same statement, so it cannot race the publish sweep's claim; once
 * the claim is taken (or a part went out before a retry) it is refused with 409 publish_started.
 */
export async function reviseScheduled({
  ctx,
  input,
}: Call<{ id: string; changes: ReviseScheduledRequest }>): Promise<Post> {
  const row = await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  if (!allows(row.status, 'revise')) throw refusal(row);
  const { changes } = input;
  const checked = await checkOne(ctx, {
    text: changes.text ?? row.text,
    channelId: row.channelId,
    brandId: row.brandId,
    platform: row.platform,
    mediaIds: changes.mediaIds ?? row.mediaIds,
    thread: changes.thread ?? row.thread,
    firstComment: changes.firstComment === undefined ? row.firstComment : changes.firstComment,
  });
  const [updated] = await transitionPost(ctx.deps.db, 'revise', eq(posts.id, row.id), {
    text: checked.text,
    mediaIds: checked.mediaIds,
    thread: checked.thread,
    firstComment: checked.firstComment,
    updatedAt: ctx.deps.clock.now(),
  });
  if (!updated) throw refusal(await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id));
  return toPost(updated);
}
