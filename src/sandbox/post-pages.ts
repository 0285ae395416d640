import { page } from './authorize.ts';
import { type Exchange, escapeHtml, type Route, sendHtml } from './http.ts';
import type { BTweet } from './platformB/model.ts';

/**
 * The sandbox's own page for each published post: where "View on the platform" leads for a
 * channel connected to the sandbox (its env() sets PLATFORMA_POST_URL / PLATFORMB_POST_URL to
 * these addresses), instead of the live sites, which know nothing of sandbox posts.
 */

const when = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

function notFound(ex: Exchange, what: string) {
  sendHtml(
    ex.res,
    404,
    page(
      'Post not found',
      `<p class="error">The sandbox has no ${escapeHtml(what)}. Sandbox posts live in memory, so they are gone once the sandbox restarts.</p><p><a href="/">All sandbox posts</a></p>`,
    ),
  );
}

function platformAPost(ex: Exchange) {
  const id = ex.params[0] ?? '';
  const post = ex.ctx.state.posts.get(id);
  if (!post) return notFound(ex, `platformA post ${id}`);
  const author = ex.ctx.state.members.get(post.author.replace('urn:li:person:', ''));
  const comments = [...ex.ctx.state.comments.values()]
    .filter((c) => c.postUrn === id)
    .sort((a, b) => a.createdAt - b.createdAt)
    .map(
      (c) =>
        `<li><pre dir="auto">${escapeHtml(c.text)}</pre><span class="muted">${when(c.createdAt)}</span></li>`,
    )
    .join('');
  sendHtml(
    ex.res,
    200,
    page(
      'platformA post',
      `<p><strong>${escapeHtml(author?.name ?? post.author)}</strong> <span class="muted">${when(post.createdAt)}${post.deletedAt ? ' · deleted' : ''}</span></p>
<pre dir="auto">${escapeHtml(post.text)}</pre>
${post.mediaIds.length ? `<p class="muted">${escapeHtml(post.contentKind)}: ${post.mediaIds.map(escapeHtml).join(', ')}</p>` : ''}
${comments ? `<h2>Comments</h2><ul>${comments}</ul>` : ''}
<p class="muted">Id <code>${escapeHtml(id)}</code> · <a href="/">All sandbox posts</a></p>`,
    ),
  );
}

function platformBPost(ex: Exchange) {
  const id = ex.params[0] ?? '';
  const { state } = ex.ctx.platformB;
  const tweet = state.tweets.get(id);
  if (!tweet) return notFound(ex, `platformB post ${id}`);
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
  { method: 'GET', path: /^\/_sandbox\/platformA\/posts\/([^/]+)$/, name: 'page', handle: platformAPost },
  { method: 'GET', path: /^\/_sandbox\/platformB\/posts\/(\d+)$/, name: 'page', handle: platformBPost },
];
