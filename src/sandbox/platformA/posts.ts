import { readJson, restError, sendEmpty, sendJson } from '../http.ts';
import { authenticate, memberUrn, requireRestHeaders, requireScope } from './guards.ts';
import type { Exchange, Route } from './lane.ts';
import { validatePost } from './post-validation.ts';
import type { APost } from './state.ts';

/** POST/GET/DELETE /rest/posts and the "find by author" finder. */

async function createPost(ex: Exchange) {
  requireRestHeaders(ex);
  const token = authenticate(ex);
  requireScope(token, 'w_member_social', 'posts.CREATE');
  const body = await readJson(ex.req);
  const { state, settings, faults } = ex.ctx;
  const post = validatePost(body, (urn) => state.assets.get(urn));
  if (post.author !== memberUrn(token.sub)) {
    throw restError(403, 'Member is not allowed to post as this author', 'ACCESS_DENIED', 100);
  }
  if (settings.rejectDuplicates) {
    const twin = state.listPosts({ author: post.author }).find((p) => p.commentary === post.commentary);
    if (twin) throw restError(422, `Content is a duplicate of ${twin.id}`, 'DUPLICATE_POST');
  }
  const created = state.addPost({
    ...post,
    id: state.newPostUrn(post.contentKind),
    createdAt: ex.ctx.now(),
    deletedAt: null,
  });
  if (faults.takeDropAfterCreate()) {
    // The post exists, but the caller never learns it: the "outcome unknown" case.
    ex.res.socket?.destroy();
    return;
  }
  sendEmpty(ex.res, 201, { 'x-restli-id': created.id });
}

/** The platform's read shape of a post. */
export function postView(p: APost) {
  return {
    id: p.id,
    author: p.author,
    commentary: p.commentary,
    visibility: p.visibility,
    lifecycleState: p.deletedAt === null ? p.lifecycleState : 'DELETED',
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    isReshareDisabledByAuthor: false,
    ...(p.content ? { content: p.content } : {}),
    createdAt: p.createdAt,
    publishedAt: p.createdAt,
    lastModifiedAt: p.deletedAt ?? p.createdAt,
  };
}

function findOwnPost(ex: Exchange): APost {
  requireRestHeaders(ex);
  const token = authenticate(ex);
  const post = ex.ctx.state.posts.get(ex.params[0]!);
  if (!post || post.deletedAt !== null) throw restError(404, 'Post not found');
  if (post.author !== memberUrn(token.sub))
    throw restError(403, 'Not allowed to access this post', 'ACCESS_DENIED', 100);
  return post;
}

function getPost(ex: Exchange) {
  sendJson(ex.res, 200, postView(findOwnPost(ex)));
}

function deletePost(ex: Exchange) {
  const post = findOwnPost(ex);
  post.deletedAt = ex.ctx.now();
  sendEmpty(ex.res, 204);
}

function findPosts(ex: Exchange) {
  requireRestHeaders(ex);
  const token = authenticate(ex);
  const q = ex.url.searchParams;
  if (q.get('q') !== 'author') throw restError(400, 'Unsupported finder; use q=author');
  if (ex.ctx.faults.authorFinderRestricted) {
    throw restError(403, 'Not enough permissions to access: posts.FINDER-author', 'ACCESS_DENIED', 100);
  }
  const author = q.get('author');
  if (author !== memberUrn(token.sub))
    throw restError(403, 'Not allowed to list this author', 'ACCESS_DENIED', 100);
  const count = Math.min(100, Math.max(1, Number(q.get('count') ?? 10) || 10));
  const start = Math.max(0, Number(q.get('start') ?? 0) || 0);
  const all = ex.ctx.state.listPosts({ author });
  sendJson(ex.res, 200, {
    paging: { start, count, total: all.length, links: [] },
    elements: all.slice(start, start + count).map(postView),
  });
}

const URN = '([^/]+)';

export const postRoutes: Route[] = [
  { method: 'POST', path: /^\/rest\/posts$/, name: 'createPost', handle: createPost },
  { method: 'GET', path: /^\/rest\/posts$/, name: 'findPosts', handle: findPosts },
  { method: 'GET', path: new RegExp(`^/rest/posts/${URN}$`), name: 'getPost', handle: getPost },
  { method: 'DELETE', path: new RegExp(`^/rest/posts/${URN}$`), name: 'deletePost', handle: deletePost },
];
