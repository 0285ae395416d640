import { z } from 'zod';
import { IdParams } from '../../api/schemas.ts';
import { getCalendar } from '../../features/posts/calendar.service.ts';
import { type Post, PostResult } from '../../features/posts/core/post.schemas.ts';
import { cancelPost, schedulePost } from '../../features/posts/lifecycle.service.ts';
import {
  CalendarQuery,
  CalendarResult,
  CreatePostRequest,
  CreatePostResult,
  PostListQuery,
  PostListResult,
  SchedulePostRequest,
} from '../../features/posts/posts.schemas.ts';
import { createPost, getPost, listPosts } from '../../features/posts/posts.service.ts';
import { firstCommentProse, postLimitsProse, threadProse } from '../../platforms/profile-prose.ts';
import { changes, creates, defineTool, formatWhen, plural, publishes, readOnly } from '../tool.ts';

/** The path id of /v1/posts/{id}, as an argument. */
const PostId = z.object({ id: IdParams.shape.id.describe('The post id (pst_…)') }).strict();

const describePost = (post: Post) => {
  const when =
    post.status === 'published'
      ? ` on ${formatWhen(post.publishedAt)}${post.platformUrl ? ` (${post.platformUrl})` : ''}`
      : post.scheduledFor !== null && post.status !== 'draft'
        ? ` for ${formatWhen(post.scheduledFor)}`
        : '';
  const failure = post.error ? `; last error: ${post.error}` : '';
  const total = 1 + post.thread.length + (post.firstComment === null ? 0 : 1);
  // A thread or first comment: how many of its parts are on the platform (ids in platformPostIds, firstCommentId).
  const published = post.platformPostIds.length + (post.firstCommentId === null ? 0 : 1);
  const parts = total > 1 ? `, ${published} of ${total} parts published` : '';
  return `${post.id} (${post.platform}): ${post.status}${when}${parts}${failure}`;
};

export const postTools = [
  defineTool({
    name: 'create_post',
    title: 'Create a post',
    description: `Saves a post to the account: a draft, or an already scheduled post when \`runAt\` (epoch ms in the future) is given together with a \`channelId\` from list_channels. Use it once the text is final (after generate_post or rewrite_post); publishing happens later through schedule_post or the REST API. The text and media must fit the channel’s platform (${postLimitsProse()}) and every brandId, channelId and mediaId must belong to the account. ${threadProse()} and \`firstComment\` (published right after the post: ${firstCommentProse()}) are optional; each part is checked on its own and published exactly once. No model call, no quota. Pass an idempotencyKey when you might retry, so a retry cannot create a second post.`,
    input: CreatePostRequest,
    output: CreatePostResult,
    annotations: creates,
    scope: 'write',
    idempotentAs: { method: 'POST', url: '/v1/posts', status: 201 },
    run: (ctx, input) => createPost({ ctx, input }),
    summarize: ({ post, series }) =>
      `Created post ${describePost(post)}${series ? `, the first of series ${series.id}` : ''}.`,
  }),
  defineTool({
    name: 'schedule_post',
    title: 'Schedule a post',
    description:
      'Schedules a draft for automatic publishing at `runAt` (epoch ms, must be in the future) or, with `queue: true` instead, at the channel’s next free queue slot (queue_empty when it has none), or moves an already scheduled post to a new time (its previous slot is dropped). At that time the post goes out publicly on the channel’s social account, where everyone can see it, so confirm the text and time with the person first. The post needs a channel (set `channelId` when creating it). A background sweep publishes it exactly once. Pass an idempotencyKey so a retry after a timeout cannot schedule it twice. Fails with not_schedulable for posts that are published, failed, canceled or being published. Needs the publish scope. No quota.',
    input: PostId.extend(SchedulePostRequest.shape),
    output: PostResult,
    // Open world: at runAt the post goes out publicly on the channel's platform.
    annotations: publishes(false, true),
    scope: 'publish',
    idempotentAs: { method: 'POST', url: '/v1/posts/{id}/schedule', status: 200 },
    run: async (ctx, input) => ({ post: await schedulePost({ ctx, input }) }),
    summarize: ({ post }) => `Post ${describePost(post)}.`,
  }),
  defineTool({
    name: 'cancel_post',
    title: 'Cancel a post',
    description:
      'Cancels a draft or scheduled post so it is never published (canceling a canceled post changes nothing). Published and failed posts are final (post_terminal), and a post already being sent to the platform cannot be called back (post_publishing). The post stays listed with status canceled. No quota.',
    input: PostId,
    output: PostResult,
    annotations: changes(true, true),
    scope: 'publish',
    run: async (ctx, input) => ({ post: await cancelPost({ ctx, input }) }),
    summarize: ({ post }) => `Post ${describePost(post)}.`,
  }),
  defineTool({
    name: 'list_posts',
    title: 'List posts',
    description:
      "Lists the account's posts, newest first, optionally only one status (draft, scheduled, publishing, published, failed, canceled), one series (seriesId) or one post group (groupId). Pages of `limit` (1-100, default 50) from `offset`; `pagination.hasMore` says whether to fetch the next page. Use it to find post ids or review what is queued. Free.",
    // Strict, unlike a query string: a misspelt `stauts` must fail, not list every post.
    input: PostListQuery.strict(),
    output: PostListResult,
    annotations: readOnly,
    scope: 'read',
    run: (ctx, input) => listPosts({ ctx, input }),
    summarize: ({ posts, pagination }) =>
      `${plural(posts.length, 'post')}${pagination.hasMore ? `; more after offset ${pagination.offset + posts.length}` : ''}.${posts
        .slice(0, 10)
        .map((post) => `\n- ${describePost(post)}`)
        .join('')}`,
  }),
  defineTool({
    name: 'get_post',
    title: 'Get a post',
    description:
      'Reads one post by id: its text, status, schedule, and once published its platform URL, or the last publish error. Use it to check whether a scheduled post went out. Free.',
    input: PostId,
    output: PostResult,
    annotations: readOnly,
    scope: 'read',
    run: async (ctx, input) => ({ post: await getPost({ ctx, input }) }),
    summarize: ({ post }) => `Post ${describePost(post)}.`,
  }),
  defineTool({
    name: 'get_calendar',
    title: 'Get the calendar',
    description:
      'The publishing calendar: scheduled and in-flight posts at their scheduled time and published posts at their published time, chronological, each with a short preview. Optional window `from` (inclusive) and `to` (exclusive), epoch ms. Use it to see gaps before scheduling. Drafts and canceled posts are not on it. Free.',
    input: CalendarQuery.strict(),
    output: CalendarResult,
    annotations: readOnly,
    scope: 'read',
    run: async (ctx, input) => ({ calendar: await getCalendar({ ctx, input }) }),
    summarize: ({ calendar }) =>
      `${plural(calendar.length, 'calendar entry', 'calendar entries')}.${calendar
        .slice(0, 14)
        .map((entry) => `\n- ${formatWhen(entry.when)} ${entry.status} ${entry.postId}: ${entry.preview}`)
        .join('')}`,
  }),
];
