import { createHash, randomBytes } from 'node:crypto';
import type {
  BAuthCode,
  BConsent,
  BMedia,
  BMember,
  BMetrics,
  BRefreshToken,
  BToken,
  BTweet,
} from './model.ts';

export * from './model.ts';

const randomId = (bytes = 18) => randomBytes(bytes).toString('base64url');
export const PLATFORM_B_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'offline.access', 'media.write'];

/** Default counts: deterministic per post; link clicks only for posts with a link. */
export function defaultBMetrics(tweet: Pick<BTweet, 'id' | 'text'>): BMetrics {
  const h = createHash('sha256').update(tweet.id).digest();
  const link = /https?:\/\//.test(tweet.text);
  return {
    impression_count: 50 + (h.readUInt16BE(0) % 500),
    like_count: h[2]! % 40,
    reply_count: h[3]! % 8,
    retweet_count: h[4]! % 6,
    quote_count: h[5]! % 3,
    bookmark_count: h[6]! % 5,
    url_link_clicks: link ? h[7]! % 20 : null,
    user_profile_clicks: h[8]! % 10,
  };
}

/** Everything the platformB sandbox remembers; tests inspect it through `sandbox.platformB.state`. */
export class PlatformBState {
  readonly members = new Map<string, BMember>();
  readonly tokens = new Map<string, BToken>();
  readonly refreshTokens = new Map<string, BRefreshToken>();
  readonly codes = new Map<string, BAuthCode>();
  readonly consents = new Map<string, BConsent>();
  readonly tweets = new Map<string, BTweet>();
  readonly media = new Map<string, BMedia>();
  /** Refresh-token families ended because a rotated-out token was used again (the member is logged out). */
  readonly reusedFamilies = new Set<string>();
  /** Creates and deletes per access token, for the per-window limits. */
  readonly windows = new Map<string, { start: number; creates: number; deletes: number }>();
  readonly callCounts = new Map<string, number>();
  currentMember: string;
  private nextId = 1_860_000_000_000_000_000n;
  private readonly now: () => number;

  constructor(options: { now: () => number }) {
    this.now = options.now;
    this.currentMember = this.addMember().id;
  }

  addMember(input: Partial<BMember> = {}): BMember {
    const n = this.members.size + 1;
    const id = input.id ?? String(1_000_000 + Math.floor(Math.random() * 9_000_000) * 10 + n);
    const member = {
      id,
      name: input.name ?? `Sandy B ${n}`,
      username: input.username ?? `sandy_b${n}_${id.slice(-4)}`,
    };
    this.members.set(id, member);
    return member;
  }

  useMember(id: string): BMember {
    const member = this.members.get(id);
    if (!member) throw new Error(`sandbox: no platformB member ${id}`);
    this.currentMember = id;
    return member;
  }

  /** Mints an access token and a refresh token in a new family (the OAuth dance does the same). */
  issueToken(input: { userId?: string; scopes?: string[]; expiresInSeconds?: number; family?: string } = {}) {
    const userId = input.userId ?? this.currentMember;
    const scopes = input.scopes ?? PLATFORM_B_SCOPES;
    const family = input.family ?? randomId(9);
    const token: BToken = {
      accessToken: `sbxb_at_${randomId()}`,
      userId,
      scopes,
      expiresAt: this.now() + (input.expiresInSeconds ?? 7200) * 1000,
      revoked: false,
      family,
    };
    this.tokens.set(token.accessToken, token);
    let refreshToken: string | null = null;
    if (scopes.includes('offline.access')) {
      refreshToken = `sbxb_rt_${randomId()}`;
      this.refreshTokens.set(refreshToken, {
        refreshToken,
        userId,
        scopes,
        family,
        usedAt: null,
        revoked: false,
      });
    }
    return { ...token, refreshToken };
  }

  /** Ends a family: every access and refresh token in it stops working. */
  endFamily(family: string): void {
    for (const t of this.tokens.values()) if (t.family === family) t.revoked = true;
    for (const r of this.refreshTokens.values()) if (r.family === family) r.revoked = true;
  }

  newTweetId(): string {
    this.nextId += BigInt(1 + Math.floor(Math.random() * 1000));
    return String(this.nextId);
  }

  /** Live posts (or all), newest first; optionally one author's. */
  listTweets(options: { authorId?: string; includeDeleted?: boolean } = {}): BTweet[] {
    return [...this.tweets.values()]
      .filter(
        (t) =>
          (options.includeDeleted || t.deletedAt === null) &&
          (!options.authorId || t.authorId === options.authorId),
      )
      .sort((a, b) => b.createdAt - a.createdAt || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  }

  /** The reply chain under a post, in creation order (each reply's own replies follow it). */
  repliesTo(id: string): BTweet[] {
    return [...this.tweets.values()]
      .filter((t) => t.replyTo === id && t.deletedAt === null)
      .sort((a, b) => a.createdAt - b.createdAt || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  }

  setMetrics(id: string, counts: Partial<BMetrics>): void {
    const tweet = this.tweets.get(id);
    if (!tweet) throw new Error(`sandbox: no platformB post ${id}`);
    tweet.metrics = { ...tweet.metrics, ...counts };
  }

  recordRequest(route: string): void {
    this.callCounts.set(route, (this.callCounts.get(route) ?? 0) + 1);
  }

  /** How many requests reached a route (e.g. `createTweet`), faulted ones included. */
  calls(route: string): number {
    return this.callCounts.get(route) ?? 0;
  }
}
