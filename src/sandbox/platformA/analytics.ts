import { restError, sendJson } from '../http.ts';
import { authenticate, memberUrn, requireRestHeaders, requireScope } from './guards.ts';
import type { Exchange, Route } from './lane.ts';
import { QUERY_TYPES, type QueryType } from './state.ts';

/**
 * GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:{urlencoded urn})&queryType=X&aggregation=TOTAL
 * The entity is Rest.li syntax: parentheses and the type's colon stay literal, the URN inside
 * is url-encoded; the sandbox checks the raw query so an encoding mistake shows up.
 */
function analytics(ex: Exchange) {
  requireRestHeaders(ex);
  const token = authenticate(ex);
  requireScope(token, 'r_member_postAnalytics', 'memberCreatorPostAnalytics');
  const raw = (ex.req.url ?? '').split('?')[1] ?? '';
  const q = ex.url.searchParams;
  if (q.get('q') !== 'entity') throw restError(400, 'Unsupported finder; use q=entity');
  const entityRaw = /(?:^|&)entity=([^&]*)/.exec(raw)?.[1] ?? '';
  const match = /^\((share|ugc):(urn%3Ali%3A(share|ugcPost)%3A\d+)\)$/.exec(entityRaw);
  if (!match) {
    throw restError(400, 'entity must be (share:{urlencoded share URN}) or (ugc:{urlencoded ugcPost URN})');
  }
  const [, type, encodedUrn, urnType] = match;
  if ((type === 'share') !== (urnType === 'share'))
    throw restError(400, `entity type ${type} does not match the URN`);
  const queryType = q.get('queryType') as QueryType;
  if (!QUERY_TYPES.includes(queryType))
    throw restError(400, `queryType must be one of ${QUERY_TYPES.join(', ')}`);
  const aggregation = q.get('aggregation') ?? 'TOTAL';
  if (aggregation !== 'TOTAL' && aggregation !== 'DAILY')
    throw restError(400, 'aggregation must be TOTAL or DAILY');
  const urn = decodeURIComponent(encodedUrn!);
  const post = ex.ctx.state.posts.get(urn);
  if (!post || post.deletedAt !== null) throw restError(404, 'Post not found');
  if (post.author !== memberUrn(token.sub))
    throw restError(403, 'Not the author of this post', 'ACCESS_DENIED', 100);
  const count = post.metrics[queryType];
  sendJson(ex.res, 200, {
    paging: { start: 0, count: 10, links: [] },
    elements:
      count === null
        ? []
        : [
            {
              count,
              metricType: {
                'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': queryType,
              },
              targetEntity: { [type === 'share' ? 'share' : 'ugcPost']: urn },
            },
          ],
  });
}

export const analyticsRoutes: Route[] = [
  { method: 'GET', path: /^\/rest\/memberCreatorPostAnalytics$/, name: 'analytics', handle: analytics },
];
