import { CreatePostGroupRequest, PostGroupResult } from '../../features/post-groups/post-groups.schemas.ts';
import { createPostGroup } from '../../features/post-groups/post-groups.service.ts';
import { defineTool, formatWhen, publishes } from '../tool.ts';

/** One composition to several channels: the verb behind POST /v1/post-groups. */
export const postGroupTools = [
  defineTool({
    name: 'create_post_group',
    title: 'Post to several channels',
    description:
      "Creates one post per channel from one composition: `variants` lists each channel (channelId from list_channels) with its own text and optional thread, firstComment and mediaIds, each checked against that channel's platform (a thread only where the platform has threads). With `runAt` (epoch ms, future) every post is scheduled for that time; with `queue: true` each takes its own channel's next free queue slot; with neither they are drafts. All or none: any bad variant fails the call with each problem at its variant (`variants[1].text`) and nothing is created. Scheduled posts go out publicly on each channel's social account, exactly once, where everyone can see them: confirm the texts and time with the person first. Each post carries the group's groupId (list_posts with groupId lists them); cancel one with cancel_post. Pass an idempotencyKey when you might retry, so a retry cannot create the posts twice. No quota.",
    input: CreatePostGroupRequest,
    output: PostGroupResult,
    // Open world: with runAt or queue the posts go out publicly on their channels' platforms.
    annotations: publishes(false, false),
    scope: 'write',
    idempotentAs: { method: 'POST', url: '/v1/post-groups', status: 201 },
    run: (ctx, input) => createPostGroup({ ctx, input }),
    summarize: ({ group, posts }) =>
      `Created post group ${group.id}: ${posts
        .map(
          (p) =>
            `${p.id} (${p.platform}) ${p.status}${p.status === 'scheduled' ? ` for ${formatWhen(p.scheduledFor)}` : ''}`,
        )
        .join('; ')}.`,
  }),
];
