import { type Exchange, escapeHtml, HttpError, type Route, readBody, sendJson } from '../http.ts';
import { PLATFORM_B_ROUTES, type PlatformBRoute } from './faults.ts';
import type { BMetrics, BTweet } from './state.ts';

/** Fault controls and state for platformB over HTTP, under /_sandbox/platformB (as `sandbox.platformB` in-process). */

const bad = (message: string) => new HttpError(400, { error: message });

async function body(ex: Exchange): Promise<Record<string, unknown>> {
  const raw = (await readBody(ex.req)).toString('utf8').trim();
  if (raw === '') return {};
  try {
    const parsed = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {}
  throw bad('Send a JSON object');
}

const int = (v: unknown, fallback: number, name: string) => {
  if (v === undefined) return fallback;
  if (v === 'always') return Number.POSITIVE_INFINITY;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw bad(`${name} must be a non-negative integer`);
  return v;
};

const routeOf = (v: unknown): PlatformBRoute | '*' => {
  if (v === undefined || v === '*') return '*';
  if (typeof v === 'string' && (PLATFORM_B_ROUTES as readonly string[]).includes(v))
    return v as PlatformBRoute;
  throw bad(`route must be '*' or one of ${PLATFORM_B_ROUTES.join(', ')}`);
};

const target = (ex: Exchange, b: Record<string, unknown>) =>
  typeof b.accessToken === 'string'
    ? b.accessToken
    : { userId: String(b.userId ?? ex.ctx.platformB.state.currentMember) };

function summary(ex: Exchange) {
  const { state, faults } = ex.ctx.platformB;
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

const post = (path: string, handle: (ex: Exchange, b: Record<string, unknown>) => unknown): Route => ({
  method: 'POST',
  path: new RegExp(`^/_sandbox/platformB/${path}$`),
  name: 'admin',
  async handle(ex) {
    const b = await body(ex);
    let result: unknown;
    try {
      result = handle(ex, b);
    } catch (err) {
      throw err instanceof HttpError ? err : bad(err instanceof Error ? err.message : String(err));
    }
    sendJson(ex.res, 200, result ?? { ok: true });
  },
});

export const adminRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/_sandbox\/platformB\/state$/,
    name: 'admin',
    handle: (ex) => sendJson(ex.res, 200, summary(ex)),
  },
  post('faults', (ex, b) =>
    ex.ctx.platformB.faults.inject(routeOf(b.route), {
      status: typeof b.status === 'number' ? b.status : undefined,
      message: typeof b.message === 'string' ? b.message : undefined,
      resetInSeconds: typeof b.resetInSeconds === 'number' ? b.resetInSeconds : undefined,
      drop: b.drop === true,
      times: b.always === true ? Number.POSITIVE_INFINITY : int(b.times, 1, 'times'),
      after: int(b.after, 0, 'after'),
    }),
  ),
  post('latency', (ex, b) => ex.ctx.platformB.faults.latency(int(b.ms, 0, 'ms'), routeOf(b.route))),
  post('rate-limit', (ex, b) =>
    ex.ctx.platformB.faults.rateLimitNext(routeOf(b.route ?? 'createTweet'), {
      times: int(b.times, 1, 'times'),
      resetInSeconds: int(b.resetInSeconds, 1, 'resetInSeconds'),
      after: int(b.after, 0, 'after'),
    }),
  ),
  post('duplicates', (ex, b) => ex.ctx.platformB.faults.duplicateNext(int(b.times, 1, 'times'))),
  post('drop-after-create', (ex, b) =>
    ex.ctx.platformB.faults.dropAfterCreate(int(b.times, 1, 'times'), int(b.after, 0, 'after')),
  ),
  post('media/fail-processing', (ex, b) =>
    ex.ctx.platformB.faults.failMediaProcessing(int(b.times, 1, 'times')),
  ),
  post('tokens/expire', (ex, b) => ({ expired: ex.ctx.platformB.faults.expire(target(ex, b)) })),
  post('tokens/revoke', (ex, b) => ({ revoked: ex.ctx.platformB.faults.revoke(target(ex, b)) })),
  post('metrics', (ex, b) => {
    if (typeof b.post !== 'string') throw bad('post (the post id) is required');
    ex.ctx.platformB.state.setMetrics(b.post, (b.counts ?? {}) as Partial<BMetrics>);
  }),
  post('members', (ex, b) =>
    ex.ctx.platformB.state.addMember({
      ...(typeof b.name === 'string' ? { name: b.name } : {}),
      ...(typeof b.username === 'string' ? { username: b.username } : {}),
    }),
  ),
  post('members/current', (ex, b) => ex.ctx.platformB.state.useMember(String(b.id ?? ''))),
  post('reset', (ex) => ex.ctx.platformB.faults.clear()),
];

/** The index page's platformB section: each post with its reply chain (thread parts, first comments) under it. */
export function platformBSection(ex: Exchange): string {
  const { state } = ex.ctx.platformB;
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
