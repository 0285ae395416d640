import { z } from 'zod';
import { MediaKind } from '../../domain/enums.ts';

/** POST /v1/posts/validate (DECISIONS.md "Validate"). */

export const ValidatePostRequest = z
  .object({
    post: z.string().max(100_000).describe('The post text; an empty text is reported, not rejected'),
    platform: z
      .string()
      .max(64)
      .optional()
      .describe('Default `platformA`; an unknown platform is reported as an error'),
    media: MediaKind.optional().describe('The format the attachments must match'),
    mediaIds: z
      .array(z.string().min(1).max(64))
      .max(20)
      .optional()
      .describe('Uploaded media ids; each must exist and belong to the caller'),
  })
  .strict()
  .meta({ id: 'ValidatePostRequest' });
export type ValidatePostRequest = z.output<typeof ValidatePostRequest>;

export const ValidationIssue = z
  .object({ code: z.string(), message: z.string() })
  .meta({ id: 'ValidationIssue' });
export type ValidationIssue = z.output<typeof ValidationIssue>;

export const ValidationReport = z
  .object({
    valid: z.boolean().describe('True when there are no errors (warnings do not block)'),
    errors: z
      .array(ValidationIssue)
      .describe(
        'Block a clean publish: empty, too_long, unsupported_platform, invalid_media, media_mismatch',
      ),
    warnings: z
      .array(ValidationIssue)
      .describe('Reach or voice hazards: too_many_hashtags, external_link, engagement_bait, ai_tells'),
    stats: z.object({
      length: z.number().int(),
      hashtags: z.number().int(),
      links: z.number().int(),
      lines: z.number().int().describe('Non-empty lines'),
    }),
  })
  .meta({ id: 'ValidationReport' });
export type ValidationReport = z.output<typeof ValidationReport>;
