import { z } from 'zod';
import { IdParams } from '../../api/schemas.ts';
import {
  ApprovePostRequest,
  RequestChangesRequest,
  SubmitPostRequest,
} from '../../features/approvals/approval.schemas.ts';
import { approvePost, requestChanges, submitPost } from '../../features/approvals/approvals.service.ts';
import type { Post } from '../../features/posts/core/post.schemas.ts';
import { PostResult } from '../../features/posts/core/post.schemas.ts';
import { changes, defineTool, formatWhen, publishes } from '../tool.ts';

const PostId = z.object({ id: IdParams.shape.id.describe('The post id (pst_…)') }).strict();

const REVIEW_WORDS = {
  pending: 'waiting for an owner or admin to approve it',
  approved: 'approved',
  changes_requested: 'sent back with changes asked',
} as const;

/** "pst_1 is approved and scheduled for 12 Jan 2027 14:30 UTC; note: Good." */
const describeReview = (post: Post) => {
  const review = post.approval ? REVIEW_WORDS[post.approval.state] : 'not in review';
  const when =
    post.status === 'scheduled' ? ` and scheduled for ${formatWhen(post.scheduledFor)}` : ` (${post.status})`;
  const note = post.approval?.note ? `; note: ${post.approval.note}` : '';
  return `${post.id} is ${review}${when}${note}.`;
};

/** A post's review (docs/teams.md, "Approvals"): the verbs behind /submit, /approve, /request-changes. */
export const approvalTools = [
  defineTool({
    name: 'submit_post',
    title: 'Submit a post for review',
    description:
      "Asks the workspace's owners and admins to approve a draft (or a scheduled post not yet sent); `runAt` (epoch ms, future, the post needs a channel) is the time wanted, and approving it schedules the post then. Use it when schedule_post or publishing answers approval_required: in a workspace that requires approvals an editor's posts go out only once approved. Submitting a pending post again replaces the time wanted; an approved post fails with already_approved. No quota.",
    input: PostId.extend(SubmitPostRequest.shape),
    output: PostResult,
    annotations: changes(false, true),
    scope: 'write',
    run: async (ctx, input) => ({ post: await submitPost({ ctx, input }) }),
    summarize: ({ post }) => `Post ${describeReview(post)}`,
  }),
  defineTool({
    name: 'approve_post',
    title: 'Approve a post',
    description:
      'An owner or admin approves a post under review, with an optional `note` for its writer. Where the writer asked for a time still ahead, the post is scheduled then and goes out publicly on its channel at that time, where everyone can see it: read it and confirm with the person first. Otherwise it stays an approved draft, for schedule_post. Approving an approved post changes nothing; pass an idempotencyKey when you might retry. No quota.',
    input: PostId.extend(ApprovePostRequest.shape),
    output: PostResult,
    // Open world: an approval schedules the post on its channel's platform.
    annotations: publishes(false, true),
    scope: 'publish',
    role: 'admin',
    idempotentAs: { method: 'POST', url: '/v1/posts/{id}/approve', status: 200 },
    run: async (ctx, input) => ({ post: await approvePost({ ctx, input }) }),
    summarize: ({ post }) => `Post ${describeReview(post)}`,
  }),
  defineTool({
    name: 'request_post_changes',
    title: 'Ask for changes to a post',
    description:
      'An owner or admin sends a post under review back to its writer with a `note` saying what to change (1-2000 characters). The post does not go out until it is submitted again and approved. Fails with not_in_review for a post never submitted. No quota.',
    input: PostId.extend(RequestChangesRequest.shape),
    output: PostResult,
    annotations: changes(false, false),
    scope: 'write',
    role: 'admin',
    run: async (ctx, input) => ({ post: await requestChanges({ ctx, input }) }),
    summarize: ({ post }) => `Post ${describeReview(post)}`,
  }),
];
