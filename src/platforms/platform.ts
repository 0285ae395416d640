import type { PlatformProfile } from './profile.ts';

/**
 * One interface per publishing platform. Services talk only to this; a second platform
 * implements it without touching them. Adapters throw PlatformError, never raw HTTP errors,
 * and never put token material in messages.
 */

export interface TokenSet {
  accessToken: string;
  /** Epoch ms when the access token lapses; null when the platform did not say. */
  expiresAt: number | null;
  refreshToken: string | null;
  refreshExpiresAt: number | null;
  scopes: string[];
}

export interface MemberIdentity {
  /** The platform's user id (platformA: the userinfo `sub`). */
  platformUserId: string;
  /** The author URN or equivalent used when posting. */
  authorRef: string;
  handle: string | null;
}

export interface AuthorizationRequest {
  url: string;
}

/** A file to attach, read lazily so a large video is streamed, not buffered. */
export interface MediaFile {
  id: string;
  contentType: string;
  size: number;
  filename: string | null;
  open(): Promise<NodeJS.ReadableStream | Buffer>;
}

export interface PublishRequest {
  accessToken: string;
  authorRef: string;
  text: string;
  media: MediaFile[];
  /**
   * Called after media uploads succeed and just before the create request leaves. The
   * service records "create sent" here: from then on the create is never re-sent.
   */
  beforeCreate?: () => Promise<void>;
  /** Publish as a reply to this platform post id (a thread's next part); platforms without replies ignore it. */
  replyTo?: string | null;
  /** The member's handle (e.g. `@sandy`), for platforms whose post URL names it. */
  handle?: string | null;
}

export interface PublishedComment {
  commentId: string;
}

/** A post's first comment: platformA a comment under the post, platformB a reply to it. */
export interface CommentRequest {
  accessToken: string;
  authorRef: string;
  handle?: string | null;
  /** The platform id of the post (or last thread part) the comment goes under. */
  parentId: string;
  text: string;
  /** As PublishRequest.beforeCreate: recorded before the create leaves; never re-sent after. */
  beforeCreate?: () => Promise<void>;
}

/**
 * A look-up that does not settle the question: `cannot_tell` now (the listing failed, was
 * refused for a while, or the answer was cut short), so recovery asks again later; or
 * `out_of_reach`, the platform can no longer tell (the create is past the platform's own
 * window, or it never lets this app list), so asking again cannot help.
 */
export type LookupUnsettled =
  | { kind: 'cannot_tell'; reason: string }
  | { kind: 'out_of_reach'; reason: string };

/** What a platform says about a post a dead process may or may not have created. */
export type PostLookup = { kind: 'found'; post: PublishedPost } | { kind: 'absent' } | LookupUnsettled;

/** As PostLookup, for a first comment; `absent` is what allows recovery to send it again. */
export type CommentLookup =
  | { kind: 'found'; comment: PublishedComment }
  | { kind: 'absent' }
  | LookupUnsettled;

export interface PublishedPost {
  platformPostId: string;
  platformUrl: string;
}

export interface PostMetrics {
  /** null = the platform did not report this dimension; 0 = it reported zero. */
  impressions: number | null;
  likes: number | null;
  comments: number | null;
  shares: number | null;
  clicks: number | null;
}

/**
 * Why a platform call failed, in terms the services act on:
 * - `expired_token`: refresh once if possible, else the channel becomes `expired`
 * - `revoked_token`: the channel becomes `revoked`; publish answers 409 channel_revoked
 * - `missing_scope`: channel `error`; the member must reconnect
 * - `duplicate`: final failure, never retried
 * - `rate_limited` / `unavailable`: transient; reads and uploads retry with backoff
 * - `outcome_unknown`: a create whose response never came back; never re-sent
 * - `bad_request`: the platform rejected the content (final)
 * - `misconfigured`: e.g. 426 NONEXISTENT_VERSION; an operator must fix configuration
 * - `exchange_failed`: OAuth code or refresh exchange refused
 */
export type PlatformErrorKind =
  | 'expired_token'
  | 'revoked_token'
  | 'missing_scope'
  | 'duplicate'
  | 'rate_limited'
  | 'unavailable'
  | 'outcome_unknown'
  | 'bad_request'
  | 'misconfigured'
  | 'exchange_failed';

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly status: number | null;
  /** Whether retrying the same call may succeed (never true for an unknown create outcome). */
  readonly retryable: boolean;
  /** Epoch ms before which the platform will not accept the call again (a 429's reset), when it said. */
  readonly retryAt: number | null;

  constructor(
    kind: PlatformErrorKind,
    message: string,
    options: { status?: number | null; cause?: unknown; retryAt?: number | null } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PlatformError';
    this.kind = kind;
    this.status = options.status ?? null;
    this.retryAt = options.retryAt ?? null;
    this.retryable = kind === 'rate_limited' || kind === 'unavailable';
  }
}

