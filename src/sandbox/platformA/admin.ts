import { adminAction, badAdminInput, countOf, routeOf } from '../admin-input.ts';
import { escapeHtml, sendJson } from '../http.ts';
import { PLATFORM_A_ROUTES } from './faults.ts';
import type { Exchange, PlatformACtx, Route } from './lane.ts';
import { postView } from './posts.ts';
import { type APost, type MetricCounts, QUERY_TYPES } from './state.ts';

/**
 * Fault controls and state for platformA over HTTP, under /_sandbox/platformA (the same operations
 * as `sandbox.platformA` in-process), and its section of the index page. Unauthenticated: the
 * sandbox is a local test tool. The same endpoints also answer without `platformA/`
 * (`/_sandbox/state`, `/_sandbox/faults`, ...): the paths docs/sandbox.md gave before every
 * platform had its own prefix, kept so scripts written against them go on working.
 */

const ADMIN = '^/_sandbox/(?:platformA/)?';

function tokenTarget(b: Record<string, unknown>, ex: Exchange): string | { sub: string } {
  if (typeof b.accessToken === 'string') return b.accessToken;
  return { sub: typeof b.sub === 'string' ? b.sub : ex.ctx.state.currentMember };
}

function summary(ex: Exchange) {
  const { state, faults } = ex.ctx;
  const calls = Object.fromEntries(state.callCounts);
  return {
    members: [...state.members.values()],
    currentMember: state.currentMember,
    posts: state.listPosts({ includeDeleted: true }).map(adminPost),
    assets: [...state.assets.values()].map((a) => ({
      id: a.id,
      kind: a.kind,
      owner: a.owner,
      status: a.status,
      size: a.size,
      sha256: a.sha256,
    })),
    // Token values are shown only by their first characters.
    tokens: [...state.tokens.values()].map((t) => ({
      token: `${t.accessToken.slice(0, 12)}…`,
      sub: t.sub,
      scopes: t.scopes,
      expiresAt: t.expiresAt,
      revoked: t.revoked,
      hasRefreshToken: t.refreshToken !== null,
    })),
    comments: [...state.comments.values()],
    calls,
    ...faults.describe(),
  };
}

/** A post's comments (its first comment, usually), oldest first, for the index page. */
function commentsHtml(ctx: PlatformACtx, postUrn: string): string {
  const items = [...ctx.state.comments.values()]
    .filter((c) => c.postUrn === postUrn)
    .sort((a, b) => a.createdAt - b.createdAt)
    .map(
      (c) =>
        `<li><span class="muted">comment <code>${escapeHtml(c.id)}</code></span><pre>${escapeHtml(c.text)}</pre></li>`,
    )
    .join('');
  return items ? `<ul>${items}</ul>` : '';
}

const adminPost = (p: APost) => ({
  ...postView(p),
  text: p.text,
  contentKind: p.contentKind,
  mediaIds: p.mediaIds,
  metrics: p.metrics,
  deletedAt: p.deletedAt,
});

function counts(v: unknown): Partial<MetricCounts> {
  if (!v || typeof v !== 'object')
    throw badAdminInput('counts must be an object like {"IMPRESSION": 10, "LINK_CLICKS": null}');
  const out: Partial<MetricCounts> = {};
  for (const [k, n] of Object.entries(v)) {
    if (!(QUERY_TYPES as readonly string[]).includes(k)) throw badAdminInput(`unknown metric ${k}`);
    if (n !== null && (typeof n !== 'number' || !Number.isInteger(n) || n < 0))
      throw badAdminInput(`${k} must be a count or null`);
    out[k as keyof MetricCounts] = n as number | null;
  }
  return out;
}

const post = (path: string, handle: (ex: Exchange, b: Record<string, unknown>) => unknown) =>
  adminAction<PlatformACtx>(new RegExp(`${ADMIN}${path}$`), handle);

