import { z } from 'zod';
import { MediaKind } from '../../domain/enums.ts';
import {
  defaultPlatformProse,
  threadedPlatformsProse,
  urlWeightProse,
} from '../../platforms/profile-prose.ts';
import { MAX_THREAD_PARTS } from '../../platforms/profiles.ts';

/** POST /v1/posts/validate (DECISIONS.md "Validate"). */

export const ValidatePostRequest = z
  .object({
    post: z.string().max(100_000).describe('The post text; an empty text is reported, not rejected'),
    platform: z
      .string()
      .max(64)
      .optional()
      .describe(`Default ${defaultPlatformProse()}; an unknown platform is reported as an error`),
    media: MediaKind.optional().describe('The format the attachments must match'),
    mediaIds: z
      .array(z.string().min(1).max(64))
      .max(20)
      .optional()
      .describe('Uploaded media ids; each must exist and belong to the caller'),
    thread: z
      .array(z.string().max(100_000))
      .max(MAX_THREAD_PARTS)
      .optional()
      .describe(
        `Follow-up parts (threads on ${threadedPlatformsProse()}); each is checked on its own, reported under \`thread[i]\``,
      ),
    firstComment: z
      .string()
      .max(100_000)
      .nullable()
      .optional()
      .describe(
        'The first comment; checked against the platform’s comment limit, reported under `firstComment`',
      ),
  })
  .strict()
  .meta({ id: 'ValidatePostRequest' });
export type ValidatePostRequest = z.output<typeof ValidatePostRequest>;

export const ValidationIssue = z
  .object({
    code: z.string(),
    message: z.string(),
    part: z
      .string()
      .optional()
      .describe('The part the issue is about (`thread[2]`, `firstComment`); absent for the post itself'),
  })
  .meta({ id: 'ValidationIssue' });
export type ValidationIssue = z.output<typeof ValidationIssue>;

export const ValidationReport = z
  .object({
    valid: z.boolean().describe('True when there are no errors (warnings do not block)'),
    errors: z
      .array(ValidationIssue)
      .describe(
        'Block a clean publish: empty, too_long, unsupported_platform, invalid_media, media_mismatch, thread_not_supported, duplicate_part',
      ),
    warnings: z
      .array(ValidationIssue)
      .describe('Reach or voice hazards: too_many_hashtags, external_link, engagement_bait, ai_tells'),
    stats: z.object({
      length: z
        .number()
        .int()
        .describe(
          'Characters as a person counts them (an emoji or an accented letter is one), white space around the post left out; the limit is counted the platform’s way (`errors` too_long, `parts[].length`)',
        ),
      hashtags: z.number().int(),
      links: z.number().int(),
      lines: z.number().int().describe('Non-empty lines'),
    }),
    parts: z
      .array(
        z.object({
          part: z.string().describe('`text`, `thread[i]` or `firstComment`'),
          length: z
            .number()
            .int()
            .describe(`Counted the platform’s way${urlWeightProse() ? ` (${urlWeightProse()})` : ''}`),
          limit: z
            .number()
            .int()
            .nullable()
            .describe('The platform’s limit for this part; null when unknown'),
        }),
      )
      .optional()
      .describe('Each part’s length, when the request had a thread or a first comment'),
  })
  .meta({ id: 'ValidationReport' });
export type ValidationReport = z.output<typeof ValidationReport>;
