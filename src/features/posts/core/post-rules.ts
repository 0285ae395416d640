import { and, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../../context.ts';
import { brands, channels, media } from '../../../db/schema/index.ts';
import { type ErrorDetail, Invalid } from '../../../domain/errors.ts';
import { isoTime } from '../../../lib/iso-time.ts';
import { DEFAULT_PLATFORM, isPlatformId, mediaRuleFor, PLATFORM_IDS } from '../../../platforms/profiles.ts';
import { isImageType } from '../../media/media-types.ts';
import { partProblems } from './part-rules.ts';
import type { PostRow } from './post-row.ts';

/** The fields of a post that must be checked against the caller's data and the platform. */
export interface PostDraft {
  text: string;
  channelId: string | null;
  brandId: string | null;
  /** Explicit platform, or undefined to take the channel's (else platformA). */
  platform: string | undefined;
  mediaIds: string[];
  /** Follow-up parts (platformB threads); each is checked like the post. */
  thread: string[];
  firstComment: string | null;
}

/** A stored post as a draft to check again (before scheduling or publishing it). */
export const draftOfRow = (row: PostRow): PostDraft => ({
  text: row.text,
  channelId: row.channelId,
  brandId: row.brandId,
  platform: row.platform,
  mediaIds: row.mediaIds,
  thread: row.thread,
  firstComment: row.firstComment,
});

export interface CheckedDraft extends PostDraft {
  platform: string;
}

/** What the checks read, loaded once for a whole batch (bulk-schedule checks up to 100 drafts). */
export interface Lookup {
  channels: Map<string, { platform: string }>;
  brands: Set<string>;
  media: Map<string, { contentType: string }>;
}

export async function loadLookup(ctx: Ctx, drafts: PostDraft[]): Promise<Lookup> {
  const accountId = ctx.caller.accountId;
  const channelIds = [...new Set(drafts.flatMap((d) => (d.channelId ? [d.channelId] : [])))];
  const brandIds = [...new Set(drafts.flatMap((d) => (d.brandId ? [d.brandId] : [])))];
  const mediaIds = [...new Set(drafts.flatMap((d) => d.mediaIds))];
  const db = ctx.deps.db;
  const [channelRows, brandRows, mediaRows] = await Promise.all([
    channelIds.length
      ? db
          .select({ id: channels.id, platform: channels.platform })
          .from(channels)
          .where(and(eq(channels.accountId, accountId), inArray(channels.id, channelIds)))
      : [],
    brandIds.length
      ? db
          .select({ id: brands.id })
          .from(brands)
          .where(and(eq(brands.accountId, accountId), inArray(brands.id, brandIds)))
      : [],
    mediaIds.length
      ? db
          .select({ id: media.id, contentType: media.contentType })
          .from(media)
          .where(and(eq(media.accountId, accountId), inArray(media.id, mediaIds)))
      : [],
  ]);
  return {
    channels: new Map(channelRows.map((c) => [c.id, { platform: c.platform }])),
    brands: new Set(brandRows.map((b) => b.id)),
    media: new Map(mediaRows.map((m) => [m.id, { contentType: m.contentType }])),
  };
}

/**
 * Checks one draft: every reference is the caller's, the platform is one we publish to and
 * matches the channel, every part's text (the post, thread parts, first comment) is non-blank
 * and within the platform's length, a thread only where the platform has threads, and the media
 * form a set the platform can carry (1-20 images, one video, or one PDF). Problems come back
 * as details under `prefix` (e.g. `items[2].`), so a batch reports each item separately.
 */
export function checkDraft(
  draft: PostDraft,
  lookup: Lookup,
  prefix = '',
): { draft: CheckedDraft; problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const at = (path: string, message: string) => problems.push({ path: `${prefix}${path}`, message });

  const channel = draft.channelId ? lookup.channels.get(draft.channelId) : undefined;
  if (draft.channelId && !channel) at('channelId', 'No such channel for this account');
  if (draft.brandId && !lookup.brands.has(draft.brandId)) at('brandId', 'No such brand for this account');

  const platform = draft.platform ?? channel?.platform ?? DEFAULT_PLATFORM;
  if (!isPlatformId(platform)) {
    at('platform', `Posts are published to ${PLATFORM_IDS.join(', ')} only`);
  } else if (channel && channel.platform !== platform) {
    at('platform', `Does not match the channel's platform (${channel.platform})`);
  }

  // Every part's text, counted the platform's way, each problem under its own path.
  partProblems(draft, platform, at);

  const seen = new Set<string>();
  const types: string[] = [];
  for (const [i, id] of draft.mediaIds.entries()) {
    if (seen.has(id)) {
      at(`mediaIds[${i}]`, 'Listed twice');
      continue;
    }
    seen.add(id);
    const found = lookup.media.get(id);
    if (found) types.push(found.contentType);
    else at(`mediaIds[${i}]`, 'No such media for this account');
  }
  // The platform's own media-set rule (the one its adapter and validate use); an unknown
  // platform was refused above.
  const rule = mediaRuleFor(platform);
  if (rule && types.length === draft.mediaIds.length && !rule.check(types).ok) {
    at('mediaIds', `A post carries ${rule.summary}, not a mix`);
  }
  return { draft: { ...draft, platform }, problems };
}

/** The MediaKind a post's media amount to, for scoring. */
export function mediaKindOf(types: string[]): 'none' | 'single-image' | 'multi-image' | 'video' | 'document' {
  if (types.length === 0) return 'none';
  if (types.every(isImageType)) return types.length === 1 ? 'single-image' : 'multi-image';
  return types[0] === 'video/mp4' ? 'video' : 'document';
}

export const invalidPost = (details: ErrorDetail[]) =>
  new Invalid('The post did not validate: fix the listed fields.', details);

/**
 * Scheduling needs a time in the future and a channel to publish through: a scheduled post
 * without a channel could only fail at its due time, so it is refused now instead.
 */
export function scheduleProblems(
  runAt: number,
  channelId: string | null,
  now: number,
  prefix = '',
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (runAt <= now)
    problems.push({ path: `${prefix}runAt`, message: `Must be in the future (it is now ${isoTime(now)})` });
  if (!channelId)
    problems.push({ path: `${prefix}channelId`, message: 'A scheduled post needs a channel to publish to' });
  return problems;
}

export async function checkOne(ctx: Ctx, draft: PostDraft, extra: ErrorDetail[] = []): Promise<CheckedDraft> {
  const lookup = await loadLookup(ctx, [draft]);
  const { draft: checked, problems } = checkDraft(draft, lookup);
  if (problems.length + extra.length > 0) throw invalidPost([...problems, ...extra]);
  return checked;
}
