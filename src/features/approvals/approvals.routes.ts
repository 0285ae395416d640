import { errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { PostConflict, PostResult } from '../posts/core/post.schemas.ts';
import { ApprovePostRequest, RequestChangesRequest, SubmitPostRequest } from './approval.schemas.ts';
import { approvePost, requestChanges, submitPost } from './approvals.service.ts';

const tags = ['posts'];

export const approvalRoutes: FeatureRoutes = async (app) => {
  app.post(
    '/v1/posts/:id/submit',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Submit a post for review',
        description:
          'The post (a draft, or a scheduled post not yet on its way) waits for an owner or admin: `approval` becomes `{state: "pending", requestedBy, requestedAt, runAt, decidedBy: null, decidedAt: null, note: null}`, and `post.approval_requested` goes to webhooks. `runAt`, the time wanted, is checked as scheduling checks it (in the future, a channel set); approving schedules the post then. Submitting a pending post again replaces the time wanted. 409 already_approved for an approved post, 409 not_reviewable once the post left draft and scheduled.',
        params: IdParams,
        body: SubmitPostRequest,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      post: await submitPost({ ctx: request.ctx, input: { id: request.params.id, ...request.body } }),
    }),
  );

  app.post(
    '/v1/posts/:id/approve',
    {
      // A replay with the same Idempotency-Key answers the first approval's post (MCP approve_post shares it).
      config: { scope: 'publish', role: 'admin', idempotent: true },
      schema: {
        tags,
        summary: 'Approve a post',
        description:
          'An owner or admin approves the post (`approval.state: "approved"`, `post.approved` to webhooks); where the writer asked for a time still ahead, the post is scheduled then, and a scheduled post sent back for review falls due again. A time already past leaves the post an approved draft, to schedule or publish. Approving an approved post answers it unchanged.',
        params: IdParams,
        body: ApprovePostRequest,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      post: await approvePost({ ctx: request.ctx, input: { id: request.params.id, ...request.body } }),
    }),
  );

  app.post(
    '/v1/posts/:id/request-changes',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Ask for changes to a post',
        description:
          'An owner or admin sends a post under review back to its writer with a `note` (`approval.state: "changes_requested"`, `post.changes_requested` to webhooks). It does not go out until it is submitted and approved again. 409 not_in_review for a post never submitted.',
        params: IdParams,
        body: RequestChangesRequest,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      post: await requestChanges({ ctx: request.ctx, input: { id: request.params.id, ...request.body } }),
    }),
  );
};
