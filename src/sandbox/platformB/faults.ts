import { FaultBoard } from '../fault-board.ts';
import type { PlatformBState } from './state.ts';

/** platformB route names faults and latency can target ('*' = every platformB route). */
export const PLATFORM_B_ROUTES = [
  'authorize',
  'token',
  'me',
  'createTweet',
  'deleteTweet',
  'getTweet',
  'listTweets',
  'mediaInit',
  'mediaAppend',
  'mediaFinalize',
  'mediaStatus',
] as const;
export type PlatformBRoute = (typeof PLATFORM_B_ROUTES)[number];

/** What a platformB failure adds to the shared ones: a 429's reset, in seconds from now (default 1). */
export interface PlatformBFault {
  resetInSeconds?: number;
}

export const DUPLICATE_MESSAGE = 'You are not allowed to create a Tweet with duplicate content.';

/** Injectable platformB failures; each also exists as an admin endpoint under /_sandbox/platformB. */
export class PlatformBFaults extends FaultBoard<PlatformBRoute, PlatformBFault> {
  private readonly dropsAfterCreate = this.countdown();
  private readonly mediaFailures = this.countdown();
  private readonly state: PlatformBState;
  private readonly now: () => number;

  constructor(state: PlatformBState, now: () => number) {
    super();
    this.state = state;
    this.now = now;
  }

  /** The next creates answer 403 duplicate content (nothing is created). */
  duplicateNext(times = 1): void {
    this.inject('createTweet', { status: 403, message: DUPLICATE_MESSAGE, times });
  }

  /**
   * The next requests to `route` answer 429 with `x-rate-limit-reset` `resetInSeconds` from now;
   * `after` lets that many through first (after: 2 on createTweet: a thread's third part is limited).
   */
  rateLimitNext(
    route: PlatformBRoute | '*',
    options: { times?: number; resetInSeconds?: number; after?: number } = {},
  ): void {
    this.inject(route, {
      status: 429,
      times: options.times ?? 1,
      resetInSeconds: options.resetInSeconds ?? 1,
      after: options.after ?? 0,
    });
  }

  /**
   * The next create makes the post, then drops the connection: the caller cannot know.
   * `after` lets that many creates answer normally first (after: 1 hits a thread's second part).
   */
  dropAfterCreate(times = 1, after = 0): void {
    this.dropsAfterCreate.arm(times, after);
  }

  /** The next finalized videos or GIFs end in processing state `failed`. */
  failMediaProcessing(times = 1): void {
    this.mediaFailures.arm(times);
  }

  /** Expires an access token (or every token of a member) now; refresh tokens stay usable. */
  expire(target: string | { userId: string }): number {
    return this.forTokens(target, (t) => {
      t.expiresAt = this.now() - 1;
    });
  }

  /** Revokes an access token's whole family (or every family of a member): the member must reconnect. */
  revoke(target: string | { userId: string }): number {
    return this.forTokens(target, (t) => this.state.endFamily(t.family));
  }

  private forTokens(
    target: string | { userId: string },
    fn: (t: import('./model.ts').BToken) => void,
  ): number {
    let n = 0;
    for (const token of [...this.state.tokens.values()]) {
      if (typeof target === 'string' ? token.accessToken === target : token.userId === target.userId) {
        fn(token);
        n++;
      }
    }
    return n;
  }

  takeDropAfterCreate(): boolean {
    return this.dropsAfterCreate.take();
  }

  takeMediaFailure(): boolean {
    return this.mediaFailures.take();
  }

  override describe() {
    return {
      ...super.describe(),
      dropAfterCreate: this.dropsAfterCreate.remaining,
      mediaProcessingFailures: this.mediaFailures.remaining,
    };
  }
}
