import { and, eq, inArray } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { historyPosts } from '../../db/schema/index.ts';
import { DEFAULT_PLATFORM } from '../../platforms/profiles.ts';
import { normalizePost } from '../../scoring/index.ts';
import { type HistoryImportRequest, type HistoryPreviewResult, parseIsoDate } from './history.schemas.ts';
import { textKey } from './history-view.ts';

/**
 * POST /v1/history?dryRun=true: the import read and checked exactly as it would be stored
 * (the same schema and CSV reader, so the same per-row 400s), answered row by row with whether
 * each text is new or updates an entry already there, and nothing written. The console shows
 * this before anyone presses Import.
 */
export async function previewHistory({
  ctx,
  input,
}: Call<HistoryImportRequest>): Promise<HistoryPreviewResult> {
  const keys = input.items.map((item) => textKey(normalizePost(item.text)));
  const existing = new Set(
    (
      await ctx.deps.db
        .select({ key: historyPosts.textHash })
        .from(historyPosts)
        .where(and(eq(historyPosts.accountId, ctx.caller.accountId), inArray(historyPosts.textHash, keys)))
    ).map((row) => row.key),
  );
  const seen = new Set<string>();
  const items = input.items.map((item, i) => {
    const key = keys[i]!;
    const kind = existing.has(key) || seen.has(key) ? ('update' as const) : ('new' as const);
    seen.add(key);
    const published =
      item.publishedAt === undefined || item.publishedAt === null
        ? null
        : typeof item.publishedAt === 'number'
          ? item.publishedAt
          : parseIsoDate(item.publishedAt).ms;
    return {
      text: normalizePost(item.text),
      platform: item.platform ?? DEFAULT_PLATFORM,
      publishedAt: published,
      media: item.media ?? null,
      reactions: item.reactions ?? null,
      comments: item.comments ?? null,
      shares: item.shares ?? null,
      impressions: item.impressions ?? null,
      clicks: item.clicks ?? null,
      kind,
    };
  });
  const added = new Set(keys.filter((key) => !existing.has(key))).size;
  return { dryRun: true, items, newEntries: added, duplicates: items.length - added };
}
