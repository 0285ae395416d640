import type { Platform } from '../platform.ts';
import { metrics } from './metrics.ts';
import {
  authorizationUrl,
  authorRefFor,
  exchangeCode,
  identify,
  PLATFORM_B_SCOPES,
  refresh,
} from './oauth.ts';
import { type PlatformBOptions, resolveOptions } from './options.ts';
import { deletePost, findPublished, listRecentPosts, lookupPost, publish } from './posts.ts';
import { platformBProfile } from './profile.ts';

export type { PlatformBOptions } from './options.ts';

/**
 * The platformB adapter (PLATFORM_B.md): the same code speaks to the live platform and to the
 * sandbox, depending only on the base addresses in its options. PKCE is always on.
 */
export function createPlatformB(options: PlatformBOptions): Platform {
  const opts = resolveOptions(options);
  return {
    id: platformBProfile.id,
    scopes: PLATFORM_B_SCOPES,
    pkce: true,
    profile: platformBProfile,
    authorizationUrl: (input) => authorizationUrl(opts, input),
    exchangeCode: (input) => exchangeCode(opts, input),
    refresh: (input) => refresh(opts, input),
    identify: (input) => identify(opts, input),
    authorRef: authorRefFor,
    publish: (input) => publish(opts, input),
    findPublished: (input) => findPublished(opts, input),
    lookupPost: (input) => lookupPost(opts, input),
    listRecentPosts: (input) => listRecentPosts(opts, input),
    // A first comment on platformB is a reply to the post (or the thread's last part).
    comment: async ({ parentId, ...input }) => {
      const reply = await publish(opts, { ...input, media: [], replyTo: parentId });
      return { commentId: reply.platformPostId };
    },
    findComment: async (input) => {
      const found = await findPublished(opts, input);
      return found ? { commentId: found.platformPostId } : null;
    },
    // A reply is a post of its own: the member's posts tell found/absent, and a repeated reply
    // is refused as duplicate content, so `absent` is safe to act on.
    lookupComment: async (input) => {
      const found = await lookupPost(opts, input);
      return found.kind === 'found'
        ? { kind: 'found', comment: { commentId: found.post.platformPostId } }
        : found;
    },
    metrics: (input) => metrics(opts, input),
    deletePost: (input) => deletePost(opts, input),
  };
}
