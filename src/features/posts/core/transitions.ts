import { and, eq, isNotNull, isNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../../db/client.ts';
import { jsonRecordset, jsonRowsText } from '../../../db/json-rows.ts';
import { type ReusableStatement, reusableStatement } from '../../../db/reusable-statement.ts';
import { posts } from '../../../db/schema/index.ts';
import type { PostStatus } from '../../../domain/enums.ts';
import { IN_REVIEW_STATES, type PostRow } from './post-row.ts';

/**
 * The post state machine, in one table. A post is created as `draft` or `scheduled`; every
 * later write that depends on its state goes through `transitionPost`, which checks this table
 * and does the compare-and-set in SQL (`WHERE status IN (...)`), so two processes can never
 * both move a post out of the same state. Exactly once rests on three of these rows:
 * - `publish_now` / `fall_due` are the only ways into `publishing` (the claim), each taking a
 *   fresh claim token; every later write of that publish also matches the token.
 * - `send_create` records `createSentAt` before a create leaves; from then on `cancel` no
 *   longer applies and the publish ends `published` or `failed`, never sent again.
 * - `record_part` writes a published part's platform id (and clears `createSentAt`) before the
 *   next part of a thread or the first comment is sent, so a publish resumes after it.
 * - `recover` re-takes a `publishing` post whose claim lease lapsed (its process died), or
 *   whose look-up was put off (`defer_lookup`) until `retryAt`.
 * - `defer_lookup` releases a recovered post whose create is in doubt while the platform cannot
 *   answer yet: it stays `publishing` with `createSentAt`, never sent again until a look-up says so.
 * `published`, `failed` and `canceled` are terminal: nothing leaves them (delete removes the row).
 */
export type PostEvent =
  | 'edit'
  | 'revise'
  | 'schedule'
  | 'publish_now'
  | 'fall_due'
  | 'send_create'
  | 'record_part'
  | 'renew_claim'
  | 'recover'
  | 'defer_lookup'
  | 'succeed'
  | 'fail'
  | 'retry'
  | 'cancel';

interface Transition {
  to: PostStatus;
  /** Why the event moves the post, for readers and the docs' diagram. */
  because: string;
  /** A further condition on the row, checked in the same statement. */
  only?: () => SQL;
  /** `only` in words, for the diagram. */
  onlyIf?: string;
}

/** No part has reached the platform: nothing published yet, no create on its way. */
const nothingSent = () => and(isNull(posts.createSentAt), isNull(posts.platformPostId))!;
/**
 * A post submitted for review and not approved (pending, or sent back with changes asked) waits:
 * nothing an editor does reaches a platform before an approval (src/features/approvals).
 */
const notInReview = () =>
  or(isNull(posts.approvalState), notInArray(posts.approvalState, [...IN_REVIEW_STATES]))!;
/** A post waiting to retry may already have published the first parts of its thread. */
const nothingPublished = () => isNull(posts.platformPostId);

export const POST_TRANSITIONS: Record<PostStatus, Partial<Record<PostEvent, Transition>>> = {
  draft: {
    edit: { to: 'draft', because: 'PATCH changes a draft' },
    schedule: { to: 'scheduled', because: 'POST /schedule sets a time' },
    publish_now: { to: 'publishing', because: 'POST /publish claims it' },
    cancel: { to: 'canceled', because: 'POST /cancel' },
  },
  scheduled: {
    schedule: { to: 'scheduled', because: 'POST /schedule sets a new time' },
    revise: {
      to: 'scheduled',
      because: 'PATCH /scheduled changes its parts before its publish starts',
      only: nothingSent,
      onlyIf: 'nothing sent',
    },
    publish_now: { to: 'publishing', because: 'POST /publish claims it' },
    fall_due: {
      to: 'publishing',
      because: 'the publish sweep claims it at its time',
      only: notInReview,
      onlyIf: 'not waiting for review',
    },
    cancel: {
      to: 'canceled',
      because: 'POST /cancel',
      only: nothingPublished,
      onlyIf: 'no part published',
    },
  },
  publishing: {
    send_create: { to: 'publishing', because: 'createSentAt is recorded before the create leaves' },
    record_part: { to: 'publishing', because: 'a part’s id is recorded before the next part is sent' },
    renew_claim: { to: 'publishing', because: 'the heartbeat renews the claim' },
    recover: { to: 'publishing', because: 'the sweep takes over a lapsed claim or a put-off look-up' },
    defer_lookup: {
      to: 'publishing',
      because: 'the platform cannot say yet whether a create in doubt landed',
      only: () => isNotNull(posts.createSentAt),
      onlyIf: 'a create in doubt',
    },
    succeed: { to: 'published', because: 'the platform created it (or recovery found it)' },
    fail: { to: 'failed', because: 'refused, given up, or outcome unknown' },
    retry: { to: 'scheduled', because: 'a transient failure before the platform acted' },
    cancel: {
      to: 'canceled',
      because: 'POST /cancel before the create is sent',
      only: nothingSent,
      onlyIf: 'nothing sent',
    },
  },
  published: {},
  failed: {},
  canceled: {},
};

const STATES = Object.keys(POST_TRANSITIONS) as PostStatus[];

/** The states an event applies to. */
export const statesAllowing = (event: PostEvent): PostStatus[] =>
  STATES.filter((state) => POST_TRANSITIONS[state][event] !== undefined);

/** Each event's target, worked out once (every write of a publish asks). */
const TARGETS = new Map<PostEvent, PostStatus>();

/** The one state an event leads to (checked below: no event has two targets). */
export function targetOf(event: PostEvent): PostStatus {
  const known = TARGETS.get(event);
  if (known) return known;
  const targets = new Set(statesAllowing(event).map((state) => POST_TRANSITIONS[state][event]!.to));
  if (targets.size !== 1) throw new Error(`post event ${event} must lead to exactly one state`);
  const target = [...targets][0]!;
  TARGETS.set(event, target);
  return target;
}

/** Whether `event` applies to a post in `status` (before any `only` condition, which SQL checks). */
export const allows = (status: string, event: PostEvent): boolean =>
  POST_TRANSITIONS[status as PostStatus]?.[event] !== undefined;

/** States nothing leaves. */
export const TERMINAL_STATES: PostStatus[] = STATES.filter(
  (state) => Object.keys(POST_TRANSITIONS[state]).length === 0,
);

/** The SQL condition "the row is in a state `event` applies to, and meets that state's `only`". */
export function transitionAllowed(event: PostEvent): SQL {
  return allowedWhere(event, (state) => eq(posts.status, state));
}

/**
 * `transitionAllowed` for a statement that finds its posts by primary key (a batch of
 * create-sent marks or outcomes, joined on `posts.id`), in a form no index can serve. Written
 * plainly, `status = 'publishing'` matches the due index (partial on scheduled and publishing),
 * and when the statistics were taken before a burst (no post publishing then) the planner
 * takes that range for nearly empty and scans all of it for every batch instead of probing
 * the primary key. A burst fills that range with the dead entries of every post that passed
 * through it, so each batch cost more than the one before (docs/performance-notes.md,
 * "bench/publish", fifth pass). Same rows, same result.
 */
export function transitionAllowedByKey(event: PostEvent): SQL {
  return allowedWhere(event, (state) => sql`(${posts.status} || '') = ${state}`);
}

function allowedWhere(event: PostEvent, inState: (state: PostStatus) => SQL): SQL {
  const clauses = statesAllowing(event).map((state) => {
    const only = POST_TRANSITIONS[state][event]!.only;
    return only ? and(inState(state), only())! : inState(state);
  });
  return clauses.length === 1 ? clauses[0]! : or(...clauses)!;
}

/** What a transition writes besides the status (the table decides that). */
export type PostChanges = Omit<PgUpdateSetSource<typeof posts>, 'status'>;

/**
 * The guarded update: applies `event` to the posts matching `where` that are in a state the
 * table allows, writing `changes` and the event's target state in one statement. Returns the
 * rows that moved; none means the post was not (or no longer) in such a state.
 */
export async function transitionPost(
  db: DbOrTx,
  event: PostEvent,
  where: SQL | undefined,
  changes: PostChanges = {},
): Promise<PostRow[]> {
  return db
    .update(posts)
    .set({ ...changes, status: targetOf(event) })
    .where(and(transitionAllowed(event), where))
    .returning();
}

/** `transitionPost` when only which posts moved matters: their ids, no rows to read back. */
export async function transitionPostIds(
  db: DbOrTx,
  event: PostEvent,
  where: SQL | undefined,
  changes: PostChanges = {},
): Promise<string[]> {
  const rows = await db
    .update(posts)
    .set({ ...changes, status: targetOf(event) })
    .where(and(transitionAllowed(event), where))
    .returning({ id: posts.id });
  return rows.map((row) => row.id);
}

/** One post of `transitionEach`: its id, the claim token it must still carry, what to write. */
export interface EachChange {
  id: string;
  claimedBy: string;
  changes: PostChanges;
}

/**
 * `transitionPost` for many posts in one statement, each with values of its own (a batch of
 * outcomes). Every entry writes the same columns, as plain values; each post moves only if the
 * table allows `event` from its state and it still carries the entry's claim token. The
 * statement is built once per event and set of columns (reusable-statement.ts): a burst runs it
 * for every group of outcomes.
 */
export async function transitionEach(
  db: DbOrTx,
  event: PostEvent,
  entries: EachChange[],
): Promise<PostRow[]> {
  if (entries.length === 0) return [];
  const keys = Object.keys(entries[0]!.changes) as ChangedKey[];
  const statement = eachStatement(event, keys);
  const rows = entries.map(({ id, claimedBy, changes }) => {
    if (Object.keys(changes).length !== keys.length || !keys.every((key) => key in changes))
      throw new TypeError('transitionEach: same columns in every entry');
    const row: Record<string, unknown> = { post_id: id, claim_token: claimedBy };
    keys.forEach((key, i) => {
      row[statement.names[i]!] = changes[key];
    });
    return row;
  });
  return statement.run(db, { rows: jsonRowsText(statement.types, rows) });
}

type ChangedKey = keyof PostChanges & keyof typeof posts.$inferSelect;

interface EachStatement {
  /** The column name of each key, in order. */
  names: string[];
  types: Record<string, string>;
  run: ReusableStatement<{ rows: string }, PostRow[]>;
}

const eachStatements = new Map<string, EachStatement>();

function eachStatement(event: PostEvent, keys: ChangedKey[]): EachStatement {
  const shape = `${event}:${keys.join()}`;
  let statement = eachStatements.get(shape);
  if (statement) return statement;
  const columns = keys.map((key) => posts[key] as PgColumn);
  const types: Record<string, string> = { post_id: 'text', claim_token: 'text' };
  for (const column of columns) types[column.name] = column.getSQLType();
  const set = Object.fromEntries(
    columns.map((column, i) => [keys[i], sql`each_post.${sql.identifier(column.name)}`]),
  );
  const run = reusableStatement<{ rows: string }, PostRow[]>(
    `postkit_each_${eachStatements.size}`,
    (handle) =>
      handle
        .update(posts)
        .set({ ...set, status: targetOf(event) })
        .from(jsonRecordset('each_post', types, sql.placeholder('rows')))
        .where(
          and(
            transitionAllowedByKey(event),
            sql`${posts.id} = each_post.post_id`,
            sql`${posts.claimedBy} = each_post.claim_token`,
          ),
        )
        .returning(),
  );
  statement = { names: columns.map((column) => column.name), types, run };
  eachStatements.set(shape, statement);
  return statement;
}

// Fail at load, not at the first publish, if the table gives an event two targets.
for (const state of STATES)
  for (const event of Object.keys(POST_TRANSITIONS[state])) targetOf(event as PostEvent);
