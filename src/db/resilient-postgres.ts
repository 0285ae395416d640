import type { FastifyBaseLogger as Logger } from 'fastify';
import type postgres from 'postgres';

/**
 * Bounded waits on PostgreSQL, whatever the network does.
 *
 * postgres.js has a connect timeout but no query or acquire timeout: a query on a connection
 * whose peer went silent (a frozen network, a hung server) waits forever, and so does every
 * query queued behind it. This wraps the client drizzle uses:
 *
 * - Every statement and every transaction's connection acquisition is tracked. When one has
 *   waited `stallMs`, a probe (`select 1` on a fresh connection, `probeTimeoutMs`) asks whether
 *   the server is reachable at all. A connection error on any statement triggers the same probe.
 * - A failed probe marks the database unavailable and replaces the pool: the old one's
 *   connections are destroyed, so everything waiting on them fails at once with a connection
 *   error (503 `dependency_unavailable` at the HTTP edge, a logged retry in the sweeps).
 * - While unavailable, statements fail at once instead of queueing, and the probe repeats every
 *   `recheckMs`; the first success restores service.
 * - A statement that outlives `hardDeadlineMs` (the server-side `statement_timeout` plus a
 *   margin) although the server answers probes is on a dead connection: the pool is replaced.
 *
 * The server-side `statement_timeout` is what bounds a slow but live query.
 */
export interface ResilienceOptions {
  stallMs: number;
  probeTimeoutMs: number;
  recheckMs: number;
  hardDeadlineMs: number;
}

type Sql = postgres.Sql;
type Thenable = PromiseLike<unknown> & { values(): Thenable };

export class DatabaseUnavailableError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

const CONNECTION_ERROR =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|CONNECT_TIMEOUT|CONNECTION_CLOSED|57P01|57P03)$/;

export interface ResilientClient {
  /** What drizzle is given: `unsafe`, `begin` and `options`, forwarded to the live pool. */
  client: Sql;
  /** True while the last probe failed. */
  readonly unavailable: boolean;
  close(): Promise<void>;
}

export function resilientClient(
  createPool: () => Sql,
  probe: () => Promise<void>,
  options: ResilienceOptions,
  log?: Logger,
): ResilientClient {
  let pool = createPool();
  let unavailable = false;
  let lastFailure: unknown;
  let probing: Promise<boolean> | null = null;
  let closed = false;
  let nextToken = 0;
  const inFlight = new Map<number, number>();
  let watchdog: NodeJS.Timeout | null = null;

  const replacePool = (why: string) => {
    const old = pool;
    pool = createPool();
    log?.warn({ why, inFlight: inFlight.size }, 'replacing the database pool');
    void old.end({ timeout: 0 }).catch(() => {});
  };

  const runProbe = (): Promise<boolean> => {
    probing ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          probe(),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new DatabaseUnavailableError(`no answer within ${options.probeTimeoutMs} ms`)),
              options.probeTimeoutMs,
            );
          }),
        ]);
        if (unavailable) log?.warn('database reachable again');
        unavailable = false;
        return true;
      } catch (err) {
        lastFailure = err;
        if (!unavailable) {
          unavailable = true;
          log?.error({ err }, 'database unreachable; failing fast until it answers');
          replacePool('probe failed');
        }
        return false;
      } finally {
        clearTimeout(timer);
        probing = null;
        arm();
      }
    })();
    return probing;
  };

  const tick = () => {
    watchdog = null;
    if (closed) return;
    if (unavailable) {
      void runProbe();
      return;
    }
    const now = Date.now();
    let oldest = now;
    for (const started of inFlight.values()) oldest = Math.min(oldest, started);
    const age = now - oldest;
    if (age >= options.hardDeadlineMs) {
      replacePool(`a statement waited ${age} ms on a server that answers probes`);
      inFlight.clear();
    } else if (age >= options.stallMs && !probing) void runProbe();
    arm();
  };

  function arm() {
    if (watchdog || closed || (!unavailable && inFlight.size === 0)) return;
    watchdog = setTimeout(tick, unavailable ? options.recheckMs : Math.min(250, options.stallMs));
    watchdog.unref();
  }

  const refuse = () =>
    Promise.reject(
      new DatabaseUnavailableError(
        'The database is unreachable; failing fast until it answers.',
        lastFailure,
      ),
    );

  /** Runs one wait (a statement, or a transaction's acquisition) under the watchdog. */
  async function tracked<T>(start: () => PromiseLike<T>): Promise<T> {
    if (unavailable) return refuse() as Promise<T>;
    const token = nextToken++;
    inFlight.set(token, Date.now());
    arm();
    try {
      return await start();
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && CONNECTION_ERROR.test(code) && !probing) void runProbe();
      throw err;
    } finally {
      inFlight.delete(token);
    }
  }

  /** A lazy stand-in for postgres.js's PendingQuery: runs on `then`, honours `.values()`. */
  const statement = (scope: () => Sql, args: Parameters<Sql['unsafe']>): Thenable => {
    let values = false;
    const lazy: Thenable = {
      values() {
        values = true;
        return lazy;
      },
      // biome-ignore lint/suspicious/noThenProperty: drizzle awaits this object like the PendingQuery it stands for.
      then(onFulfilled, onRejected) {
        return tracked(() => {
          // Named, cached prepared statements (drizzle asks for unnamed ones): postgres.js
          // then sends a repeated statement in one round trip, where an unnamed statement
          // with parameters costs two (describe its parameter types, then bind and execute).
          const [text, params, opts] = args;
          const query = scope().unsafe(text, params, { ...opts, prepare: true });
          return values ? query.values() : query;
        }).then(onFulfilled, onRejected);
      },
    };
    return lazy;
  };

  /** A transaction's (or savepoint's) handle: its statements are tracked one by one. */
  const wrapScope = (sql: Sql): Sql =>
    ({
      unsafe: (...args: Parameters<Sql['unsafe']>) => statement(() => sql, args),
      savepoint: (fn: (inner: Sql) => unknown) =>
        (sql as unknown as postgres.TransactionSql).savepoint((inner) =>
          fn(wrapScope(inner as unknown as Sql)),
        ),
      options: sql.options,
    }) as unknown as Sql;

  const client = {
    unsafe: (...args: Parameters<Sql['unsafe']>) => statement(() => pool, args),
    begin: (...args: unknown[]) => {
      const fn = args.pop() as (tx: Sql) => unknown;
      let acquired!: () => void;
      const acquiring = new Promise<void>((resolve) => {
        acquired = resolve;
      });
      let result: Promise<unknown> | undefined;
      // Only the wait for a connection (and BEGIN) is one tracked wait; the statements inside
      // are tracked one by one, so a long transaction of quick statements is not a stall.
      return tracked(() => {
        const current = pool;
        result = (current.begin as (...a: unknown[]) => Promise<unknown>)(...args, (tx: Sql) => {
          acquired();
          return fn(wrapScope(tx));
        });
        return Promise.race([acquiring, result]);
      }).then(() => result);
    },
    get options() {
      return pool.options;
    },
  } as unknown as Sql;

  return {
    client,
    get unavailable() {
      return unavailable;
    },
    async close() {
      closed = true;
      if (watchdog) clearTimeout(watchdog);
      await pool.end({ timeout: 5 });
    },
  };
}
