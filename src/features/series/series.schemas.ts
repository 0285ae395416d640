import { z } from 'zod';
import { Pagination, PaginationQuery } from '../../api/schemas.ts';

/** Wire shapes of recurring and evergreen series (POST /v1/posts `repeat`, /v1/series). */

const EpochMs = z.number().int().min(0).max(8_640_000_000_000_000);

export const RepeatUnit = z.enum(['day', 'week', 'month']).meta({ id: 'RepeatUnit' });
export type RepeatUnit = z.output<typeof RepeatUnit>;

export const Repeat = z
  .object({
    every: z
      .object({ unit: RepeatUnit, n: z.number().int().min(1).max(365) })
      .strict()
      .optional()
      .describe('Recurring (with runAt): an occurrence every n days, weeks or months at the same local time'),
    minGapDays: z
      .number()
      .int()
      .min(1)
      .max(365)
      .optional()
      .describe(
        "Evergreen (with queue: true): the same text re-queued into the channel's slots, never twice on the channel within this many days",
      ),
    until: EpochMs.optional().describe('No occurrence after this time (epoch ms)'),
    count: z.number().int().min(1).max(1000).optional().describe('At most this many occurrences'),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(
        "IANA zone whose local time a recurring series keeps; default the channel's queue zone, else the account's (settings)",
      ),
  })
  .strict()
  .meta({ id: 'Repeat' });
export type Repeat = z.output<typeof Repeat>;

export const SeriesStatus = z.enum(['active', 'ended', 'canceled']).meta({ id: 'SeriesStatus' });

export const Series = z
  .object({
    id: z.string(),
    accountId: z.string(),
    kind: z.enum(['recurring', 'evergreen']),
    channelId: z.string().nullable(),
    platform: z.string(),
    text: z.string(),
    every: z.object({ unit: RepeatUnit, n: z.number().int() }).nullable(),
    minGapDays: z.number().int().nullable(),
    until: z.number().int().nullable(),
    count: z.number().int().nullable(),
    timezone: z.string(),
    status: SeriesStatus.describe(
      'active: occurrences are still being created; ended: its until or count is reached; canceled: DELETE /v1/series/{id}',
    ),
    startAt: z
      .number()
      .int()
      .describe('The first occurrence (recurring) or when the series was created (evergreen)'),
    occurrences: z.number().int().describe('Occurrences created so far (each a post with this seriesId)'),
    nextAt: z
      .number()
      .int()
      .nullable()
      .describe(
        'When the next occurrence is due (recurring) or its earliest time (evergreen); null once ended',
      ),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Series' });
export type Series = z.output<typeof Series>;

export const SeriesResult = z.object({ series: Series }).meta({ id: 'SeriesResult' });
export const SeriesListResult = z
  .object({ series: z.array(Series), pagination: Pagination })
  .meta({ id: 'SeriesListResult' });
export const CancelSeriesResult = z
  .object({
    series: Series,
    canceled: z.array(z.string()).describe('Ids of the future occurrences canceled by this call'),
  })
  .meta({ id: 'CancelSeriesResult' });

export const SeriesListQuery = PaginationQuery;
