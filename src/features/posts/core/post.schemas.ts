import { z } from 'zod';
import { ErrorBody } from '../../../api/schemas.ts';
import { PostStatus } from '../../../domain/enums.ts';
import { threadedPlatformsProse } from '../../../platforms/profile-prose.ts';

/** A post's review (src/features/approvals): its state and who asked and decided. */
export const APPROVAL_STATES = ['pending', 'approved', 'changes_requested'] as const;
export const ApprovalState = z.enum(APPROVAL_STATES).meta({ id: 'ApprovalState' });
export type ApprovalState = z.output<typeof ApprovalState>;

export const PostApproval = z
  .object({
    state: ApprovalState,
    requestedBy: z.string().nullable().describe('The member who asked for the review (mem_…)'),
    requestedAt: z.number().int().nullable(),
    runAt: z
      .number()
      .int()
      .nullable()
      .describe(
        'The time the writer asked for when submitting (epoch ms): approving while it is ahead schedules the post then; null when none was asked for, and approving leaves the post a draft',
      ),
    decidedBy: z
      .string()
      .nullable()
      .describe('The owner or admin who approved it or asked for changes; null while pending'),
    decidedAt: z.number().int().nullable(),
    note: z.string().nullable().describe('The approver’s note (required when asking for changes)'),
  })
  .meta({ id: 'PostApproval' });
export type PostApproval = z.output<typeof PostApproval>;

/** The contract's Post, as every post route answers it (toPost in post-row.ts makes it from a row). */
export const Post = z
  .object({
    id: z.string(),
    accountId: z.string(),
    brandId: z.string().nullable(),
    channelId: z.string().nullable(),
    platform: z.string(),
    status: PostStatus,
    text: z.string(),
    mediaIds: z.array(z.string()),
    scheduledFor: z.number().int().nullable(),
    publishedAt: z.number().int().nullable(),
    platformPostId: z.string().nullable(),
    platformUrl: z.string().nullable(),
    thread: z
      .array(z.string())
      .describe(
        `Follow-up parts (${threadedPlatformsProse()}), each published as a reply to the part before`,
      ),
    firstComment: z.string().nullable().describe('Published right after the post (and its thread)'),
    platformPostIds: z
      .array(z.string())
      .describe('Platform ids of every published part, in order; the first is `platformPostId`'),
    firstCommentId: z.string().nullable().describe('Platform id of the published first comment'),
    error: z.string().nullable().describe('Last publish error'),
    seriesId: z
      .string()
      .nullable()
      .describe('The recurring or evergreen series this post is an occurrence of (GET /v1/series/{id})'),
    groupId: z
      .string()
      .nullable()
      .describe(
        'The post group (one composition sent to several channels) this post is a variant of (GET /v1/post-groups/{id})',
      ),
    approval: PostApproval.nullable().describe(
      'Its review by an owner or admin (POST /v1/posts/{id}/submit); null when it never entered review',
    ),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Post' });
export type Post = z.output<typeof Post>;

export const PostResult = z.object({ post: Post }).meta({ id: 'PostResult' });

/**
 * A conflict on any other post route: the Error schema's single key `error` (CONTRACT.md),
 * holding the post as it is, so the caller sees why without another read.
 */
export const PostConflict = z
  .object({ error: ErrorBody.shape.error.extend({ post: Post }) })
  .meta({ id: 'PostConflict' });
