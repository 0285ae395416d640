import { mcpRoutes } from '../mcp/mcp.routes.ts';
import { accountRoutes } from './account/account.routes.ts';
import { brandRoutes } from './brands/brands.routes.ts';
import { channelRoutes } from './channels/channels.routes.ts';
import type { FeatureRoutes } from './feature-routes.ts';
import { historyRoutes } from './history/history.routes.ts';
import { insightsRoutes } from './insights/insights.routes.ts';
import { intelligenceRoutes } from './intelligence/intelligence.routes.ts';
import { keyRoutes } from './keys/keys.routes.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { metricsRoutes } from './metrics/metrics.routes.ts';
import { connectedAppRoutes } from './oauth/connected-apps.routes.ts';
import { oauthRoutes } from './oauth/oauth.routes.ts';
import { postScoreRoutes } from './posts/post-scores.routes.ts';
import { postRoutes } from './posts/posts.routes.ts';
import { queueRoutes } from './queues/queues.routes.ts';
import { seriesRoutes } from './series/series.routes.ts';
import { systemRoutes } from './system/system.routes.ts';
import { validateRoutes } from './validate/validate.routes.ts';
import { voiceRoutes } from './voices/voices.routes.ts';
import { webhookRoutes } from './webhooks/webhooks.routes.ts';

export type { FeatureRoutes } from './feature-routes.ts';

/** Every feature's routes, registered in this order by the HTTP app. Add new areas here. */
export const featureRoutes: FeatureRoutes[] = [
  systemRoutes,
  accountRoutes,
  keyRoutes,
  webhookRoutes,
  metricsRoutes,
  mediaRoutes,
  postRoutes,
  postScoreRoutes,
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

  oauthRoutes,
  connectedAppRoutes,
];
