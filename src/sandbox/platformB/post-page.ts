import { escapeHtml, sendHtml } from '../http.ts';
import { page } from '../page.ts';
import { notFound, when } from '../post-page.ts';
import type { Exchange, Route } from './lane.ts';
import type { BTweet } from './model.ts';

/** platformB's page for a published post (PLATFORMB_POST_URL): the post and its reply chain. */

function platformBPost(ex: Exchange) {
  const id = ex.params[0] ?? '';
  const { state } = ex.ctx;
  const tweet = state.tweets.get(id);
  if (!tweet) return notFound(ex.res, `platformB post ${id}`);
  // The post and every reply under it, in order: a thread's parts and its first comment.
  const chain: BTweet[] = [tweet];
  for (let next = state.repliesTo(tweet.id); next.length > 0; next = state.repliesTo(next[0]!.id)) {
    chain.push(...next);
    if (chain.length > 100) break;
  }
  const author = state.members.get(tweet.authorId);
  const items = chain
    .map(
      (t, i) =>
        `<li id="t${escapeHtml(t.id)}"><pre dir="auto">${escapeHtml(t.text)}</pre><span class="muted">${i === 0 ? 'post' : `reply ${i}`} · ${when(t.createdAt)}${t.deletedAt ? ' · deleted' : ''} · <code>${escapeHtml(t.id)}</code></span></li>`,
    )
    .join('');
  sendHtml(
    ex.res,
    200,
    page(
      'platformB post',
      `<p><strong>${escapeHtml(author ? `${author.name} (@${author.username})` : tweet.authorId)}</strong></p>
<ol>${items}</ol>
<p class="muted"><a href="/">All sandbox posts</a></p>`,
    ),
  );
}

export const postPageRoutes: Route[] = [
  { method: 'GET', path: /^\/_sandbox\/platformB\/posts\/(\d+)$/, name: 'page', handle: platformBPost },
];
