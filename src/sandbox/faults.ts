import type { SandboxState } from './state.ts';

/** Route names faults and latency can target ('*' = every platform route). */
export const SANDBOX_ROUTES = [
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
] as const;
export type SandboxRoute = (typeof SANDBOX_ROUTES)[number];

export interface FaultSpec {
  /** HTTP status to answer with (ignored when `drop`). */
  status?: number;
  /** The body's `code` (REST) or `error` (OAuth), e.g. DUPLICATE_POST. Defaults follow the status; null omits it. */
  code?: string | null;
  message?: string;
  serviceErrorCode?: number;
  /** Close the connection without answering, before doing the work. */
  drop?: boolean;
  /** How many requests it hits; Infinity = until cleared. Default 1. */
  times?: number;
}

interface ArmedFault extends FaultSpec {
  route: SandboxRoute | '*';
  remaining: number;
}

/** Injectable failures. Each method also exists as an admin endpoint under /_sandbox. */
export class SandboxFaults {
  private armed: ArmedFault[] = [];
  private latencies = new Map<string, number>();
  private dropsAfterCreate = 0;
  private videoFailures = 0;
  readonly retiredVersions = new Set<string>();
  /** When true, GET /rest/posts?q=author answers 403, as the live platform does for most apps. */
  authorFinderRestricted = false;
  private readonly state: SandboxState;
  private readonly now: () => number;

  constructor(state: SandboxState, now: () => number) {
    this.state = state;
    this.now = now;
  }

  /** Answers the next `times` (default 1) requests to `route` with `status`. */
  failNext(route: SandboxRoute | '*', status: number, spec: Omit<FaultSpec, 'status'> = {}): void {
    this.inject(route, { ...spec, status });
  }

  /** Answers every request to `route` with `status` until `clear()`. */
  failAlways(
    route: SandboxRoute | '*',
    status: number,
    spec: Omit<FaultSpec, 'status' | 'times'> = {},
  ): void {
    this.inject(route, { ...spec, status, times: Number.POSITIVE_INFINITY });
  }

  /** Closes the connection of the next `times` requests to `route` without doing anything. */
  dropNext(route: SandboxRoute | '*', times = 1): void {
    this.inject(route, { drop: true, times });
  }

  inject(route: SandboxRoute | '*', spec: FaultSpec): void {
    const times = spec.times ?? 1;
    if (!(times > 0)) throw new Error('sandbox: fault times must be positive');
    if (!spec.drop && !(Number.isInteger(spec.status) && spec.status! >= 400 && spec.status! <= 599)) {
      throw new Error('sandbox: a fault needs an HTTP error status (400-599) or drop: true');
    }
    this.armed.push({ ...spec, route, remaining: times });
  }

  /** The next create request makes the post, then drops the connection: the caller cannot know. */
  dropAfterCreate(times = 1): void {
    this.dropsAfterCreate += times;
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

  /** Waits `ms` before answering requests to `route` (or every route). 0 removes it. */
  latency(ms: number, route: SandboxRoute | '*' = '*'): void {
    if (ms <= 0) this.latencies.delete(route);
    else this.latencies.set(route, ms);
  }

  /** Requests sent with this LinkedIn-Version answer 426 NONEXISTENT_VERSION. */
  retireVersion(version: string): void {
    this.retiredVersions.add(version);
  }

  /** The next finalized videos end in PROCESSING_FAILED. */
  failVideoProcessing(times = 1): void {
    this.videoFailures += times;
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

  private forTokens(
    target: string | { sub: string },
    fn: (t: import('./state.ts').SandboxToken) => void,
  ): number {
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
  clear(): void {
    this.armed = [];
    this.latencies.clear();
    this.dropsAfterCreate = 0;
    this.videoFailures = 0;
    this.retiredVersions.clear();
    this.authorFinderRestricted = false;
  }

  // --- used by the server ---

  takeFault(route: SandboxRoute): ArmedFault | null {
    const index = this.armed.findIndex((f) => f.route === route || f.route === '*');
    if (index < 0) return null;
    const fault = this.armed[index]!;
    fault.remaining--;
    if (fault.remaining <= 0) this.armed.splice(index, 1);
    return fault;
  }

  latencyFor(route: SandboxRoute): number {
    return (this.latencies.get(route) ?? 0) + (this.latencies.get('*') ?? 0);
  }

  takeDropAfterCreate(): boolean {
    if (this.dropsAfterCreate <= 0) return false;
    this.dropsAfterCreate--;
    return true;
  }

  takeVideoFailure(): boolean {
    if (this.videoFailures <= 0) return false;
    this.videoFailures--;
    return true;
  }

  /** A summary for the admin state endpoint. */
  describe() {
    return {
      faults: this.armed.map(({ route, status, code, drop, remaining }) => ({
        route,
        status: status ?? null,
        code: code ?? null,
        drop: Boolean(drop),
        remaining: Number.isFinite(remaining) ? remaining : 'always',
      })),
      latency: Object.fromEntries(this.latencies),
      dropAfterCreate: this.dropsAfterCreate,
      videoProcessingFailures: this.videoFailures,
      retiredVersions: [...this.retiredVersions],
      authorFinderRestricted: this.authorFinderRestricted,
    };
  }
}
