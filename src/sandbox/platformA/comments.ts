import { readJson, restError, sendEmpty, sendJson } from '../http.ts';
import { authenticate, memberUrn, requireRestHeaders, requireScope } from './guards.ts';
import type { Exchange, Route } from './lane.ts';
import { randomId } from './state.ts';

/** POST/GET /rest/socialActions/{post urn}/comments (PLATFORM_A.md "Comments"). */

const MAX_COMMENT = 1250;

function livePost(ex: Exchange) {
  const post = ex.ctx.state.posts.get(ex.params[0]!);
  if (!post || post.deletedAt !== null) throw restError(404, 'Post not found');
  return post;
}

async function createComment(ex: Exchange) {
  requireRestHeaders(ex);
  const token = authenticate(ex);
  requireScope(token, 'w_member_social', 'socialActions.comments.CREATE');
  const post = livePost(ex);
  const body = await readJson(ex.req);
  const text = (body.message as { text?: unknown } | undefined)?.text;
  if (body.actor !== memberUrn(token.sub))
    throw restError(403, 'Member is not allowed to comment as this actor', 'ACCESS_DENIED', 100);
  if (body.object !== post.id) throw restError(400, '/object must be the post the comment is under');
  if (typeof text !== 'string' || text.trim() === '') throw restError(400, '/message/text is required');
  if ([...text].length > MAX_COMMENT) throw restError(400, `/message/text is over ${MAX_COMMENT} characters`);
  const id = `urn:li:comment:(urn:li:activity:${post.id.split(':').pop()},${BigInt(7_000_000_000) + BigInt(ex.ctx.state.comments.size + 1)}${randomId(2).replace(/\D/g, '')})`;
  ex.ctx.state.comments.set(id, {
    id,
    postUrn: post.id,
    actor: body.actor as string,
    text,
    createdAt: ex.ctx.now(),
  });
  sendEmpty(ex.res, 201, { 'x-restli-id': id });
}

function listComments(ex: Exchange) {
  requireRestHeaders(ex);
  authenticate(ex);
  const post = livePost(ex);
  const elements = [...ex.ctx.state.comments.values()]
    .filter((c) => c.postUrn === post.id)
    .map((c) => ({ id: c.id, actor: c.actor, message: { text: c.text }, created: { time: c.createdAt } }));
  sendJson(ex.res, 200, { elements, paging: { start: 0, count: elements.length, total: elements.length } });
}

const PATH = /^\/rest\/socialActions\/([^/]+)\/comments$/;
export const commentRoutes: Route[] = [
  { method: 'POST', path: PATH, name: 'createComment', handle: createComment },
  { method: 'GET', path: PATH, name: 'listComments', handle: listComments },
];
