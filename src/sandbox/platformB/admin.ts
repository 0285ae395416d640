import { adminAction, badAdminInput, countOf, routeOf } from '../admin-input.ts';
import { escapeHtml, sendJson } from '../http.ts';
import { PLATFORM_B_ROUTES } from './faults.ts';
import type { Exchange, PlatformBCtx, Route } from './lane.ts';
import type { BMetrics, BTweet } from './state.ts';

/** Fault controls and state for platformB over HTTP, under /_sandbox/platformB (as `sandbox.platformB` in-process). */

const target = (ex: Exchange, b: Record<string, unknown>) =>
  typeof b.accessToken === 'string'
    ? b.accessToken
    : { userId: String(b.userId ?? ex.ctx.state.currentMember) };

function summary(ex: Exchange) {
  const { state, faults } = ex.ctx;
  return {
    members: [...state.members.values()],
    currentMember: state.currentMember,
    posts: state.listTweets({ includeDeleted: true }),
    media: [...state.media.values()].map(({ segments: _, ...m }) => m),
    tokens: [...state.tokens.values()].map((t) => ({ ...t, accessToken: `${t.accessToken.slice(0, 12)}…` })),
    reusedRefreshFamilies: [...state.reusedFamilies],
    calls: Object.fromEntries(state.callCounts),
    ...faults.describe(),
  };
}

const post = (path: string, handle: (ex: Exchange, b: Record<string, unknown>) => unknown) =>
  adminAction<PlatformBCtx>(new RegExp(`^/_sandbox/platformB/${path}$`), handle);

export const adminRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/_sandbox\/platformB\/state$/,
    name: 'admin',
    handle: (ex) => sendJson(ex.res, 200, summary(ex)),
  },
  post('faults', (ex, b) =>
    ex.ctx.faults.inject(routeOf(PLATFORM_B_ROUTES, b.route), {
      status: typeof b.status === 'number' ? b.status : undefined,
      message: typeof b.message === 'string' ? b.message : undefined,
      resetInSeconds: typeof b.resetInSeconds === 'number' ? b.resetInSeconds : undefined,
      drop: b.drop === true,
      times: b.always === true ? Number.POSITIVE_INFINITY : countOf(b.times, 1, 'times'),
      after: countOf(b.after, 0, 'after'),
    }),
  ),
  post('latency', (ex, b) =>
    ex.ctx.faults.latency(countOf(b.ms, 0, 'ms'), routeOf(PLATFORM_B_ROUTES, b.route)),
  ),
  post('rate-limit', (ex, b) =>
    ex.ctx.faults.rateLimitNext(routeOf(PLATFORM_B_ROUTES, b.route ?? 'createTweet'), {
      times: countOf(b.times, 1, 'times'),
      resetInSeconds: countOf(b.resetInSeconds, 1, 'resetInSeconds'),
      after: countOf(b.after, 0, 'after'),
    }),
  ),
  post('duplicates', (ex, b) => ex.ctx.faults.duplicateNext(countOf(b.times, 1, 'times'))),
  post('drop-after-create', (ex, b) =>
    ex.ctx.faults.dropAfterCreate(countOf(b.times, 1, 'times'), countOf(b.after, 0, 'after')),
  ),
  post('media/fail-processing', (ex, b) => ex.ctx.faults.failMediaProcessing(countOf(b.times, 1, 'times'))),
  post('tokens/expire', (ex, b) => ({ expired: ex.ctx.faults.expire(target(ex, b)) })),
  post('tokens/revoke', (ex, b) => ({ revoked: ex.ctx.faults.revoke(target(ex, b)) })),
  post('metrics', (ex, b) => {
    if (typeof b.post !== 'string') throw badAdminInput('post (the post id) is required');
    ex.ctx.state.setMetrics(b.post, (b.counts ?? {}) as Partial<BMetrics>);
  }),
  post('members', (ex, b) =>
    ex.ctx.state.addMember({
      ...(typeof b.name === 'string' ? { name: b.name } : {}),
      ...(typeof b.username === 'string' ? { username: b.username } : {}),
    }),
  ),
  post('members/current', (ex, b) => ex.ctx.state.useMember(String(b.id ?? ''))),
  post('reset', (ex) => ex.ctx.faults.clear()),
];

/** The index page's platformB section: each post with its reply chain (thread parts, first comments) under it. */
export function platformBSection(ctx: PlatformBCtx): string {
  const { state } = ctx;
  const roots = state.listTweets().filter((t) => t.replyTo === null || !state.tweets.get(t.replyTo));
  const item = (t: BTweet, depth: number): string => {
    const author = state.members.get(t.authorId);
    const replies =
      depth < 30
        ? state
            .repliesTo(t.id)
            .map((r) => item(r, depth + 1))
            .join('')
        : '';
    return `<li id="b-${escapeHtml(t.id)}"><span class="muted">${new Date(t.createdAt).toISOString().slice(0, 19).replace('T', ' ')} · @${escapeHtml(author?.username ?? t.authorId)} · <code>${escapeHtml(t.id)}</code>${t.mediaIds.length ? ` · ${t.mediaIds.length} media` : ''}</span><pre>${escapeHtml(t.text)}</pre>${replies ? `<ul>${replies}</ul>` : ''}</li>`;
  };
  const list = roots.map((t) => item(t, 0)).join('');
  return `<h2>platformB posts (${state.listTweets().length})</h2>
<p class="muted">Replies (thread parts and first comments) are nested under the post they answer. State as JSON: <a href="/_sandbox/platformB/state">/_sandbox/platformB/state</a>.</p>
${list ? `<ul>${list}</ul>` : '<p class="muted">Nothing yet.</p>'}`;
}
