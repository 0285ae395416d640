import { createHash } from 'node:crypto';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { historyPosts, metricSnapshots, posts } from '../../db/schema/index.ts';

/**
 * The author's history as one list: imported rows, plus every post published through Postkit
 * that has a metric snapshot, read at query time with its latest counters (so they stay live
 * and nothing is copied; docs/decisions.md). An imported row with the same text as such a post
 * is shadowed by it: one post is listed once.
 */

/** White space runs, spelled out so JavaScript and PostgreSQL collapse exactly the same characters. */
const SPACE_RUN = '[ \t\n\r\f\v]+';
const SPACE_RUN_JS = new RegExp(SPACE_RUN, 'g');

/** "The same text": md5 of the text with white space runs collapsed to one space and trimmed. */
export function textKey(text: string): string {
  const collapsed = text.replace(SPACE_RUN_JS, ' ').replace(/^ | $/g, '');
  return createHash('md5').update(collapsed, 'utf8').digest('hex');
}

/** The same key computed by PostgreSQL over a text column. */
const sqlTextKey = (column: SQL | typeof posts.text) =>
  sql`md5(btrim(regexp_replace(${column}, ${SPACE_RUN}, ' ', 'g'), ' '))`;

export interface HistoryRow {
  id: string;
  source: 'import' | 'postkit';
  postId: string | null;
  text: string;
  platform: string;
  publishedAt: number | null;
  publishedTimeKnown: boolean;
  media: string | null;
  reactions: number | null;
  comments: number | null;
  shares: number | null;
  impressions: number | null;
  clicks: number | null;
  createdAt: number;
  updatedAt: number;
}

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function latestSnapshots(db: Db, accountId: string) {
  return db
    .selectDistinctOn([metricSnapshots.postId], {
      postId: metricSnapshots.postId,
      impressions: metricSnapshots.impressions,
      likes: metricSnapshots.likes,
      comments: metricSnapshots.comments,
      shares: metricSnapshots.shares,
      clicks: metricSnapshots.clicks,
      fetchedAt: metricSnapshots.fetchedAt,
    })
    .from(metricSnapshots)
    .where(eq(metricSnapshots.accountId, accountId))
    .orderBy(metricSnapshots.postId, desc(metricSnapshots.fetchedAt), desc(metricSnapshots.id))
    .as('latest');
}

/** Published through Postkit, with at least one snapshot. */
const publishedWithMetrics = (accountId: string) => sql`
  select p.id, p.text, p.platform, p.published_at, p.created_at, p.updated_at
  from ${posts} p
  where p.account_id = ${accountId} and p.status = 'published'
    and exists (select 1 from ${metricSnapshots} s where s.post_id = p.id)`;

/** The union, unordered: `select * from (…)` it to order, page or count. */
function historyUnion(db: Db, accountId: string) {
  const latest = latestSnapshots(db, accountId);
  const imported = db
    .select({
      id: historyPosts.id,
      source: sql<string>`'import'`.as('source'),
      postId: sql<string | null>`null::text`.as('post_id'),
      text: historyPosts.text,
      platform: historyPosts.platform,
      publishedAt: historyPosts.publishedAt,
      publishedTimeKnown: historyPosts.publishedTimeKnown,
      media: historyPosts.media,
      reactions: historyPosts.reactions,
      comments: historyPosts.comments,
      shares: historyPosts.shares,
      impressions: historyPosts.impressions,
      clicks: historyPosts.clicks,
      createdAt: historyPosts.createdAt,
      updatedAt: historyPosts.updatedAt,
    })
    .from(historyPosts)
    .where(
      and(
        eq(historyPosts.accountId, accountId),
        sql`not exists (select 1 from (${publishedWithMetrics(accountId)}) pk where ${sqlTextKey(sql`pk.text`)} = ${historyPosts.textHash})`,
      ),
    );
  const published = db
    .select({
      id: posts.id,
      source: sql<string>`'postkit'`.as('source'),
      postId: sql<string | null>`${posts.id}`.as('post_id'),
      text: posts.text,
      platform: posts.platform,
      publishedAt: posts.publishedAt,
      publishedTimeKnown: sql<boolean>`${posts.publishedAt} is not null`.as('published_time_known'),
      media: sql<string | null>`null::text`.as('media'),
      reactions: latest.likes,
      comments: latest.comments,
      shares: latest.shares,
      impressions: latest.impressions,
      clicks: latest.clicks,
      createdAt: posts.createdAt,
      updatedAt: sql<number>`greatest(${posts.updatedAt}, ${latest.fetchedAt})`.as('updated_at'),
    })
    .from(posts)
    .innerJoin(latest, eq(latest.postId, posts.id))
    .where(and(eq(posts.accountId, accountId), eq(posts.status, 'published')));
  return imported.unionAll(published).as('history');
}

function toRow(r: Record<string, unknown>): HistoryRow {
  return {
    id: String(r.id),
    source: r.source === 'postkit' ? 'postkit' : 'import',
    postId: (r.postId as string | null) ?? null,
    text: String(r.text),
    platform: String(r.platform),
    publishedAt: num(r.publishedAt),
    publishedTimeKnown: r.publishedTimeKnown === true,
    media: (r.media as string | null) ?? null,
    reactions: num(r.reactions),
    comments: num(r.comments),
    shares: num(r.shares),
    impressions: num(r.impressions),
    clicks: num(r.clicks),
    createdAt: Number(r.createdAt),
    updatedAt: Number(r.updatedAt),
  };
}

/** Newest first by published time; entries without one last, most recently recorded first. */
export async function readHistory(
  db: Db,
  accountId: string,
  page?: { limit: number; offset: number },
): Promise<HistoryRow[]> {
  const history = historyUnion(db, accountId);
  const query = db
    .select()
    .from(history)
    .orderBy(sql`${history.publishedAt} desc nulls last`, desc(history.createdAt), desc(history.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  return rows.map((r) => toRow(r as Record<string, unknown>));
}

export async function countHistory(db: Db, accountId: string): Promise<number> {
  const history = historyUnion(db, accountId);
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(history);
  return row?.n ?? 0;
}

/** Whether a post id is a listed Postkit entry of the account's history. */
export async function isPublishedHistory(db: Db, accountId: string, postId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(
      and(
        eq(posts.id, postId),
        eq(posts.accountId, accountId),
        eq(posts.status, 'published'),
        sql`exists (select 1 from ${metricSnapshots} s where s.post_id = ${posts.id})`,
      ),
    );
  return row !== undefined;
}
