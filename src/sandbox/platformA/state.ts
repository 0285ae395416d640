import { createHash, randomBytes } from 'node:crypto';
import type {
  AAsset,
  AAuthCode,
  AComment,
  AConsent,
  AMember,
  APost,
  ARefreshToken,
  ARequest,
  AToken,
  ContentKind,
  MetricCounts,
} from './model.ts';

export * from './model.ts';

/** Everything the platformA sandbox remembers; tests inspect it through `sandbox.platformA.state`. */

export const randomId = (bytes = 12) => randomBytes(bytes).toString('base64url');

/** Default sandbox counts: deterministic per post, no LINK_CLICKS data (a post without links). */
export function defaultMetrics(post: Pick<APost, 'id'>): MetricCounts {
  const h = createHash('sha256').update(post.id).digest();
  const impressions = 100 + (h.readUInt16BE(0) % 900);
  return {
    IMPRESSION: impressions,
    MEMBERS_REACHED: Math.round(impressions * 0.7),
    REACTION: h[2]! % 50,
    COMMENT: h[3]! % 10,
    RESHARE: h[4]! % 5,
    LINK_CLICKS: null,
  };
}

const REQUEST_LOG_LIMIT = 10_000;

export class PlatformAState {
  readonly members = new Map<string, AMember>();
  readonly tokens = new Map<string, AToken>();
  readonly refreshTokens = new Map<string, ARefreshToken>();
  readonly codes = new Map<string, AAuthCode>();
  readonly consents = new Map<string, AConsent>();
  readonly posts = new Map<string, APost>();
  /** Comments by comment URN (a post's first comment). */
  readonly comments = new Map<string, AComment>();
  readonly assets = new Map<string, AAsset>();
  /** Upload URL key -> the asset (and video part index) it uploads. */
  readonly uploadKeys = new Map<string, { assetId: string; part: number }>();
  /** The most recent requests (bounded), oldest first. */
  readonly requests: ARequest[] = [];
  readonly callCounts = new Map<string, number>();
  /** Who the consent page signs in as (auto-approve uses this member). */
  currentMember: string;
  private nextPostNumber = 7_300_000_000_000_000_000n;
  private readonly now: () => number;
  private readonly metricsFor: (post: APost) => MetricCounts;

  constructor(options: {
    now: () => number;
    member?: Partial<AMember>;
    metrics?: (post: APost) => MetricCounts;
  }) {
    this.now = options.now;
    this.metricsFor = options.metrics ?? defaultMetrics;
    this.currentMember = this.addMember(options.member ?? {}).sub;
  }

  /** Adds a member who can approve the consent page (e.g. to connect a second account). */
  addMember(input: Partial<AMember> = {}): AMember {
    const sub = input.sub ?? randomBytes(6).toString('base64url');
    const givenName = input.givenName ?? 'Sandy';
    const familyName =
      input.familyName ?? (this.members.size === 0 ? 'Sandbox' : `Member ${this.members.size + 1}`);
    const member: AMember = {
      sub,
      givenName,
      familyName,
      name: input.name ?? `${givenName} ${familyName}`,
      email: input.email ?? `${sub.toLowerCase()}@sandbox.example`,
      picture: input.picture ?? `https://sandbox.example/avatars/${encodeURIComponent(sub)}.png`,
    };
    this.members.set(sub, member);
    return member;
  }

  /** Makes `sub` the member who approves the next consent. */
  useMember(sub: string): AMember {
    const member = this.members.get(sub);
    if (!member) throw new Error(`sandbox: no member ${sub}`);
    this.currentMember = sub;
    return member;
  }

  /** Mints tokens without the OAuth dance (adapter tests and scripts). */
  issueToken(
    input: {
      sub?: string;
      scopes?: string[];
      expiresInSeconds?: number;
      refresh?: boolean;
      refreshExpiresInSeconds?: number;
    } = {},
  ) {
    const sub = input.sub ?? this.currentMember;
    const scopes = input.scopes ?? [
      'openid',
      'profile',
      'email',
      'w_member_social',
      'r_member_postAnalytics',
    ];
    let refreshToken: string | null = null;
    if (input.refresh !== false) {
      refreshToken = `sbx_rt_${randomId(24)}`;
      this.refreshTokens.set(refreshToken, {
        refreshToken,
        sub,
        scopes,
        expiresAt: this.now() + (input.refreshExpiresInSeconds ?? 31_536_000) * 1000,
        revoked: false,
      });
    }
    return this.mintAccessToken({
      sub,
      scopes,
      refreshToken,
      code: null,
      expiresInSeconds: input.expiresInSeconds ?? 5_184_000,
    });
  }

  mintAccessToken(input: {
    sub: string;
    scopes: string[];
    refreshToken: string | null;
    code: string | null;
    expiresInSeconds: number;
  }): AToken {
    const token: AToken = {
      accessToken: `sbx_at_${randomId(24)}`,
      refreshToken: input.refreshToken,
      sub: input.sub,
      scopes: input.scopes,
      expiresAt: this.now() + input.expiresInSeconds * 1000,
      revoked: false,
      code: input.code,
    };
    this.tokens.set(token.accessToken, token);
    return token;
  }

  newPostUrn(kind: ContentKind): string {
    this.nextPostNumber += BigInt(1 + Math.floor(Math.random() * 1000));
    const type = kind === 'video' || kind === 'document' || kind === 'multiImage' ? 'ugcPost' : 'share';
    return `urn:li:${type}:${this.nextPostNumber}`;
  }

  addPost(post: Omit<APost, 'metrics'>): APost {
    const full = {
      ...post,
      metrics: {
        IMPRESSION: null,
        MEMBERS_REACHED: null,
        RESHARE: null,
        REACTION: null,
        COMMENT: null,
        LINK_CLICKS: null,
      },
    } as APost;
    full.metrics = this.metricsFor(full);
    this.posts.set(full.id, full);
    return full;
  }

  /** Published posts, newest first; deleted ones are left out unless asked for. */
  listPosts(options: { includeDeleted?: boolean; author?: string } = {}): APost[] {
    return [...this.posts.values()]
      .filter(
        (p) =>
          (options.includeDeleted || p.deletedAt === null) &&
          (!options.author || p.author === options.author),
      )
      .sort((a, b) => b.createdAt - a.createdAt || (b.id < a.id ? -1 : 1));
  }

  /** Sets a post's analytics; a null count makes that dimension answer empty elements. */
  setMetrics(postUrn: string, counts: Partial<MetricCounts>): void {
    const post = this.posts.get(postUrn);
    if (!post) throw new Error(`sandbox: no post ${postUrn}`);
    post.metrics = { ...post.metrics, ...counts };
  }

  recordRequest(method: string, route: string, path: string): void {
    this.callCounts.set(route, (this.callCounts.get(route) ?? 0) + 1);
    this.requests.push({ at: this.now(), method, route, path });
    if (this.requests.length > REQUEST_LOG_LIMIT)
      this.requests.splice(0, this.requests.length - REQUEST_LOG_LIMIT);
  }

  /** How many requests reached a route (e.g. `createPost`), faulted ones included. */
  calls(route: string): number {
    return this.callCounts.get(route) ?? 0;
  }
}
