import type { Call, Ctx } from '../../context.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Post } from '../posts/core/post.schemas.ts';
import type { PostRow } from '../posts/core/post-row.ts';
import { cancelPost } from '../posts/lifecycle.service.ts';
import { publishNow } from '../posts/publishing/publish-now.service.ts';
import type { PostGroupActionResult, PostGroupRefusal } from './post-groups.schemas.ts';
import { getPostGroup, loadGroup } from './post-groups.service.ts';

/**
 * Runs one post verb on each of `rows` (all at once: each goes to its own channel) and answers
 * the group as it then is. A post the verb refuses is listed with the error its own route would
 * answer; an error that is not the domain's (a bug) is thrown once every post has settled.
 */
async function eachPost(
  ctx: Ctx,
  groupId: string,
  rows: PostRow[],
  verb: (call: Call<{ id: string }>) => Promise<Post>,
): Promise<PostGroupActionResult> {
  const settled = await Promise.allSettled(rows.map((row) => verb({ ctx, input: { id: row.id } })));
  const refused: PostGroupRefusal[] = [];
  for (const [i, outcome] of settled.entries()) {
    if (outcome.status === 'fulfilled') continue;
    if (!(outcome.reason instanceof DomainError)) throw outcome.reason;
    refused.push({ postId: rows[i]!.id, code: outcome.reason.code, message: outcome.reason.message });
  }
  return { ...(await getPostGroup({ ctx, input: { id: groupId } })), refused };
}

/**
 * Cancels every post of the group that has not reached its platform, each as POST
 * /v1/posts/{id}/cancel would; a published or failed post, or one already on its way, stays as
 * it is and is listed in `refused` with the reason.
 */
export async function cancelPostGroup({ ctx, input }: Call<{ id: string }>): Promise<PostGroupActionResult> {
  const { group, rows } = await loadGroup(ctx, input.id);
  return eachPost(ctx, group.id, rows, cancelPost);
}

/**
 * Publishes every post of the group now, each as POST /v1/posts/{id}/publish would and each
 * exactly once. Posts already published are left out, so calling it again after a partial
 * failure publishes only the rest; a post that fails, or cannot be published (canceled), is
 * listed in `refused` with its error.
 */
export async function publishPostGroup({ ctx, input }: Call<{ id: string }>): Promise<PostGroupActionResult> {
  const { group, rows } = await loadGroup(ctx, input.id);
  return eachPost(
    ctx,
    group.id,
    rows.filter((r) => r.status !== 'published'),
    publishNow,
  );
}
