import { z } from 'zod';
import { Dimension, FollowerBand, MediaKind, Platform } from '../../domain/enums.ts';

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
      }),
    ),
    mediaKinds: z.array(MediaKind),
    followerBands: z.array(FollowerBand),
    dimensions: z.array(z.object({ id: Dimension, weight: z.number() })),
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
    }),
  })
  .meta({ id: 'MetaResult' });
export type MetaResult = z.output<typeof MetaResult>;
