import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type postgres from 'postgres';
import type { Db } from '../db/client.ts';
import { SweepName } from './sweep-names.ts';
import type { Wake } from './wake.ts';

/**
 * Wakes across processes, over PostgreSQL LISTEN/NOTIFY. An API process that schedules a post
 * tells the workers when it falls due, so a worker sets its timer for that time instead of
 * finding the post on its next poll.
 *
 * - Sending: every wake of this process (the wake hub's, so also those queued until a commit)
 *   becomes a NOTIFY on the database, after the write that made the work due is committed.
 *   Wakes that arrive while a NOTIFY is in flight are merged into the next one (per sweep, the
 *   earliest time: a sweep woken early finds later rows itself through `nextDueAt`), and
 *   NOTIFYs are at least GAP_MS apart, so a burst of wakes costs a few statements. A NOTIFY
 *   that fails keeps its wakes for the next attempt, a second later.
 * - Receiving (processes that run sweeps): one dedicated connection LISTENs and hands the
 *   wakes of other processes to the runner.
 * - `listening` is true only while this process's own probe, a NOTIFY sent every PROBE_MS
 *   through the ordinary pool, came back on that connection: proof, end to end, that wakes
 *   from elsewhere arrive (a dropped connection, or a pooler that does not carry LISTEN, leaves
 *   it false). While it is false the runner polls as it would without the relay, and whenever
 *   it changes every sweep runs once, so nothing missed meanwhile waits for a poll.
 *
 * Embedded PGlite runs in one process, where the in-process wake hub already reaches the runner.
 */
export const WAKE_CHANNEL = 'postkit_wake';
/** How often the LISTEN connection is proven alive; a broken one is noticed within about twice this. */
const PROBE_MS = 5_000;
/** A NOTIFY that failed (its wakes kept, merged with newer ones) is tried again after this. */
const RETRY_MS = 1_000;
/** At least this long between two NOTIFYs of a process; wakes meanwhile are merged. */
const GAP_MS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/** What travels in a notification. `at` null means now (the receiver's now). */
interface Message {
  from: string;
  wakes?: [SweepName, number | null][];
  probe?: number;
}

export interface WakeRelay {
  /** Sends a wake to the other processes; the hub's target (`hub.listen(relay.send)`). */
  send: Wake;
  /** Starts listening: wakes from other processes go to `target` (this process's runner). */
  receive(target: Wake): Promise<void>;
  /** Whether wakes from other processes reach this one now (see above). */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface WakeRelayOptions {
  url: string;
  /** The process's database handle: notifications are sent through its pool. */
  db: Db;
  /** This process (its instance id): its own notifications are not handed to its runner. */
  origin: string;
  log: Logger;
}

export function createWakeRelay({ url, db, origin, log }: WakeRelayOptions): WakeRelay {
  let closed = false;
  const notify = (message: Message) =>
    db.execute(sql`select pg_notify(${WAKE_CHANNEL}, ${JSON.stringify(message)})`);

  // Sending, one NOTIFY in flight at a time.
  let pending = new Map<SweepName, number | null>();
  let sending = false;
  let warnedAt = 0;
  const queue = (sweep: SweepName, at: number | null) => {
    const queued = pending.get(sweep);
    if (queued === undefined || (queued !== null && (at === null || at < queued))) pending.set(sweep, at);
  };
  const flush = async () => {
    while (pending.size > 0 && !closed) {
      const wakes = [...pending];
      pending = new Map();
      try {
        await notify({ from: origin, wakes });
        // Busy emitters (an event per commit) would otherwise NOTIFY back to back.
        await sleep(GAP_MS);
      } catch (err) {
        // A listening worker no longer polls every second: keep the wakes and try again.
        for (const [sweep, at] of wakes) queue(sweep, at);
        if (Date.now() - warnedAt > 60_000) {
          warnedAt = Date.now();
          log.warn({ err }, 'could not notify other processes of due work; retrying');
        }
        await sleep(RETRY_MS);
      }
    }
    sending = false;
  };
  const send: Wake = (sweep, atMs) => {
    queue(sweep, atMs ?? null);
    if (!sending) {
      sending = true;
      void flush();
    }
  };

  // Receiving.
  let target: Wake | null = null;
  let client: postgres.Sql | null = null;
  let listening = false;
  let probeSeq = 0;
  let echoed = 0;
  let timer: NodeJS.Timeout | null = null;

  const catchUp = () => {
    for (const sweep of Object.values(SweepName)) target?.(sweep);
  };
  const setListening = (now: boolean) => {
    if (now === listening) return;
    listening = now;
    log.info(
      { listening },
      now ? 'wakes from other processes arrive' : 'wakes from other processes lost; polling',
    );
    catchUp();
  };

  const onNotify = (payload: string) => {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.from === origin) {
      if (message.probe !== undefined && message.probe >= echoed) {
        echoed = message.probe;
        setListening(true);
      }
      return;
    }
    for (const [sweep, at] of message.wakes ?? []) target?.(sweep, at ?? undefined);
  };

  const connect = async () => {
    const old = client;
    client = null;
    if (old) void old.end({ timeout: 0 }).catch(() => {});
    // Loaded here, not at the top: an embedded (PGlite) process never needs the driver.
    const { default: connectPostgres } = await import('postgres');
    const next = connectPostgres(url, {
      max: 1,
      max_lifetime: null,
      connect_timeout: 2,
      onnotice: () => {},
      connection: { application_name: 'postkit-wake-listener' },
    });
    let relistened = false;
    try {
      // postgres.js keeps a dedicated connection for it and listens again after a reconnect
      // (if that fails, the probe below notices and this runs again). Wakes sent while it
      // was away are lost, so every sweep runs once when it is back.
      await next.listen(WAKE_CHANNEL, onNotify, () => {
        if (relistened) catchUp();
        relistened = true;
      });
      client = next;
    } catch (err) {
      void next.end({ timeout: 0 }).catch(() => {});
      log.warn({ err }, 'could not listen for wakes from other processes; polling');
    }
  };

  const probe = async () => {
    if (closed) return;
    // The previous probe never came back: the connection is dead or does not carry LISTEN.
    if (probeSeq > echoed || !client) {
      setListening(false);
      await connect();
    }
    if (closed) return;
    probeSeq += 1;
    await notify({ from: origin, probe: probeSeq }).catch(() => {});
  };

  return {
    send,
    async receive(to) {
      target = to;
      await connect();
      await probe();
      timer = setInterval(() => void probe(), PROBE_MS);
      timer.unref();
    },
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      const current = client;
      client = null;
      listening = false;
      await current?.end({ timeout: 1 }).catch(() => {});
    },
  };
}
