import { accountRoutes } from '../features/account/account.routes.ts';
import { approvalRoutes } from '../features/approvals/approvals.routes.ts';
import { auditRoutes } from '../features/audit/audit.routes.ts';
import { brandRoutes } from '../features/brands/brands.routes.ts';
import { channelRoutes } from '../features/channels/channels.routes.ts';
import { commentRoutes } from '../features/comments/comments.routes.ts';
import type { FeatureRoutes } from '../features/feature-routes.ts';
import { historyRoutes } from '../features/history/history.routes.ts';
import { insightsRoutes } from '../features/insights/insights.routes.ts';
import { intelligenceRoutes } from '../features/intelligence/intelligence.routes.ts';
import { invitationRoutes } from '../features/invitations/invitations.routes.ts';
import { keyRoutes } from '../features/keys/keys.routes.ts';
import { mediaRoutes } from '../features/media/media.routes.ts';
import { memberRoutes } from '../features/members/members.routes.ts';
import { metricsRoutes } from '../features/metrics/metrics.routes.ts';
import { connectedAppRoutes } from '../features/oauth/connected-apps.routes.ts';
import { oauthRoutes } from '../features/oauth/oauth.routes.ts';
import { planRoutes } from '../features/plans/plans.routes.ts';
import { postGroupRoutes } from '../features/post-groups/post-groups.routes.ts';
import { postScoreRoutes } from '../features/posts/post-scores.routes.ts';
import { postRoutes } from '../features/posts/posts.routes.ts';
import { queueRoutes } from '../features/queues/queues.routes.ts';
import { seriesRoutes } from '../features/series/series.routes.ts';
import { sessionRoutes } from '../features/sessions/sessions.routes.ts';
import { systemRoutes } from '../features/system/system.routes.ts';
import { validateRoutes } from '../features/validate/validate.routes.ts';
import { voiceRoutes } from '../features/voices/voices.routes.ts';
import { webhookRoutes } from '../features/webhooks/webhooks.routes.ts';
import { mcpRoutes } from '../mcp/mcp.routes.ts';

/**
 * Every route plugin the API serves, in registration order: each feature's REST routes and the
 * MCP endpoint (src/mcp, whose tools call the same verbs). Composed here, above every folder
 * it names, so a feature never imports the list it is in. Add a new area here.
 */
export const apiRoutes: FeatureRoutes[] = [
  systemRoutes,
  accountRoutes,
  keyRoutes,
  memberRoutes,
  invitationRoutes,
  auditRoutes,
  sessionRoutes,
  webhookRoutes,
  metricsRoutes,
  mediaRoutes,
  postRoutes,
  postGroupRoutes,
  postScoreRoutes,
  commentRoutes,
  approvalRoutes,
  channelRoutes,
  mcpRoutes,
  intelligenceRoutes,
  brandRoutes,
  voiceRoutes,
  validateRoutes,
  historyRoutes,
  insightsRoutes,
  queueRoutes,
  seriesRoutes,
  planRoutes,
  oauthRoutes,
  connectedAppRoutes,
];