/**
 * How far before a create's recorded time a listing reaches, for clocks that disagree between
 * this host and the platform: a post the platform dates up to this much earlier still counts.
 */
export const LOOKUP_SKEW_MS = 120_000;

/** One of the member's recent posts (thread parts and replies included) in a recovery listing. */
export interface RecentPost {
  platformPostId: string;
  platformUrl: string;
  /** The text as the platform lists it (compare with `sameText`). */
  text: string;
  /** When the platform says it was created; null when it does not say. */
  createdAt: number | null;
}

export interface RecentPostsInput {
  accessToken: string;
  authorRef: string;
  /** Every post created since this time (less LOOKUP_SKEW_MS) is listed: the oldest create in doubt. */
  since: number;
  /**
   * When to stop paging (epoch ms, the adapter's clock): a listing is bounded by time, never by
   * a count of pages; one not read back to `since` by then is `cannot_tell`.
   */
  deadline: number;
}

/**
 * The member's posts since `since`, every one of them (`listed`), or why not. `sameText` says
 * whether a listed text is a text Postkit sent (platformA lists its little-text form).
 */
export type RecentPosts =
  | { kind: 'listed'; posts: RecentPost[]; sameText(listed: string, sent: string): boolean }
  | LookupUnsettled;

/** What crash recovery asks a platform: the member's post with this text created since `since`. */
export interface PostLookupInput {
  accessToken: string;
  authorRef: string;
  text: string;
  since: number;
  /**
   * Platform ids already recorded for other posts of ours: never the lost one, even with the
   * same text (a series' occurrences share their text and may publish minutes apart).
   */
  exclude?: readonly string[];
}

export interface Platform {
  readonly id: string;
  /** Scopes requested at connect time. */
  readonly scopes: readonly string[];
  /** Whether connect makes a PKCE pair (the verifier is kept sealed with the state). */
  readonly pkce: boolean;
  /** The platform's facts (limits, media rule, threads, first comment): the same object as PROFILES[id]. */
  readonly profile: PlatformProfile;
  /** The consent URL for a state and (when PKCE is on) a code challenge. */
  authorizationUrl(input: { state: string; codeChallenge: string | null }): AuthorizationRequest;
  exchangeCode(input: { code: string; codeVerifier: string | null }): Promise<TokenSet>;
  refresh(input: { refreshToken: string }): Promise<TokenSet>;
  identify(input: { accessToken: string }): Promise<MemberIdentity>;
  /** The author reference to post as, from the stored platform user id (platformA: urn:li:person:{id}). */
  authorRef(platformUserId: string): string;
  /** Uploads the media and creates the post; a lost create response is `outcome_unknown`. */
  publish(input: PublishRequest): Promise<PublishedPost>;
  /** Whether a post this member created exists, for crash recovery; null when the platform cannot tell. */
  findPublished?(input: PostLookupInput): Promise<PublishedPost | null>;
  /**
   * Like findPublished, but tells "the platform says there is no such post" (`absent`: the
   * member's posts since `since` were all read) from "cannot tell" (a restricted or failed
   * listing). Recovery re-sends a create only on `absent`; without this method it never does.
   */
  lookupPost?(input: PostLookupInput): Promise<PostLookup>;
  /**
   * The member's recent posts back to `since`, for recovery to settle every create in doubt of
   * a channel with one listing (lookupPost answers one text from the same listing). Returns
   * `out_of_reach` when the platform's own window no longer reaches `since`.
   */
  listRecentPosts?(input: RecentPostsInput): Promise<RecentPosts>;
  metrics(input: { accessToken: string; platformPostId: string }): Promise<PostMetrics>;
  /** Creates a first comment; a lost answer is `outcome_unknown`. */
  comment(input: CommentRequest): Promise<PublishedComment>;
  /** Recovery: the member's comment with this text under `parentId` since `since`; null when none or unknown. */
  findComment?(input: {
    accessToken: string;
    authorRef: string;
    parentId: string;
    text: string;
    since: number;
  }): Promise<PublishedComment | null>;
  /**
   * Like findComment, but `absent` when the platform's whole listing since `since` has no such
   * comment (recovery may then send it once more); `cannot_tell` when it cannot say. Recovery
   * of a first comment uses this when present, else findComment.
   */
  lookupComment?(input: {
    accessToken: string;
    authorRef: string;
    parentId: string;
    text: string;
    since: number;
  }): Promise<CommentLookup>;
  /** Deletes one of the member's posts; a post already gone counts as deleted. */
  deletePost?(input: { accessToken: string; platformPostId: string }): Promise<void>;
}
