/**
 * Injectable failures and latency per route, for any emulated platform: each platform's
 * faults class extends this with its own shortcuts (duplicates, expired tokens, ...).
 */
/** What every lane's injected failure can say; a lane adds its own fields (`X`). */
export interface BaseFault {
  /** HTTP status to answer with (ignored when `drop`). */
  status?: number;
  /** The body's `code` (REST) or `error` (OAuth), e.g. DUPLICATE_POST. Defaults follow the status; null omits it. */
  code?: string | null;
  message?: string;
  /** Close the connection without answering, before doing the work. */
  drop?: boolean;
  /** How many requests it hits; Infinity = until cleared. Default 1. */
  times?: number;
  /** Requests to let through untouched before it starts hitting (e.g. 2: the third create fails). Default 0. */
  after?: number;
}

/** A failure to inject: the shared fields and the lane's own (platformA's service code, platformB's reset time). */
export type FaultSpec<X extends object = object> = BaseFault & X;

export type ArmedFault<R extends string, X extends object = object> = FaultSpec<X> & {
  route: R | '*';
  remaining: number;
};

/**
 * A one-off failure that is not an HTTP answer (a dropped connection after the work, a media
 * job that ends failed): armed for the next `times` occasions, after letting `after` through.
 */
export class Countdown {
  private left = 0;
  private skip = 0;

  arm(times: number, after = 0): void {
    this.left += times;
    this.skip = after;
  }

  /** Whether this occasion is hit; counts it either way. */
  take(): boolean {
    if (this.left <= 0) return false;
    if (this.skip > 0) {
      this.skip--;
      return false;
    }
    this.left--;
    return true;
  }

  get remaining(): number {
    return this.left;
  }

  clear(): void {
    this.left = 0;
    this.skip = 0;
  }
}

export class FaultBoard<R extends string, X extends object = object> {
  private armed: ArmedFault<R, X>[] = [];
  private readonly countdowns: Countdown[] = [];
  private latencies = new Map<string, number>();

  /** Answers the next `times` (default 1) requests to `route` with `status`. */
  failNext(route: R | '*', status: number, spec?: Omit<FaultSpec<X>, 'status'>): void {
    this.inject(route, { ...spec, status } as FaultSpec<X>);
  }

  /** Answers every request to `route` with `status` until `clear()`. */
  failAlways(route: R | '*', status: number, spec?: Omit<FaultSpec<X>, 'status' | 'times'>): void {
    this.inject(route, { ...spec, status, times: Number.POSITIVE_INFINITY } as FaultSpec<X>);
  }

  /** Closes the connection of the next `times` requests to `route` without doing anything. */
  dropNext(route: R | '*', times = 1): void {
    this.inject(route, { drop: true, times } as FaultSpec<X>);
  }

  inject(route: R | '*', spec: FaultSpec<X>): void {
    const times = spec.times ?? 1;
    if (!(times > 0)) throw new Error('sandbox: fault times must be positive');
    if (!spec.drop && !(Number.isInteger(spec.status) && spec.status! >= 400 && spec.status! <= 599)) {
      throw new Error('sandbox: a fault needs an HTTP error status (400-599) or drop: true');
    }
    this.armed.push({ ...spec, route, remaining: times });
  }

  /** Waits `ms` before answering requests to `route` (or every route). 0 removes it. */
  latency(ms: number, route: R | '*' = '*'): void {
    if (ms <= 0) this.latencies.delete(route);
    else this.latencies.set(route, ms);
  }

  /** Removes every injected fault, countdown and latency. */
  clear(): void {
    this.armed = [];
    this.latencies.clear();
    for (const c of this.countdowns) c.clear();
  }

  /** A lane's own one-off failure, cleared with the rest. */
  protected countdown(): Countdown {
    const c = new Countdown();
    this.countdowns.push(c);
    return c;
  }

  takeFault(route: R): ArmedFault<R, X> | null {
    const index = this.armed.findIndex((f) => f.route === route || f.route === '*');
    if (index < 0) return null;
    const fault = this.armed[index]!;
    if ((fault.after ?? 0) > 0) {
      fault.after! -= 1;
      return null;
    }
    fault.remaining--;
    if (fault.remaining <= 0) this.armed.splice(index, 1);
    return fault;
  }

  latencyFor(route: R): number {
    return (this.latencies.get(route) ?? 0) + (this.latencies.get('*') ?? 0);
  }

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
    };
  }
}
