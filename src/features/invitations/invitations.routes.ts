import type { FastifyReply, FastifyRequest } from 'fastify';
import { spend } from '../../api/rate-limit.ts';
import { DeleteResult, errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { baseUrlOf } from '../oauth/issuer.ts';
import {
  AcceptInvitationRequest,
  AcceptInvitationResult,
  CreateInvitationRequest,
  CreateInvitationResult,
  InvitationListResult,
  InvitationPreviewResult,
  InvitationResult,
  InvitationTokenRequest,
} from './invitations.schemas.ts';
import {
  acceptInvitation,
  createInvitation,
  deleteInvitation,
  getInvitation,
  listInvitations,
  previewInvitation,
} from './invitations.service.ts';

const tags = ['members'];

export const invitationRoutes: FeatureRoutes = async (app, { deps }) => {
  app.post(
    '/v1/invitations',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Invite someone to the workspace',
        description:
          'Returns the invitation and its `acceptUrl`, shown only here: send the link to the person. It works once, for 7 days. A new invitation for the same email replaces a pending one. Only an owner invites an owner.',
        body: CreateInvitationRequest,
        response: { 201: CreateInvitationResult, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await createInvitation({
          ctx: request.ctx,
          input: { ...request.body, baseUrl: baseUrlOf(deps.config, request) },
        }),
      ),
  );

  app.get(
    '/v1/invitations',
    {
      config: { scope: 'read', role: 'admin' },
      schema: {
        tags,
        summary: 'List invitations',
        description: 'Pending and accepted invitations, newest first (links are never shown again).',
        response: { 200: InvitationListResult, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({ invitations: await listInvitations({ ctx: request.ctx, input: undefined }) }),
  );

  app.get(
    '/v1/invitations/:id',
    {
      config: { scope: 'read', role: 'admin' },
      schema: {
        tags,
        summary: 'Get an invitation',
        params: IdParams,
        response: { 200: InvitationResult, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => ({ invitation: await getInvitation({ ctx: request.ctx, input: request.params }) }),
  );

  app.delete(
    '/v1/invitations/:id',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Withdraw an invitation',
        description: 'Its link stops working. Deleting an accepted invitation leaves the member in place.',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => deleteInvitation({ ctx: request.ctx, input: request.params }),
  );

  // The public routes spend a per-IP budget (account creation's limit, one bucket each) before
  // the body is read: tokens are not guessed in bulk, and looking at a link does not use up joining.
  const perAddress =
    (bucket: string, label: string) => async (request: FastifyRequest, reply: FastifyReply) => {
      await spend(
        deps.memory.budgetLeases,
        {
          key: `rl:${bucket}:${request.ip}`,
          limit: deps.config.RATE_LIMIT_SIGNUPS_PER_HOUR,
          windowMs: 3_600_000,
          headerPrefix: 'x-ratelimit',
          label,
        },
        reply,
        request.log,
      );
    };

  app.post(
    '/v1/invitations/preview',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'See an invitation before accepting it',
        description:
          'For the person holding the link: the workspace, who invited them, the role and the email they would join with. The token is sent in the body, as for accepting, so it stays out of URLs and logs. A used link is 409 invitation_used, an expired one 409 invitation_expired, an unknown or withdrawn one 404; none of them tells anything about the workspace. Limited per IP.',
        security: [],
        body: InvitationTokenRequest,
        response: { 200: InvitationPreviewResult, ...errorResponses(400, 404, 409, 429) },
      },
      onRequest: perAddress('invite-preview', 'invitation preview'),
    },
    async (request) => {
      const ctx = { deps, requestId: request.id, log: request.log };
      return { invitation: await previewInvitation({ ctx, input: request.body }) };
    },
  );

  app.post(
    '/v1/invitations/accept',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Accept an invitation',
        description:
          'Joins the workspace with the invitation’s role. Returns the new member and its first API key, shown only here; with `password`, the member can also sign in to the console. The token works once (409 invitation_used) and for 7 days (409 invitation_expired). Limited per IP.',
        security: [],
        body: AcceptInvitationRequest,
        response: { 201: AcceptInvitationResult, ...errorResponses(400, 404, 409, 429) },
      },
      onRequest: perAddress('invite-accept', 'invitation acceptance'),
    },
    async (request, reply) => {
      const ctx = { deps, requestId: request.id, log: request.log };
      return reply.status(201).send(await acceptInvitation({ ctx, input: request.body }));
    },
  );
};
