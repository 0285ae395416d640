import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { and, type SQL, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { openDatabase } from '../src/db/client.ts';
import { jsonRows } from '../src/db/json-rows.ts';
import { accounts, posts } from '../src/db/schema/index.ts';
import { targetOf, transitionAllowed, transitionEach } from '../src/features/posts/core/transitions.ts';
import { fmt } from './lib.ts';

/**
 * bench/statement-reuse: what building a statement costs the process that sends it. A burst of
 * publishes finalises its outcomes in groups, one batched update of the posts table per group
 * (transitions.ts transitionEach). Before, Drizzle built that statement's text on every call;
 * now it is built once and run through the session it is given (src/db/reusable-statement.ts).
 *
 * Both run the same statement on the same database, in alternating rounds: each round finalises
 * GROUP posts at a time (the size a burst's groups reach), and the bench prints this process's
 * CPU per statement for each, and their ratio. The database's own work is the same for both;
 * only the client's differs. PostgreSQL when DATABASE_URL is set (default local), else PGlite
 * is not used: the figure is about the worker side of a server deployment.
 *
 * BENCH_ROUNDS (default 6), BENCH_STATEMENTS per round (default 400), BENCH_GROUP (default 4).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PER_ROUND = Number(process.env.BENCH_STATEMENTS ?? 400);
const GROUP = Number(process.env.BENCH_GROUP ?? 4);
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** transitionEach as it was: the same statement, built by Drizzle on every call. */
async function builtEachTime(db: Awaited<ReturnType<typeof openDatabase>>['db'], entries: Entry[]) {
  const keys = Object.keys(entries[0]!.changes) as (keyof Entry['changes'])[];
  const columns = keys.map((key) => posts[key]);
  const types: Record<string, string> = { post_id: 'text', claim_token: 'text' };
  for (const column of columns) types[column.name] = column.getSQLType();
  const rows = entries.map(({ id, claimedBy, changes }) => {
    const row: Record<string, unknown> = { post_id: id, claim_token: claimedBy };
    keys.forEach((key, i) => {
      row[columns[i]!.name] = changes[key];
    });
    return row;
  });
  const set: Record<string, SQL> = Object.fromEntries(
    columns.map((column, i) => [keys[i], sql`each_post.${sql.identifier(column.name)}`]),
  );
  return db
    .update(posts)
    .set({ ...set, status: targetOf('succeed') })
    .from(jsonRows('each_post', types, rows))
    .where(
      and(
        transitionAllowed('succeed'),
        sql`${posts.id} = each_post.post_id`,
        sql`${posts.claimedBy} = each_post.claim_token`,
      ),
    )
    .returning();
}

interface Entry {
  id: string;
  claimedBy: string;
  changes: {
    publishedAt: number;
    platformPostId: string;
    platformUrl: string;
    error: null;
    updatedAt: number;
  };
}

const dbName = `postkit_bench_${randomBytes(5).toString('hex')}`;
const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${dbName}`);
const url = new URL(SERVER_URL);
url.pathname = `/${dbName}`;
const database = await openDatabase({ url: url.toString(), poolMax: 2 });
const { db } = database;
try {
  const total = ROUNDS * 2 * PER_ROUND * GROUP + 2 * GROUP;
  await db
    .insert(accounts)
    .values({ id: 'acc_bench', email: 'bench@example.com', emailKey: 'bench@example.com', createdAt: 0 });
  for (let start = 0; start < total; start += 1_000) {
    await db.insert(posts).values(
      Array.from({ length: Math.min(1_000, total - start) }, (_, k) => ({
        id: `post_${start + k}`,
        accountId: 'acc_bench',
        platform: 'platformA',
        status: 'publishing',
        text: 'A post of a usual length, long enough to be a realistic row. '.repeat(6),
        scheduledFor: 1_000,
        claimedAt: 2_000,
        claimedBy: `claim_${start + k}`,
        createdAt: 0,
        updatedAt: 0,
      })),
    );
  }
  let next = 0;
  const group = (): Entry[] =>
    Array.from({ length: GROUP }, () => {
      const n = next++;
      const changes = {
        publishedAt: 3_000,
        platformPostId: `urn:${n}`,
        platformUrl: `https://x/${n}`,
        error: null,
        updatedAt: 3_000,
      };
      return { id: `post_${n}`, claimedBy: `claim_${n}`, changes };
    });
  const ways = {
    'built each call (before)': (entries: Entry[]) => builtEachTime(db, entries),
    'built once (now)': (entries: Entry[]) => transitionEach(db, 'succeed', entries),
  };
  // Warm both (each statement prepared on the connection, the JIT settled).
  for (const run of Object.values(ways)) await run(group());
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(ways)) {
      const before = process.cpuUsage();
      for (let i = 0; i < PER_ROUND; i++) {
        const moved = await run(group());
        if (moved.length !== GROUP) throw new Error(`${name}: ${moved.length} of ${GROUP} moved`);
      }
      const used = process.cpuUsage(before);
      cpu[name]!.push((used.user + used.system) / PER_ROUND);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [before, now] = Object.values(cpu).map(median) as [number, number];
  console.log(
    `bench/statement-reuse: ${ROUNDS} alternating rounds of ${PER_ROUND} outcome statements of ${GROUP} posts (PostgreSQL)`,
  );
  for (const [name, values] of Object.entries(cpu))
    console.log(
      `  ${name.padEnd(26)} ${fmt(median(values))} µs CPU per statement (median; rounds ${values.map((v) => fmt(v)).join(', ')})`,
    );
  console.log(
    `  ratio                      ${(now / before).toFixed(2)} of the CPU before (${fmt((before - now) / GROUP)} µs less per post)`,
  );
  console.log(
    `  load average               ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} at the end (2 cores, shared)`,
  );
  console.log(
    `BENCH_RESULT ${JSON.stringify({ name: 'statement-reuse', group: GROUP, beforeUs: before, nowUs: now, ratio: now / before })}`,
  );
} finally {
  await database.close();
  await admin.unsafe(`drop database ${dbName} with (force)`);
  await admin.end();
}
