import { escapeHtml, sendHtml } from '../http.ts';
import { page } from '../page.ts';
import { notFound, when } from '../post-page.ts';
import type { Exchange, Route } from './lane.ts';

/** platformA's page for a published post (PLATFORMA_POST_URL): the post and its comments. */

function platformAPost(ex: Exchange) {
  const id = ex.params[0] ?? '';
  const post = ex.ctx.state.posts.get(id);
  if (!post) return notFound(ex.res, `platformA post ${id}`);
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

export const postPageRoutes: Route[] = [
  { method: 'GET', path: /^\/_sandbox\/platformA\/posts\/([^/]+)$/, name: 'page', handle: platformAPost },
];
