import { z } from 'zod';
import { ErrorBody, Pagination, PaginationQuery } from '../../api/schemas.ts';
import { PostStatus } from '../../domain/enums.ts';
import {
  defaultPlatformProse,
  firstCommentShapeProse,
  mediaRulesProse,
  threadedPlatformsProse,
  unthreadedPlatformsProse,
} from '../../platforms/profile-prose.ts';
import { MAX_THREAD_PARTS } from '../../platforms/profiles.ts';
import { Repeat, Series } from '../series/series.schemas.ts';
import { ApprovalState, Post } from './core/post.schemas.ts';

const Id = z.string().min(1).max(64);
export const EpochMs = z.number().int().min(0).max(8_640_000_000_000_000);

export const QueueSlotTaken = z
  .object({
    at: z.number().int().describe('Epoch ms of the slot the post took'),
    timezone: z.string(),
    day: z.number().int().describe('ISO weekday of the slot in the queue zone (Monday = 1)'),
    time: z.string().describe('Local time of the slot, HH:MM'),
  })
  .meta({ id: 'QueueSlotTaken' });
export type QueueSlotTaken = z.output<typeof QueueSlotTaken>;

/** PostResult, plus which queue slot a `queue: true` post took and the series a `repeat` started. */
export const CreatePostResult = z
  .object({
    post: Post.describe('The post, or for a series its first occurrence'),
    slot: QueueSlotTaken.optional().describe('With queue: true, the slot the post took'),
    series: Series.optional().describe('With repeat, the series the post opens'),
  })
  .meta({ id: 'CreatePostResult' });
export type CreatePostResult = z.input<typeof CreatePostResult>;

export const PostListResult = z
  .object({ posts: z.array(Post), pagination: Pagination })
  .meta({ id: 'PostListResult' });
/** An error next to the affected post: publish failures embed the post in its resulting state. */
export const PostErrorResult = z
  .object({ error: ErrorBody.shape.error, post: Post })
  .meta({ id: 'PostErrorResult' });

export const Text = z.string().max(100_000).describe('The post text; checked against the platform limit');
export const MediaIds = z
  .array(Id)
  .max(20)
  .describe(`Media of the caller, as the platform takes it (${mediaRulesProse()})`);
export const Thread = z
  .array(z.string().max(100_000))
  .max(MAX_THREAD_PARTS)
  .describe(
    `Only on ${threadedPlatformsProse()}: up to ${MAX_THREAD_PARTS} follow-up parts, each published as a reply to the part before it (on ${unthreadedPlatformsProse()} use firstComment)`,
  );
export const FirstComment = z
  .string()
  .max(100_000)
  .nullable()
  .describe(`Published right after the post: ${firstCommentShapeProse()}`);

export const CreatePostRequest = z
  .object({
    text: Text,
    channelId: Id.nullable().optional(),
    brandId: Id.nullable().optional(),
    platform: z
      .string()
      .min(1)
      .max(32)
      .optional()
      .describe(`Defaults from the channel, otherwise ${defaultPlatformProse()}`),
    mediaIds: MediaIds.optional(),
    thread: Thread.optional(),
    firstComment: FirstComment.optional(),
    runAt: EpochMs.optional().describe('Epoch ms in the future: the post is created already scheduled'),
    queue: z
      .boolean()
      .optional()
      .describe("true: scheduled at the channel's next free queue slot (needs channelId; excludes runAt)"),
    repeat: Repeat.optional().describe(
      'A series: with runAt and `every`, recurring; with queue: true and `minGapDays`, evergreen. Each occurrence is its own post',
    ),
  })
  .strict()
  .meta({ id: 'CreatePostRequest' });
export type CreatePostRequest = z.output<typeof CreatePostRequest>;

