import { z } from 'zod';
import { Concept, Dimension, FollowerBand, MediaKind, Platform } from '../../domain/enums.ts';

const Check = z.object({
  status: z.enum(['ok', 'degraded']),
  latencyMs: z.number(),
  error: z.string().optional(),
});

export const HealthResult = z
  .object({
    status: z.enum(['ok', 'degraded']),
    checks: z.object({ database: Check, kv: Check }),
  })
  .meta({ id: 'HealthResult' });
export type HealthResult = z.output<typeof HealthResult>;

const Counting = z
  .object({
    unit: z
      .enum(['utf16', 'codePoint'])
      .describe('`utf16`: UTF-16 code units (an emoji is 2); `codePoint`: code points'),
    urlWeight: z
      .number()
      .int()
      .nullable()
      .describe(
        'When set, every http(s) URL counts this much whatever its length; the rest counts by `unit`',
      ),
  })
  .meta({ id: 'TextCounting' });

const PartLimit = z
  .object({
    max: z.number().int(),
    counting: Counting,
    counted: z
      .string()
      .describe('How the length is counted, in words ("weighted characters (a URL counts 23)")'),
  })
  .meta({ id: 'PartLimit' });

/** A platform's profile (src/platforms/<id>/profile.ts), as the console and client programs need it. */
const PlatformProfileFields = {
  displayName: z.string(),
  parts: z
    .object({
      post: PartLimit,
      reply: PartLimit.nullable().describe('A thread part; null where the platform has no threads'),
      comment: PartLimit.describe('The first comment'),
    })
    .describe('How long each kind of part may be, and how its length is counted'),
  threads: z
    .object({ maxFollowUps: z.number().int() })
    .nullable()
    .describe(
      'Follow-up parts published as replies, each to the part before; null where the platform has none',
    ),
  firstComment: z
    .enum(['comment', 'reply'])
    .describe('How the first comment is published: a comment under the post, or a reply to it'),
  media: z.object({ summary: z.string(), maxImages: z.number().int() }).describe('What one post may carry'),
  fold: z
    .object({ chars: z.number().int(), lines: z.number().int() })
    .nullable()
    .describe('Where the feed card folds a long post behind "see more"; null when it shows the post whole'),
};

export const MetaResult = z
  .object({
    schemaVersion: z.string(),
    apiVersion: z.string(),
    maxPostLength: z.number().int(),
    platforms: z.array(
      z.object({
        id: Platform,
        maxPostLength: z.number().int(),
        publishing: z
          .boolean()
          .describe('Whether channels on this platform can be connected and published to'),
        ...PlatformProfileFields,
      }),
    ),
    mediaKinds: z.array(MediaKind),
    followerBands: z.array(FollowerBand),
    dimensions: z.array(z.object({ id: Dimension, weight: z.number() })),
    concepts: z
      .array(z.object({ id: Concept, description: z.string() }))
      .describe("The concepts a signal's `concept` names, each described for a writer"),
    capabilities: z.object({
      scoringEngine: z.string().describe('`heuristic` or the configured model provider'),
      model: z.string().nullable(),
      offline: z
        .boolean()
        .describe('True when only the offline engine is available (no language model configured)'),
      engineNote: z
        .string()
        .describe('Plain statement of what the engine does, and how to configure a model when offline'),
      publishing: z
        .boolean()
        .describe('A vault key and the app credentials of at least one publishing platform are configured'),
      database: z.enum(['pglite', 'postgres']),
      kv: z.enum(['memory', 'redis']),
      mediaStorage: z.enum(['filesystem', 's3']),
      role: z.enum(['api', 'worker', 'all']),
      webhookReceiver: z
        .string()
        .nullable()
        .describe(
          'A webhook receiver on this machine that lists what it received (GET, JSON `{arrived}`), served by `npm run demo` (WEBHOOK_DEMO_RECEIVER_URL); null elsewhere',
        ),
    }),
  })
  .meta({ id: 'MetaResult' });
export type MetaResult = z.output<typeof MetaResult>;
