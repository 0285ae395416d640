import { errorResponses, IdParams, optionalBody } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { RevokeResult } from '../keys/keys.schemas.ts';
import { listConnectedApps, revokeConnectedApp } from './apps.service.ts';
import { approveRequest, denyRequest, describeRequest } from './authorize.service.ts';
import {
  ApproveAuthorizationRequest,
  AuthorizationAnswer,
  AuthorizationRequestResult,
  ConnectedAppListResult,
} from './oauth.schemas.ts';

const tags = ['connected apps'];

/** The console's side of OAuth: the consent page's answer, and the apps an account has connected. */
export const connectedAppRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/oauth/requests/:id',
    {
      config: { scope: 'any' },
      schema: {
        tags,
        summary: 'Read an authorization request',
        description:
          'What the consent page shows: the app, where the browser returns, and what each requested scope allows. Requests expire after 10 minutes.',
        params: IdParams,
        response: { 200: AuthorizationRequestResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ request: await describeRequest({ ctx: request.ctx, input: request.params }) }),
  );

  app.post(
    '/v1/oauth/requests/:id/approve',
    {
      // Any key may answer, but it can grant only scopes it holds itself (403 insufficient_scope).
      config: { scope: 'any' },
      schema: {
        tags,
        summary: 'Approve an authorization request',
        description:
          'Connects the app to the calling account with the requested scopes, or fewer. Returns where to send the browser (the redirect URI with a single-use code).',
        params: IdParams,
        body: optionalBody(ApproveAuthorizationRequest),
        response: { 200: AuthorizationAnswer, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) =>
      approveRequest({ ctx: request.ctx, input: { id: request.params.id, scopes: request.body?.scopes } }),
  );

  app.post(
    '/v1/oauth/requests/:id/deny',
    {
      config: { scope: 'any' },
      schema: {
        tags,
        summary: 'Deny an authorization request',
        description: 'Returns where to send the browser (the redirect URI with error=access_denied).',
        params: IdParams,
        response: { 200: AuthorizationAnswer, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => denyRequest({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/v1/oauth/apps',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List connected apps',
        description:
          'Apps (OAuth clients, e.g. AI agents over MCP) members of the workspace approved and did not revoke, with their scopes, last use and who connected them. An owner or admin sees every member’s; anyone else only their own.',
        response: { 200: ConnectedAppListResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ apps: await listConnectedApps({ ctx: request.ctx, input: undefined }) }),
  );

  app.delete(
    '/v1/oauth/apps/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Revoke a connected app',
        description:
          'Ends the authorizations of this app (client id) the caller may end: its tokens stop working at once. A member ends its own; an admin also those of members below owner; an owner all. An app only other members connected is 404 to a member who is not an admin.',
        params: IdParams,
        response: { 200: RevokeResult, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => revokeConnectedApp({ ctx: request.ctx, input: request.params }),
  );
};
