import { PlatformError, type PostMetrics } from '../platform.ts';
import { sendExpecting, withRetries } from './http.ts';
import { type ResolvedOptions, restHeaders } from './options.ts';

/** One memberCreatorPostAnalytics call per metric; likes = REACTION (no like/reaction split). */
const QUERIES: [keyof PostMetrics, string][] = [
  ['impressions', 'IMPRESSION'],
  ['likes', 'REACTION'],
  ['comments', 'COMMENT'],
  ['shares', 'RESHARE'],
  ['clicks', 'LINK_CLICKS'],
];

/** The analytics entity: `share:` for share URNs, `ugc:` for ugcPost URNs, URN url-encoded. */
export function analyticsEntity(platformPostId: string): string {
  const type = platformPostId.startsWith('urn:li:share:')
    ? 'share'
    : platformPostId.startsWith('urn:li:ugcPost:')
      ? 'ugc'
      : null;
  if (!type)
    throw new PlatformError('bad_request', `Not a platformA post id: ${platformPostId.slice(0, 80)}.`);
  return `(${type}:${encodeURIComponent(platformPostId)})`;
}

export async function metrics(
  opts: ResolvedOptions,
  input: { accessToken: string; platformPostId: string },
): Promise<PostMetrics> {
  const entity = analyticsEntity(input.platformPostId);
  const out: PostMetrics = { impressions: null, likes: null, comments: null, shares: null, clicks: null };
  for (const [field, queryType] of QUERIES) {
    const answer = await withRetries(opts.retry, () =>
      sendExpecting(
        {
          kind: 'read',
          what: `read the post's ${queryType} count`,
          method: 'GET',
          // Built by hand: Rest.li wants the entity's parentheses and colon unencoded.
          url: `${opts.apiUrl}/rest/memberCreatorPostAnalytics?q=entity&entity=${entity}&queryType=${queryType}&aggregation=TOTAL`,
          headers: restHeaders(opts, input.accessToken),
          timeoutMs: opts.requestTimeoutMs,
          secrets: [input.accessToken],
        },
        [200],
      ),
    );
    out[field] = totalCount(answer.json);
  }
  return out;
}

/** Empty `elements` means "no data": null, never 0. */
function totalCount(json: unknown): number | null {
  const elements = (json as { elements?: unknown } | null)?.elements;
  if (!Array.isArray(elements)) return null;
  let total: number | null = null;
  for (const el of elements) {
    const count = (el as { count?: unknown } | null)?.count;
    if (typeof count === 'number' && Number.isFinite(count)) total = (total ?? 0) + count;
  }
  return total;
}
