import { z } from 'zod';
import { IdParams } from '../../api/schemas.ts';
import { cancelPostGroup, publishPostGroup } from '../../features/post-groups/group-actions.service.ts';
import {
  CreatePostGroupRequest,
  PostGroupActionResult,
  PostGroupResult,
} from '../../features/post-groups/post-groups.schemas.ts';
import { createPostGroup, getPostGroup } from '../../features/post-groups/post-groups.service.ts';
import type { Post } from '../../features/posts/core/post.schemas.ts';
import { changes, defineTool, formatWhen, publishes, readOnly } from '../tool.ts';

const GroupId = z.object({ id: IdParams.shape.id.describe('The post group id (pgr_…)') }).strict();

/** "pst_1 (platformA) scheduled for 12 Jan 2027 14:30 UTC" for each post of a group. */
const describePosts = (posts: Post[]) =>
  posts
    .map(
      (p) =>
        `${p.id} (${p.platform}) ${p.status}${p.status === 'scheduled' ? ` for ${formatWhen(p.scheduledFor)}` : ''}`,
    )
    .join('; ');

/** The posts a group action could not act on, each with its reason; empty when it did them all. */
const describeRefused = (refused: PostGroupActionResult['refused']) =>
  refused.length === 0
    ? ''
    : ` Not done: ${refused.map((r) => `${r.postId} (${r.code}: ${r.message})`).join('; ')}.`;

/** One composition to several channels: the verb behind POST /v1/post-groups. */
export const postGroupTools = [
  defineTool({
    name: 'create_post_group',
    title: 'Post to several channels',
    description:
      "Creates one post per channel from one composition: `variants` lists each channel (channelId from list_channels) with its own text and optional thread, firstComment and mediaIds, each checked against that channel's platform (a thread only where the platform has threads). With `runAt` (epoch ms, future) every post is scheduled for that time; with `queue: true` each takes its own channel's next free queue slot; with neither they are drafts. All or none: any bad variant fails the call with each problem at its variant (`variants[1].text`) and nothing is created. Scheduled posts go out publicly on each channel's social account, exactly once, where everyone can see them: confirm the texts and time with the person first. Each post carries the group's groupId (list_posts with groupId lists them); get_post_group reads them, cancel_post_group or publish_post_group acts on all of them, cancel_post on one. Pass an idempotencyKey when you might retry, so a retry cannot create the posts twice. No quota.",
    input: CreatePostGroupRequest,
    output: PostGroupResult,
    // Open world: with runAt or queue the posts go out publicly on their channels' platforms.
    annotations: publishes(false, false),
    scope: 'write',
    idempotentAs: { method: 'POST', url: '/v1/post-groups', status: 201 },
    run: (ctx, input) => createPostGroup({ ctx, input }),
    summarize: ({ group, posts }) => `Created post group ${group.id}: ${describePosts(posts)}.`,
  }),
  defineTool({
    name: 'get_post_group',
    title: 'Get a post group',
    description:
      'Reads one post group (from create_post_group) with each of its posts as get_post reads them, in the order of its variants: use it to see whether every channel published. Free.',
    input: GroupId,
    output: PostGroupResult,
    annotations: readOnly,
    scope: 'read',
    run: (ctx, input) => getPostGroup({ ctx, input }),
    summarize: ({ group, posts }) => `Post group ${group.id}: ${describePosts(posts)}.`,
  }),
  defineTool({
    name: 'cancel_post_group',
    title: 'Cancel a post group',
    description:
      'Cancels every post of a group that has not reached its platform, each as cancel_post would; a post that is published, failed or already being sent stays as it is and is listed in `refused` with its reason. Canceling again changes nothing. No quota.',
    input: GroupId,
    output: PostGroupActionResult,
    annotations: changes(true, true),
    scope: 'publish',
    run: (ctx, input) => cancelPostGroup({ ctx, input }),
    summarize: ({ group, posts, refused }) =>
      `Post group ${group.id}: ${describePosts(posts)}.${describeRefused(refused)}`,
  }),
  defineTool({
    name: 'publish_post_group',
    title: 'Publish a post group now',
    description:
      "Publishes every post of a group now, each on its own channel's social account, publicly, where everyone can see it, and each exactly once: confirm with the person first. Posts already published are left out, so calling it again after a partial failure publishes only the rest; a post that fails or cannot be published (canceled) is listed in `refused` with its reason. Pass an idempotencyKey so a retry after a timeout replays the first answer. Needs the publish scope. No quota.",
    input: GroupId,
    output: PostGroupActionResult,
    // Open world: the posts go out publicly on their channels' platforms.
    annotations: publishes(false, true),
    scope: 'publish',
    idempotentAs: { method: 'POST', url: '/v1/post-groups/{id}/publish', status: 200 },
    run: (ctx, input) => publishPostGroup({ ctx, input }),
    summarize: ({ group, posts, refused }) =>
      `Post group ${group.id}: ${describePosts(posts)}.${describeRefused(refused)}`,
  }),
];