/** The index page's platformA section: each post with its comments. */
export function platformASection(ctx: PlatformACtx): string {
  const { state, baseUrl } = ctx;
  const rows = state
    .listPosts()
    .map((p) => {
      const author = state.members.get(p.author.replace('urn:li:person:', ''));
      return `<tr id="${escapeHtml(p.id)}"><td>${new Date(p.createdAt).toISOString().replace('T', ' ').slice(0, 19)}</td>
<td>${escapeHtml(author?.name ?? p.author)}</td><td><pre>${escapeHtml(p.text)}</pre>${commentsHtml(ctx, p.id)}</td>
<td>${escapeHtml(p.contentKind)}${p.mediaIds.length ? `<br><span class="muted">${p.mediaIds.map(escapeHtml).join('<br>')}</span>` : ''}</td>
<td><code>${escapeHtml(p.id)}</code></td></tr>`;
    })
    .join('');
  return `<h2>platformA posts (${state.listPosts().length})</h2>
<p class="muted">Postkit reaches it with <code>PLATFORMA_AUTH_URL=${escapeHtml(baseUrl)}/oauth/v2</code> and
<code>PLATFORMA_API_URL=${escapeHtml(baseUrl)}</code> (client id <code>${escapeHtml(ctx.settings.clientId)}</code>).
State as JSON: <a href="/_sandbox/platformA/state">/_sandbox/platformA/state</a>.</p>
${rows ? `<table><tr><th>UTC</th><th>Author</th><th>Text</th><th>Content</th><th>Id</th></tr>${rows}</table>` : '<p class="muted">Nothing yet. Publish a post from Postkit and it appears here (the page refreshes every 5 s).</p>'}`;
}

export const adminRoutes: Route[] = [
  {
    method: 'GET',
    path: new RegExp(`${ADMIN}state$`),
    name: 'admin',
    handle: (ex) => sendJson(ex.res, 200, summary(ex)),
  },
  {
    method: 'GET',
    path: new RegExp(`${ADMIN}posts$`),
    name: 'admin',
    handle: (ex) =>
      sendJson(ex.res, 200, { posts: ex.ctx.state.listPosts({ includeDeleted: true }).map(adminPost) }),
  },
  post('faults', (ex, b) => {
    const route = routeOf(PLATFORM_A_ROUTES, b.route);
    ex.ctx.faults.inject(route, {
      status: typeof b.status === 'number' ? b.status : undefined,
      code: typeof b.code === 'string' ? b.code : undefined,
      message: typeof b.message === 'string' ? b.message : undefined,
      drop: b.drop === true,
      times: b.always === true ? Number.POSITIVE_INFINITY : countOf(b.times, 1, 'times'),
      after: countOf(b.after, 0, 'after'),
    });
  }),
  post('latency', (ex, b) =>
    ex.ctx.faults.latency(countOf(b.ms, 0, 'ms'), routeOf(PLATFORM_A_ROUTES, b.route)),
  ),
  post('drop-after-create', (ex, b) => ex.ctx.faults.dropAfterCreate(countOf(b.times, 1, 'times'))),
  post('duplicates', (ex, b) => ex.ctx.faults.duplicateNext(countOf(b.times, 1, 'times'))),
  post('tokens/revoke', (ex, b) => ({ revoked: ex.ctx.faults.revoke(tokenTarget(b, ex)) })),
  post('tokens/expire', (ex, b) => ({
    expired: ex.ctx.faults.expire(tokenTarget(b, ex), { refresh: b.refresh === true }),
  })),
  post('versions/retire', (ex, b) => {
    if (typeof b.version !== 'string') throw badAdminInput('version (YYYYMM) is required');
    ex.ctx.faults.retireVersion(b.version);
  }),
  post('videos/fail-processing', (ex, b) => ex.ctx.faults.failVideoProcessing(countOf(b.times, 1, 'times'))),
  post('author-finder', (ex, b) => {
    ex.ctx.faults.authorFinderRestricted = b.restricted === true;
  }),
  post('metrics', (ex, b) => {
    if (typeof b.post !== 'string') throw badAdminInput('post (the post URN) is required');
    ex.ctx.state.setMetrics(b.post, counts(b.counts));
  }),
  post('members', (ex, b) => {
    const fields = ['sub', 'name', 'givenName', 'familyName', 'email', 'picture'] as const;
    const input: Record<string, string> = {};
    for (const f of fields) {
      if (b[f] === undefined) continue;
      if (typeof b[f] !== 'string' || b[f] === '') throw badAdminInput(`${f} must be a non-empty string`);
      input[f] = b[f];
    }
    return ex.ctx.state.addMember(input);
  }),
  post('members/current', (ex, b) => ex.ctx.state.useMember(String(b.sub ?? ''))),
  post('reset', (ex) => ex.ctx.faults.clear()),
];
