import type { Call } from '../../context.ts';
import { Conflict } from '../../domain/errors.ts';
import type { Post } from './core/post.schemas.ts';
import { type PostRow, toPost } from './core/post-row.ts';
import { changePost } from './post-changes.ts';
import type { ReviseScheduledRequest } from './posts.schemas.ts';

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
export function reviseScheduled({
  ctx,
  input,
}: Call<{ id: string; changes: ReviseScheduledRequest }>): Promise<Post> {
  return changePost({ ctx, input: { id: input.id, transition: 'revise', changes: input.changes, refusal } });
}
