import { z } from 'zod';
import { Post } from '../posts/core/post.schemas.ts';
import { EpochMs, FirstComment, MediaIds, Text, Thread } from '../posts/posts.schemas.ts';

/** Wire shapes of post groups: one composition sent to several channels, a post per channel. */

/** Channels one group may go to at once. */
export const MAX_GROUP_VARIANTS = 20;

export const PostGroupVariant = z
  .object({
    channelId: z.string().min(1).max(64).describe('The channel this variant is published to'),
    text: Text,
    thread: Thread.optional(),
    firstComment: FirstComment.optional(),
    mediaIds: MediaIds.optional(),
  })
  .strict()
  .meta({ id: 'PostGroupVariant' });
export type PostGroupVariant = z.output<typeof PostGroupVariant>;

export const CreatePostGroupRequest = z
  .object({
    variants: z
      .array(PostGroupVariant)
      .min(1)
      .max(MAX_GROUP_VARIANTS)
      .describe("One variant per channel, each checked against its own channel's platform"),
    runAt: EpochMs.optional().describe('Epoch ms in the future: every post is scheduled for this time'),
    queue: z
      .boolean()
      .optional()
      .describe("true: each post takes its own channel's next free queue slot (excludes runAt)"),
  })
  .strict()
  .meta({ id: 'CreatePostGroupRequest' });
export type CreatePostGroupRequest = z.output<typeof CreatePostGroupRequest>;

export const PostGroup = z
  .object({
    id: z.string(),
    postIds: z
      .array(z.string())
      .describe('Its posts in the order of the variants (a deleted post drops out)'),
    createdAt: z.number().int(),
  })
  .meta({ id: 'PostGroup' });
export type PostGroup = z.output<typeof PostGroup>;

/** What one post of a group answered when a group action could not do it. */
export const PostGroupRefusal = z
  .object({
    postId: z.string(),
    code: z.string().describe('The error code the single-post route answers (e.g. post_terminal)'),
    message: z.string(),
  })
  .meta({ id: 'PostGroupRefusal' });
export type PostGroupRefusal = z.output<typeof PostGroupRefusal>;

export const PostGroupResult = z
  .object({
    group: PostGroup,
    posts: z.array(Post).describe('The posts of the group, in the order of postIds'),
  })
  .meta({ id: 'PostGroupResult' });
export type PostGroupResult = z.output<typeof PostGroupResult>;

/** A cancel or publish of a whole group: every post as it now is, and the posts it could not act on. */
export const PostGroupActionResult = PostGroupResult.extend({
  refused: z
    .array(PostGroupRefusal)
    .describe('Posts the action could not be done to, each with the answer its own route gives'),
}).meta({ id: 'PostGroupActionResult' });
export type PostGroupActionResult = z.output<typeof PostGroupActionResult>;
