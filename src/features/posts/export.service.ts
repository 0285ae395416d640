import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { posts } from '../../db/schema/index.ts';
import type { PostExportQuery } from './bulk.schemas.ts';
import type { Post } from './core/post.schemas.ts';
import { toPost } from './core/post-row.ts';
import { csvRecord, escapeCell } from './csv-cells.ts';
import { postListFilter } from './posts.service.ts';

/**
 * GET /v1/posts/export: every post matching the list filters, newest first, streamed page by
 * page (a keyset read of EXPORT_PAGE rows at a time), so an export of any size holds one page
 * in memory. The CSV's columns are the bulk import's (text, runAt, channelId, platform,
 * firstComment, mediaIds, thread) followed by read-only ones the import ignores, so an exported
 * file can be edited and imported again; formula-looking cells are escaped (csv-cells.ts).
 */

export const EXPORT_PAGE = 500;

export const EXPORT_COLUMNS = [
  'text',
  'runAt',
  'channelId',
  'platform',
  'firstComment',
  'mediaIds',
  'thread',
  'id',
  'status',
  'publishedAt',
  'platformUrl',
  'createdAt',
] as const;

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

function csvOf(post: Post): string {
  const cells: Record<(typeof EXPORT_COLUMNS)[number], string> = {
    text: post.text,
    runAt: iso(post.scheduledFor),
    channelId: post.channelId ?? '',
    platform: post.platform,
    firstComment: post.firstComment ?? '',
    mediaIds: post.mediaIds.join(' '),
    thread: post.thread.length ? JSON.stringify(post.thread) : '',
    id: post.id,
    status: post.status,
    publishedAt: iso(post.publishedAt),
    platformUrl: post.platformUrl ?? '',
    createdAt: iso(post.createdAt),
  };
  return csvRecord(EXPORT_COLUMNS.map((c) => escapeCell(cells[c])));
}

/** The caller's matching posts, one page per read, newest first (ties by id). */
async function* pages(ctx: Call<unknown>['ctx'], filter: SQL | undefined, pageSize: number) {
  let after: { createdAt: number; id: string } | null = null;
  for (;;) {
    const where: SQL[] = [eq(posts.accountId, ctx.caller.accountId)];
    if (filter) where.push(filter);
    if (after) where.push(sql`(${posts.createdAt}, ${posts.id}) < (${after.createdAt}, ${after.id})`);
    const rows = await ctx.deps.db
      .select()
      .from(posts)
      .where(and(...where))
      .orderBy(desc(posts.createdAt), desc(posts.id))
      .limit(pageSize);
    if (rows.length) yield rows.map(toPost);
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/** The export as text chunks (one per page): CSV with a BOM and header, or `{"posts":[...]}`. */
export async function* exportPosts({
  ctx,
  input,
}: Call<PostExportQuery & { pageSize?: number }>): AsyncGenerator<string> {
  const filter = postListFilter(input);
  const pageSize = input.pageSize ?? EXPORT_PAGE;
  if (input.format === 'csv') {
    // The BOM tells spreadsheets the file is UTF-8; the import accepts it.
    yield `\uFEFF${csvRecord([...EXPORT_COLUMNS])}`;
    for await (const page of pages(ctx, filter, pageSize)) yield page.map(csvOf).join('');
    return;
  }
  yield '{"posts":[';
  let first = true;
  for await (const page of pages(ctx, filter, pageSize)) {
    yield (first ? '' : ',') + page.map((p) => JSON.stringify(p)).join(',');
    first = false;
  }
  yield ']}';
}
