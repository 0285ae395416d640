import { and, asc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { posts } from '../../db/schema/index.ts';
import type { PostStatus } from '../../domain/enums.ts';
import { Invalid } from '../../domain/errors.ts';
import type { CalendarEntry } from './posts.schemas.ts';

const PREVIEW_LENGTH = 80;

/** The text on one line, cut at a word boundary near PREVIEW_LENGTH characters. */
export function previewOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= PREVIEW_LENGTH) return flat;
  const cut = flat.slice(0, PREVIEW_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > PREVIEW_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The calendar: scheduled posts at their scheduled time and published posts at their
 * published time, plus posts being published right now (at their scheduled time, or when
 * publishing started). Drafts, failed and canceled posts have no place on it. `from` is
 * inclusive and `to` exclusive, so consecutive windows never show a post twice.
 */
export async function getCalendar({
  ctx,
  input,
}: Call<{ from?: number; to?: number }>): Promise<CalendarEntry[]> {
  if (input.from !== undefined && input.to !== undefined && input.from > input.to) {
    throw new Invalid('`from` must not be after `to`.', [
      { path: 'querystring.from', message: 'After `to`' },
    ]);
  }
  const when = sql<number>`(case when ${posts.status} = 'published' then ${posts.publishedAt} else coalesce(${posts.scheduledFor}, ${posts.claimedAt}) end)`;
  const filters: SQL[] = [
    eq(posts.accountId, ctx.caller.accountId),
    inArray(posts.status, ['scheduled', 'publishing', 'published']),
  ];
  if (input.from !== undefined) filters.push(gte(when, input.from));
  if (input.to !== undefined) filters.push(lt(when, input.to));
  const rows = await ctx.deps.db
    .select({
      postId: posts.id,
      status: posts.status,
      when,
      channelId: posts.channelId,
      platform: posts.platform,
      text: posts.text,
    })
    .from(posts)
    .where(and(...filters))
    .orderBy(asc(when), asc(posts.id));
  return rows.map((r) => ({
    postId: r.postId,
    status: r.status as PostStatus,
    when: Number(r.when),
    channelId: r.channelId,
    platform: r.platform,
    preview: previewOf(r.text),
  }));
}
