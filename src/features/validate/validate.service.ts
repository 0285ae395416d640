import { and, eq, inArray } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import { media } from '../../db/schema/index.ts';
import { type MediaKind, Platform } from '../../domain/enums.ts';
import {
  DEFAULT_PLATFORM,
  type MediaSetRule,
  mediaRuleFor,
  PROFILES,
  textLimitFor,
} from '../../platforms/profiles.ts';
import { extractFeatures, machineTells, RUBRICS } from '../../scoring/index.ts';
import type { ValidatePostRequest, ValidationIssue, ValidationReport } from './validate.schemas.ts';
import { partIssues } from './validate-parts.ts';

/**
 * Pre-publish checks: errors block a clean publish, warnings are reach or voice hazards.
 * No model call and nothing stored; the report is the answer even when the post is invalid.
 */

/** Judges media for a platform that has no rule of its own (one that publishes nothing). */
const DEFAULT_MEDIA_RULE = PROFILES[DEFAULT_PLATFORM].media;

type Kind = 'image' | 'pdf' | 'video' | 'other';

const kindOf = (contentType: string): Kind =>
  contentType.startsWith('image/')
    ? 'image'
    : contentType === 'application/pdf'
      ? 'pdf'
      : contentType.startsWith('video/')
        ? 'video'
        : 'other';

/**
 * What attachments each format takes on a platform: [kind, min, max]; none, poll and link take
 * none, and a multi-image post at most the platform's image count.
 */
const attachments = (format: MediaKind, rule: MediaSetRule): [Kind | null, number, number] => {
  if (format === 'multi-image') return ['image', 2, rule.maxImages];
  if (format === 'single-image') return ['image', 1, 1];
  if (format === 'document') return ['pdf', 1, 1];
  if (format === 'video') return ['video', 1, 1];
  return [null, 0, 0];
};

async function mediaIssues(
  ctx: Ctx,
  ids: string[],
  declared: MediaKind | undefined,
  rule: MediaSetRule,
): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  const unique = [...new Set(ids)];
  if (unique.length < ids.length)
    issues.push({ code: 'invalid_media', message: 'The same media id is attached twice.' });
  const rows = unique.length
    ? await ctx.deps.db
        .select({ id: media.id, contentType: media.contentType })
        .from(media)
        .where(and(inArray(media.id, unique), eq(media.accountId, ctx.caller.accountId)))
    : [];
  const found = new Map(rows.map((r) => [r.id, r.contentType]));
  // Another account's media is reported exactly like a missing id.
  for (const id of unique) {
    if (!found.has(id))
      issues.push({ code: 'invalid_media', message: `Media ${id} does not exist for this account.` });
  }
  const types = [...found.values()];
  const kinds = types.map(kindOf);
  if (declared) {
    const [kind, min, max] = attachments(declared, rule);
    if (kind === null && unique.length > 0) {
      issues.push({ code: 'media_mismatch', message: `A ${declared} post takes no attachments.` });
    } else if (
      kind !== null &&
      (unique.length < min || unique.length > max || kinds.some((k) => k !== kind))
    ) {
      const count = min === max ? `exactly ${min}` : `${min}-${max}`;
      issues.push({
        code: 'media_mismatch',
        message: `A ${declared} post takes ${count} ${kind} attachment(s).`,
      });
    }
  } else if (types.length > 0) {
    // The platform's own rule (the one its adapter and the post rules apply).
    if (!rule.check(types).ok) {
      issues.push({
        code: 'media_mismatch',
        message: `Attach ${rule.summary}, not a mix.`,
      });
    }
  }
  return issues;
}

export async function validatePost({ ctx, input }: Call<ValidatePostRequest>): Promise<ValidationReport> {
  const f = extractFeatures(input.post);
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  const platform = Platform.safeParse(input.platform ?? DEFAULT_PLATFORM);

  if (f.length === 0) errors.push({ code: 'empty', message: 'The post has no text.' });
  if (!platform.success) {
    errors.push({
      code: 'unsupported_platform',
      message: `Platform "${input.platform}" is not supported; use one of ${Platform.options.join(', ')}.`,
    });
  } else {
    const rubric = RUBRICS[platform.data];
    // Counted the platform's way (platformB: a URL counts 23), on the text as sent, the way creating
    // the post counts it (part-rules.ts) and the platform will: not on the scorer's normalised text,
    // which drops the spaces before line breaks and would pass a post the create then refuses.
    const limit = textLimitFor(platform.data, 'post');
    const length = limit ? limit.length(input.post) : f.length;
    const max = limit?.max ?? rubric.maxLength;
    if (length > max) {
      errors.push({
        code: 'too_long',
        message: `${length} ${limit?.counted ?? 'characters'} is over ${platform.data}'s limit of ${max}.`,
      });
    }
    if (f.hashtags >= rubric.hashtagCapFrom) {
      warnings.push({
        code: 'too_many_hashtags',
        message: `${f.hashtags} hashtags: ${rubric.hashtagCapFrom} or more read as spam and cap reach; keep two or three.`,
      });
    }
  }
  // An unsupported platform is already an error; its media are judged by the default platform's rule.
  const rule = mediaRuleFor(platform.success ? platform.data : DEFAULT_PLATFORM) ?? DEFAULT_MEDIA_RULE;
  errors.push(...(await mediaIssues(ctx, input.mediaIds ?? [], input.media, rule)));
  const parts = partIssues(input, platform.success ? platform.data : null);
  errors.push(...parts.errors);

  if (f.links > 0) {
    warnings.push({
      code: 'external_link',
      message: 'An external link in the body costs about 26% reach; put it in the first comment.',
    });
  }
  if (f.bait > 0) {
    warnings.push({
      code: 'engagement_bait',
      message: `Engagement bait (${f.phrases.bait.map((p) => `"${p}"`).join(', ')}) is demoted by the feed.`,
    });
  }
  const tells = machineTells(f);
  if (tells.length > 0)
    warnings.push({ code: 'ai_tells', message: `Reads as machine-written: ${tells.join(', ')}.` });
  return {
    valid: errors.length === 0,
    errors,
    warnings,
    stats: { length: f.chars, hashtags: f.hashtags, links: f.links, lines: f.lines },
    ...(parts.parts ? { parts: parts.parts } : {}),
  };
}
