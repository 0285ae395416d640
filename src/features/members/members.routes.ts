import { DeleteResult, errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { ChangeRoleRequest, MemberListResult, MemberResult } from './members.schemas.ts';
import { changeMemberRole, listMembers, removeMember } from './members.service.ts';

const tags = ['members'];

export const memberRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/members',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List the workspace’s members',
        description: 'Everyone in the workspace with their role, oldest first.',
        response: { 200: MemberListResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ members: await listMembers({ ctx: request.ctx, input: undefined }) }),
  );

  app.patch(
    '/v1/members/:id',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Change a member’s role',
        description:
          'Admins change members below owner; only an owner changes an owner or makes one. The last owner cannot be demoted (409 last_owner). The member’s keys act with the new role from their next request.',
        params: IdParams,
        body: ChangeRoleRequest,
        response: { 200: MemberResult, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => ({
      member: await changeMemberRole({
        ctx: request.ctx,
        input: { id: request.params.id, role: request.body.role },
      }),
    }),
  );

  app.delete(
    '/v1/members/:id',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Remove a member',
        description:
          'The member’s API keys, sessions and connected apps stop working at once, in every process. Only an owner removes an owner; the last owner cannot be removed (409 last_owner).',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request) => removeMember({ ctx: request.ctx, input: request.params }),
  );
};
