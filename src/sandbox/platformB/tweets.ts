import { readJson, sendJson } from '../http.ts';
import { DUPLICATE_MESSAGE } from './faults.ts';
import { authenticate, problem, requireScope, spend, weightedLength } from './http.ts';
import type { Exchange, Route } from './lane.ts';
import { type BTweet, defaultBMetrics } from './state.ts';

/** POST/DELETE/GET /2/tweets and the member timeline used for recovery. */

const bad = (detail: string) => problem(400, 'Invalid Request', detail);

function checkBody(ex: Exchange, body: Record<string, unknown>, authorId: string) {
  const { state } = ex.ctx;
  const text = body.text === undefined ? '' : body.text;
  if (typeof text !== 'string') throw bad('text must be a string');
  const media = body.media as { media_ids?: unknown } | undefined;
  const ids = media === undefined ? [] : media?.media_ids;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
    throw bad('media.media_ids must be strings');
  if (body.poll !== undefined && ids.length > 0) throw bad('poll and media are mutually exclusive');
  if (text === '' && ids.length === 0) throw bad('One of text or media is required');
  if (weightedLength(text) > 280)
    throw problem(400, 'Invalid Request', 'Text is too long (280 weighted characters)');
  const files = (ids as string[]).map((id) => state.media.get(id));
  for (const [i, f] of files.entries()) {
    if (!f || f.ownerId !== authorId) throw bad(`media_ids[${i}] is not a media of this member`);
    if (f.state !== 'succeeded') throw bad(`media_ids[${i}] is not ready (${f.state})`);
  }
  const images = files.filter((f) => f!.category === 'tweet_image').length;
  if (files.length > 0 && !(images === files.length ? images <= 4 : files.length === 1))
    throw bad('A post carries up to 4 images, or one video or GIF');
  const reply = body.reply as { in_reply_to_tweet_id?: unknown } | undefined;
  let replyTo: string | null = null;
  if (reply !== undefined) {
    if (typeof reply?.in_reply_to_tweet_id !== 'string')
      throw bad('reply.in_reply_to_tweet_id must be a string');
    const parent = state.tweets.get(reply.in_reply_to_tweet_id);
    if (!parent || parent.deletedAt !== null)
      throw bad('You attempted to reply to a post that is deleted or not visible.');
    replyTo = parent.id;
  }
  return { text, mediaIds: ids as string[], replyTo };
}

async function createTweet(ex: Exchange) {
  const token = authenticate(ex);
  requireScope(token, 'tweet.write');
  const body = await readJson(ex.req);
  const { state, settings, faults } = ex.ctx;
  const checked = checkBody(ex, body, token.userId);
  spend(ex, token, 'creates');
  if (settings.rejectDuplicates && checked.text !== '') {
    const twin = state.listTweets({ authorId: token.userId }).find((t) => t.text === checked.text);
    if (twin) throw problem(403, 'Forbidden', DUPLICATE_MESSAGE);
  }
  const id = state.newTweetId();
  const tweet: BTweet = {
    id,
    authorId: token.userId,
    ...checked,
    createdAt: ex.ctx.now(),
    deletedAt: null,
    metrics: defaultBMetrics({ id, text: checked.text }),
  };
  state.tweets.set(tweet.id, tweet);
  if (faults.takeDropAfterCreate()) {
    // The post exists, but the caller never learns it: the "outcome unknown" case.
    ex.res.socket?.destroy();
    return;
  }
  sendJson(ex.res, 201, { data: { id: tweet.id, text: tweet.text } });
}

function ownLiveTweet(ex: Exchange, userId: string): BTweet {
  const tweet = ex.ctx.state.tweets.get(ex.params[0]!);
  if (!tweet || tweet.deletedAt !== null) throw problem(404, 'Not Found Error', 'Could not find the post.');
  if (tweet.authorId !== userId) throw problem(403, 'Forbidden', 'You are not allowed to act on this post.');
  return tweet;
}

function deleteTweet(ex: Exchange) {
  const token = authenticate(ex);
  requireScope(token, 'tweet.write');
  const tweet = ownLiveTweet(ex, token.userId);
  spend(ex, token, 'deletes');
  tweet.deletedAt = ex.ctx.now();
  sendJson(ex.res, 200, { data: { deleted: true } });
}

const THIRTY_DAYS = 30 * 86_400_000;

function getTweet(ex: Exchange) {
  const token = authenticate(ex);
  requireScope(token, 'tweet.read');
  const tweet = ex.ctx.state.tweets.get(ex.params[0]!);
  if (!tweet || tweet.deletedAt !== null) throw problem(404, 'Not Found Error', 'Could not find the post.');
  const fields = (ex.url.searchParams.get('tweet.fields') ?? '').split(',');
  const { url_link_clicks, user_profile_clicks, ...pub } = tweet.metrics;
  // Private counters: the member's own posts younger than 30 days, and only those reported.
  const own = tweet.authorId === token.userId && ex.ctx.now() - tweet.createdAt < THIRTY_DAYS;
  const priv = Object.fromEntries(
    Object.entries({ url_link_clicks, user_profile_clicks }).filter(([, v]) => v !== null),
  );
  sendJson(ex.res, 200, {
    data: {
      id: tweet.id,
      text: tweet.text,
      author_id: tweet.authorId,
      created_at: new Date(tweet.createdAt).toISOString(),
      ...(fields.includes('public_metrics') ? { public_metrics: pub } : {}),
      ...(fields.includes('non_public_metrics') && own && Object.keys(priv).length > 0
        ? { non_public_metrics: priv }
        : {}),
    },
  });
}

function listTweets(ex: Exchange) {
  const token = authenticate(ex);
  requireScope(token, 'tweet.read');
  const q = ex.url.searchParams;
  const max = Math.min(100, Math.max(5, Number(q.get('max_results') ?? 10) || 10));
  const since = q.get('start_time') ? Date.parse(q.get('start_time')!) : Number.NEGATIVE_INFINITY;
  if (Number.isNaN(since)) throw bad('start_time must be ISO 8601');
  const offset = Math.max(0, Number(q.get('pagination_token') ?? 0) || 0);
  // The platform's window: only the member's most recent posts are listed at all.
  const all = ex.ctx.state
    .listTweets({ authorId: ex.params[0]! })
    .slice(0, ex.ctx.settings.timelineLimit)
    .filter((t) => t.createdAt >= since);
  const page = all.slice(offset, offset + max);
  sendJson(ex.res, 200, {
    data: page.map((t) => ({ id: t.id, text: t.text, created_at: new Date(t.createdAt).toISOString() })),
    meta: {
      result_count: page.length,
      ...(offset + max < all.length ? { next_token: String(offset + max) } : {}),
    },
  });
}

export const tweetRoutes: Route[] = [
  { method: 'POST', path: /^\/2\/tweets$/, name: 'createTweet', handle: createTweet },
  { method: 'DELETE', path: /^\/2\/tweets\/(\d+)$/, name: 'deleteTweet', handle: deleteTweet },
  { method: 'GET', path: /^\/2\/tweets\/(\d+)$/, name: 'getTweet', handle: getTweet },
  { method: 'GET', path: /^\/2\/users\/(\d+)\/tweets$/, name: 'listTweets', handle: listTweets },
];
