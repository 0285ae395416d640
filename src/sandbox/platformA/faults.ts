import { FaultBoard } from '../fault-board.ts';
import type { PlatformAState } from './state.ts';

export type { FaultSpec } from '../fault-board.ts';

/** Route names faults and latency can target ('*' = every platform route). */
export const PLATFORM_A_ROUTES = [
  'authorize',
  'token',
  'userinfo',
  'createPost',
  'getPost',
  'findPosts',
  'deletePost',
  'initImage',
  'initDocument',
  'initVideo',
  'uploadImage',
  'uploadDocument',
  'uploadVideoPart',
  'finalizeVideo',
  'getImage',
  'getDocument',
  'getVideo',
  'analytics',
  'createComment',
  'listComments',
] as const;
export type PlatformARoute = (typeof PLATFORM_A_ROUTES)[number];

/** What a platformA failure adds to the shared ones: the body's `serviceErrorCode`. */
export interface PlatformAFault {
  serviceErrorCode?: number;
}

/** Injectable platformA failures; each also exists as an admin endpoint under /_sandbox/platformA. */
export class PlatformAFaults extends FaultBoard<PlatformARoute, PlatformAFault> {
  private readonly dropsAfterCreate = this.countdown();
  private readonly videoFailures = this.countdown();
  readonly retiredVersions = new Set<string>();
  /** When true, GET /rest/posts?q=author answers 403, as the live platform does for most apps. */
  authorFinderRestricted = false;
  private readonly state: PlatformAState;
  private readonly now: () => number;

  constructor(state: PlatformAState, now: () => number) {
    super();
    this.state = state;
    this.now = now;
  }

  /** The next create request makes the post, then drops the connection: the caller cannot know. */
  dropAfterCreate(times = 1): void {
    this.dropsAfterCreate.arm(times);
  }

  /** The next create requests answer 422 DUPLICATE_POST (nothing is created). */
  duplicateNext(times = 1): void {
    this.inject('createPost', {
      status: 422,
      code: 'DUPLICATE_POST',
      message: 'Content is a duplicate of an existing post',
      times,
    });
  }

  /** Requests sent with this LinkedIn-Version answer 426 NONEXISTENT_VERSION. */
  retireVersion(version: string): void {
    this.retiredVersions.add(version);
  }

  /** The next finalized videos end in PROCESSING_FAILED. */
  failVideoProcessing(times = 1): void {
    this.videoFailures.arm(times);
  }

  /** Revokes an access token (and its refresh token), or every token of a member. */
  revoke(target: string | { sub: string }): number {
    return this.forTokens(target, (t) => {
      t.revoked = true;
      if (t.refreshToken) {
        const rt = this.state.refreshTokens.get(t.refreshToken);
        if (rt) rt.revoked = true;
      }
    });
  }

  /** Makes an access token (or all of a member's) expired now; `refresh: true` expires the refresh token too. */
  expire(target: string | { sub: string }, options: { refresh?: boolean } = {}): number {
    const past = this.now() - 1;
    return this.forTokens(target, (t) => {
      t.expiresAt = past;
      if (options.refresh && t.refreshToken) {
        const rt = this.state.refreshTokens.get(t.refreshToken);
        if (rt) rt.expiresAt = past;
      }
    });
  }

  private forTokens(target: string | { sub: string }, fn: (t: import('./state.ts').AToken) => void): number {
    let n = 0;
    for (const token of this.state.tokens.values()) {
      if (typeof target === 'string' ? token.accessToken === target : token.sub === target.sub) {
        fn(token);
        n++;
      }
    }
    return n;
  }

  /** Removes every injected fault, latency, retired version and restriction. */
  override clear(): void {
    super.clear();
    this.retiredVersions.clear();
    this.authorFinderRestricted = false;
  }

  // --- used by the server ---

  takeDropAfterCreate(): boolean {
    return this.dropsAfterCreate.take();
  }

  takeVideoFailure(): boolean {
    return this.videoFailures.take();
  }

  /** A summary for the admin state endpoint. */
  override describe() {
    return {
      ...super.describe(),
      dropAfterCreate: this.dropsAfterCreate.remaining,
      videoProcessingFailures: this.videoFailures.remaining,
      retiredVersions: [...this.retiredVersions],
      authorFinderRestricted: this.authorFinderRestricted,
    };
  }
}
