import { errorResponses, IdParams, optionalBody } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { CreateKeyRequest, CreateKeyResult, KeyListResult, RevokeResult } from './keys.schemas.ts';
import {
  createKey,
  issueMemberKey,
  listKeys,
  MAX_LIVE_KEYS_PER_ACCOUNT,
  revokeKey,
  rotateKey,
} from './keys.service.ts';

const tags = ['keys'];

export const keyRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/keys',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List API keys',
        description:
          'Metadata only; secrets are never returned after creation. An owner or admin sees every member’s keys, everyone else their own.',
        response: { 200: KeyListResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ keys: await listKeys({ ctx: request.ctx, input: undefined }) }),
  );

  app.post(
    '/v1/keys',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Create an API key',
        description: `A key of the calling member, acting with its role; the plaintext key is shown once. An account holds at most ${MAX_LIVE_KEYS_PER_ACCOUNT} live keys (409 key_limit_reached): rate budgets are per key.`,
        body: optionalBody(CreateKeyRequest),
        response: { 201: CreateKeyResult, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createKey({ ctx: request.ctx, input: request.body ?? {} })),
  );

  app.post(
    '/v1/members/:id/keys',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Issue a key for a member',
        description:
          'For a member who lost their key: a new key of theirs, acting with their role, shown once. It holds the scopes the member’s role reaches unless `scopes` narrows them. Only an owner issues a key for an owner.',
        params: IdParams,
        body: optionalBody(CreateKeyRequest),
        response: { 201: CreateKeyResult, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await issueMemberKey({ ctx: request.ctx, input: { id: request.params.id, ...request.body } })),
  );

  app.post(
    '/v1/keys/:id/rotate',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Rotate an API key',
        description:
          'Revokes the key and issues a replacement with the same name and member; the new secret is shown once.',
        params: IdParams,
        response: { 201: CreateKeyResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await rotateKey({ ctx: request.ctx, input: request.params })),
  );

  app.delete(
    '/v1/keys/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: IdParams,
        response: { 200: RevokeResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => revokeKey({ ctx: request.ctx, input: request.params }),
  );
};