export const UpdatePostRequest = z
  .object({
    text: Text.optional(),
    channelId: Id.nullable().optional(),
    platform: z
      .string()
      .min(1)
      .max(32)
      .optional()
      .describe(
        "An extension: the draft's platform. Left out, a draft moved to another channel takes that channel's platform",
      ),
    brandId: Id.nullable().optional(),
    mediaIds: MediaIds.optional(),
    thread: Thread.optional(),
    firstComment: FirstComment.optional(),
  })
  .strict()
  .meta({ id: 'UpdatePostRequest' });
export type UpdatePostRequest = z.output<typeof UpdatePostRequest>;

/**
 * An extension (docs/decisions.md): the parts of a scheduled post that can change before its
 * publish starts. Its channel, brand and time stay (move it with POST /schedule).
 */
export const ReviseScheduledRequest = z
  .object({
    text: Text.optional(),
    mediaIds: MediaIds.optional(),
    thread: Thread.optional(),
    firstComment: FirstComment.optional(),
  })
  .strict()
  .meta({ id: 'ReviseScheduledRequest' });
export type ReviseScheduledRequest = z.output<typeof ReviseScheduledRequest>;

export const SchedulePostRequest = z
  .object({
    runAt: EpochMs.optional().describe('Epoch ms, in the future; required unless queue is true'),
    queue: z
      .boolean()
      .optional()
      .describe(
        "An extension: true instead of runAt, the channel's next free queue slot (as POST /v1/posts)",
      ),
  })
  .strict()
  .meta({ id: 'SchedulePostRequest' });

export const BulkScheduleItem = z
  .object({
    text: Text,
    runAt: EpochMs.optional().describe('Epoch ms, in the future; required unless queue is true'),
    queue: z
      .boolean()
      .optional()
      .describe("true instead of runAt: the channel's next free queue slot, as POST /v1/posts"),
    channelId: Id.nullable().optional(),
    brandId: Id.nullable().optional(),
    platform: z.string().min(1).max(32).optional(),
    mediaIds: MediaIds.optional(),
    thread: Thread.optional(),
    firstComment: FirstComment.optional(),
  })
  .strict()
  .meta({ id: 'BulkScheduleItem' });
export type BulkScheduleItem = z.output<typeof BulkScheduleItem>;

export const MAX_BULK_ITEMS = 100;
export const BulkScheduleRequest = z
  .object({ items: z.array(BulkScheduleItem).min(1).max(MAX_BULK_ITEMS) })
  .strict()
  .meta({ id: 'BulkScheduleRequest' });

export const PostListQuery = PaginationQuery.extend({
  status: PostStatus.optional().describe('Only posts in this state'),
  seriesId: z.string().min(1).max(64).optional().describe('Only the occurrences of this series'),
  groupId: z.string().min(1).max(64).optional().describe('Only the posts of this post group'),
  approval: ApprovalState.optional().describe(
    'Only posts whose review is in this state (`pending`: the approval queue)',
  ),
});
export type PostListQuery = z.output<typeof PostListQuery>;

export const PostScore = z
  .object({
    id: z.string(),
    postId: z.string(),
    score: z.number().int().describe('Rounded overall score'),
    verdict: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()).describe('The full ScoreResult at scoring time'),
    createdAt: z.number().int(),
  })
  .meta({ id: 'PostScore' });
export type PostScore = z.output<typeof PostScore>;

export const PostScoreListResult = z
  .object({ scores: z.array(PostScore) })
  .meta({ id: 'PostScoreListResult' });

export const CalendarEntry = z
  .object({
    postId: z.string(),
    status: PostStatus,
    when: z.number().int().describe('Scheduled time, or published time once published'),
    channelId: z.string().nullable(),
    platform: z.string(),
    preview: z.string().describe('The first characters of the text'),
  })
  .meta({ id: 'CalendarEntry' });
export type CalendarEntry = z.output<typeof CalendarEntry>;
export const CalendarResult = z.object({ calendar: z.array(CalendarEntry) }).meta({ id: 'CalendarResult' });

export const CalendarQuery = z.object({
  from: z.coerce.number().int().min(0).optional().describe('Epoch ms, inclusive'),
  to: z.coerce.number().int().min(0).optional().describe('Epoch ms, exclusive'),
});
