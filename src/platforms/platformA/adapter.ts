import type { Platform } from '../platform.ts';
import { comment, findComment, lookupComment } from './comments.ts';
import { metrics } from './metrics.ts';
import {
  authorizationUrl,
  authorRefFor,
  exchangeCode,
  identify,
  PLATFORM_A_SCOPES,
  refresh,
} from './oauth.ts';
import { type PlatformAOptions, resolveOptions } from './options.ts';
import { findPublished, listRecentPosts, lookupPost, publish } from './posts.ts';
import { platformAProfile } from './profile.ts';

export type { PlatformAOptions } from './options.ts';

/**
 * The platformA adapter: the same code speaks to the live platform and to the sandbox,
 * depending only on the base addresses in its options.
 */
export function createPlatformA(options: PlatformAOptions): Platform {
  const opts = resolveOptions(options);
  return {
    id: platformAProfile.id,
    scopes: PLATFORM_A_SCOPES,
    pkce: opts.pkce,
    profile: platformAProfile,
    authorizationUrl: (input) => authorizationUrl(opts, input),
    exchangeCode: (input) => exchangeCode(opts, input),
    refresh: (input) => refresh(opts, input),
    identify: (input) => identify(opts, input),
    authorRef: authorRefFor,
    publish: (input) => publish(opts, input),
    findPublished: (input) => findPublished(opts, input),
    lookupPost: (input) => lookupPost(opts, input),
    listRecentPosts: (input) => listRecentPosts(opts, input),
    comment: (input) => comment(opts, input),
    findComment: (input) => findComment(opts, input),
    lookupComment: (input) => lookupComment(opts, input),
    metrics: (input) => metrics(opts, input),
  };
}
