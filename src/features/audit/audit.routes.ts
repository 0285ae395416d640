import { errorResponses } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { AuditListQuery, AuditListResult } from './audit.schemas.ts';
import { listAudit } from './audit.service.ts';

export const auditRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/audit',
    {
      config: { scope: 'read', role: 'admin' },
      schema: {
        tags: ['members'],
        summary: 'The workspace’s audit trail',
        description:
          'What members did, newest first: keys created and revoked; members invited, joined, changed and removed; channels connected and disconnected; posts scheduled, published, canceled, approved and sent back; webhooks created and deleted; settings changed. Owners and admins only.',
        querystring: AuditListQuery,
        response: { 200: AuditListResult, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => listAudit({ ctx: request.ctx, input: request.query }),
  );
};
