import { and, eq, sql } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { historyPosts } from '../../db/schema/index.ts';
import { Conflict, NotFound } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';
import { DEFAULT_PLATFORM } from '../../platforms/profiles.ts';
import { normalizePost } from '../../scoring/index.ts';
import { type PageInfo, type PageRequest, paginate } from '../pagination.ts';
import type {
  HistoryEntry,
  HistoryImportRequest,
  HistoryImportResult,
  HistoryItemInput,
} from './history.schemas.ts';
import { parseIsoDate } from './history.schemas.ts';
import { countHistory, type HistoryRow, isPublishedHistory, readHistory, textKey } from './history-view.ts';
import { markPersonalStale } from './personal-models.ts';

/**
 * The history verbs: import (JSON items, or CSV read into the same items by history-csv.ts),
 * list, delete one, clear. REST routes and MCP tools call these.
 */

function publishedAtOf(value: HistoryItemInput['publishedAt']): { ms: number | null; timeKnown: boolean } {
  if (value === undefined || value === null) return { ms: null, timeKnown: false };
  if (typeof value === 'number') return { ms: value, timeKnown: true };
  return parseIsoDate(value);
}

const engagementOf = (row: Pick<HistoryRow, 'reactions' | 'comments' | 'shares'>): number | null =>
  row.reactions === null && row.comments === null && row.shares === null
    ? null
    : (row.reactions ?? 0) + (row.comments ?? 0) + (row.shares ?? 0);

export function toHistoryEntry(row: HistoryRow): HistoryEntry {
  const { publishedTimeKnown: _known, ...rest } = row;
  return { ...rest, media: rest.media as HistoryEntry['media'], engagement: engagementOf(row) };
}

/**
 * Imports 1-1,000 posts in one transaction: a text already in the history (or earlier in the
 * batch) updates that entry (fields an item leaves out keep their values) instead of adding
 * one. Validation happened before (route schema or CSV reader), so a batch is stored whole.
 */
export async function importHistory({
  ctx,
  input,
}: Call<HistoryImportRequest>): Promise<HistoryImportResult> {
  const now = ctx.deps.clock.now();
  const accountId = ctx.caller.accountId;
  const byKey = new Map<string, typeof historyPosts.$inferInsert>();
  for (const item of input.items) {
    const text = normalizePost(item.text);
    const key = textKey(text);
    const published = publishedAtOf(item.publishedAt);
    const earlier = byKey.get(key);
    byKey.set(key, {
      id: earlier?.id ?? newId('history'),
      accountId,
      textHash: key,
      text,
      platform: item.platform ?? DEFAULT_PLATFORM,
      publishedAt: published.ms ?? earlier?.publishedAt ?? null,
      publishedTimeKnown:
        published.ms !== null ? published.timeKnown : (earlier?.publishedTimeKnown ?? false),
      media: item.media ?? earlier?.media ?? null,
      reactions: item.reactions ?? earlier?.reactions ?? null,
      comments: item.comments ?? earlier?.comments ?? null,
      shares: item.shares ?? earlier?.shares ?? null,
      impressions: item.impressions ?? earlier?.impressions ?? null,
      clicks: item.clicks ?? earlier?.clicks ?? null,
      createdAt: now,
      updatedAt: now,
    });
  }
  const keep = (column: string) => sql.raw(`coalesce(excluded.${column}, history_posts.${column})`);
  const inserted = await ctx.deps.db.transaction(async (tx) =>
    tx
      .insert(historyPosts)
      .values([...byKey.values()])
      .onConflictDoUpdate({
        target: [historyPosts.accountId, historyPosts.textHash],
        set: {
          text: sql.raw('excluded.text'),
          platform: sql.raw('excluded.platform'),
          publishedTimeKnown: sql.raw(
            'case when excluded.published_at is null then history_posts.published_time_known else excluded.published_time_known end',
          ),
          publishedAt: keep('published_at'),
          media: keep('media'),
          reactions: keep('reactions'),
          comments: keep('comments'),
          shares: keep('shares'),
          impressions: keep('impressions'),
          clicks: keep('clicks'),
          updatedAt: sql.raw('excluded.updated_at'),
        },
      })
      // xmax is 0 for a row this statement inserted, the updating transaction's id otherwise.
      .returning({ inserted: sql<boolean>`(xmax = 0)` }),
  );
  const imported = inserted.filter((r) => r.inserted).length;
  await markPersonalStale(ctx.deps, accountId);
  return {
    imported,
    duplicates: input.items.length - imported,
    total: await countHistory(ctx.deps.db, accountId),
  };
}

/** GET /v1/history: newest first (published time, else when recorded). */
export async function listHistory({
  ctx,
  input,
}: Call<PageRequest>): Promise<{ history: HistoryEntry[]; pagination: PageInfo }> {
  const { items, pagination } = await paginate(input, (limit, offset) =>
    readHistory(ctx.deps.db, ctx.caller.accountId, { limit, offset }),
  );
  return { history: items.map(toHistoryEntry), pagination };
}

/**
 * Removes one imported entry. A post published through Postkit is history while it has
 * metrics: 409 `not_imported` says so rather than pretending it was removed.
 */
export async function deleteHistoryEntry({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: true }> {
  const accountId = ctx.caller.accountId;
  const removed = await ctx.deps.db
    .delete(historyPosts)
    .where(and(eq(historyPosts.id, input.id), eq(historyPosts.accountId, accountId)))
    .returning({ id: historyPosts.id });
  if (removed.length === 0) {
    if (await isPublishedHistory(ctx.deps.db, accountId, input.id))
      throw new Conflict(
        'not_imported',
        'This entry is a post published through Postkit: it counts as history while it has metrics, and is not removed from here.',
      );
    throw new NotFound('History entry');
  }
  await markPersonalStale(ctx.deps, accountId);
  return { deleted: true };
}

/** DELETE /v1/history: every imported entry (Postkit posts stay; see deleteHistoryEntry). */
export async function clearHistory({ ctx }: Call<void>): Promise<{ deleted: number }> {
  const removed = await ctx.deps.db
    .delete(historyPosts)
    .where(eq(historyPosts.accountId, ctx.caller.accountId))
    .returning({ id: historyPosts.id });
  if (removed.length) await markPersonalStale(ctx.deps, ctx.caller.accountId);
  return { deleted: removed.length };
}
