import { z } from 'zod';
import { Pagination, PaginationQuery } from '../../api/schemas.ts';
import { MediaKind, Platform } from '../../domain/enums.ts';
import { defaultPlatformProse } from '../../platforms/profile-prose.ts';

/** Wire shapes of the author's history (POST/GET/DELETE /v1/history). */

export const MAX_IMPORT_ITEMS = 1_000;
export const MAX_HISTORY_TEXT = 20_000;

/** Published times outside 2000-2100 are typos or seconds sent as milliseconds. */
const EARLIEST_MS = Date.UTC(2000, 0, 1);
const LATEST_MS = Date.UTC(2100, 0, 1);

/** `2025-03-14`, or a date and time with an optional offset (no offset: UTC). */
export const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Real UTC offsets run from -12:00 to +14:00; anything past +-14:00 is a typo, not a zone. */
const MAX_OFFSET_MIN = 14 * 60;

/**
 * Epoch ms of an ISO date, or NaN; `timeKnown` is false for a bare date. A date that does not
 * round-trip is not a date: Date.UTC rolls 2025-02-30 into March and 23:60 into the next hour,
 * so every field read back must be the one written, and the offset must be a real one (at
 * most 14:00 either way, minutes under 60) -- `+99:00` would otherwise move the time by days.
 */
export function parseIsoDate(value: string): { ms: number; timeKnown: boolean } {
  const m = ISO_DATE.exec(value.trim());
  if (!m) return { ms: Number.NaN, timeKnown: false };
  const [, y, mo, d, h, mi, s, zone] = m;
  const fields = [
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h ?? 0),
    Number(mi ?? 0),
    Number(s ?? 0),
  ] as const;
  const check = new Date(Date.UTC(...fields));
  const readBack = [
    check.getUTCFullYear(),
    check.getUTCMonth(),
    check.getUTCDate(),
    check.getUTCHours(),
    check.getUTCMinutes(),
    check.getUTCSeconds(),
  ];
  if (readBack.some((v, i) => v !== fields[i])) return { ms: Number.NaN, timeKnown: false };
  let offsetMin = 0;
  if (zone && zone !== 'Z') {
    const digits = zone.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    offsetMin = hours * 60 + minutes;
    if (minutes >= 60 || offsetMin > MAX_OFFSET_MIN) return { ms: Number.NaN, timeKnown: false };
    if (zone.startsWith('-')) offsetMin = -offsetMin;
  }
  return { ms: check.getTime() - offsetMin * 60_000, timeKnown: h !== undefined };
}

const inRange = (ms: number) => ms >= EARLIEST_MS && ms < LATEST_MS;

const PUBLISHED_AT_FORMAT =
  'Expected epoch milliseconds (a time in the years 2000 to 2100) or a real ISO 8601 date such as 2025-03-14 or 2025-03-14T09:30:00+01:00 (month, day, hour and minute in range; offset between -14:00 and +14:00)';

const PublishedAt = z
  .union(
    [
      z.number().int().refine(inRange, PUBLISHED_AT_FORMAT),
      z.string().refine((s) => inRange(parseIsoDate(s).ms), PUBLISHED_AT_FORMAT),
    ],
    { error: PUBLISHED_AT_FORMAT },
  )
  .describe(
    'When it was published: epoch milliseconds, or an ISO 8601 date or date-time (no offset means UTC). A bare date leaves the hour unknown, so it counts for days but not hours.',
  );

const Count = z
  .number()
  .int()
  .min(0)
  .max(2_147_483_647)
  .nullable()
  .optional()
  .describe('Lifetime count; leave it out (or null) when unknown, which differs from 0');

export const HistoryItemInput = z
  .object({
    text: z
      .string()
      .max(MAX_HISTORY_TEXT)
      .refine((s) => s.trim().length > 0, 'text must not be empty')
      .describe('The post text as published. The same text again updates the earlier entry.'),
    platform: Platform.optional().describe(`Default ${defaultPlatformProse()}`),
    publishedAt: PublishedAt.nullable().optional(),
    media: MediaKind.nullable().optional().describe('The post format when known'),
    reactions: Count,
    comments: Count,
    shares: Count.describe('Reposts; lifetime count, null when unknown'),
    impressions: Count,
    clicks: Count,
  })
  .strict()
  .meta({ id: 'HistoryItemInput' });
export type HistoryItemInput = z.output<typeof HistoryItemInput>;

export const HistoryImportRequest = z
  .object({
    items: z
      .array(HistoryItemInput)
      .min(1)
      .max(MAX_IMPORT_ITEMS)
      .describe(`1-${MAX_IMPORT_ITEMS} past posts with their results`),
  })
  .strict()
  .meta({ id: 'HistoryImportRequest' });
export type HistoryImportRequest = z.output<typeof HistoryImportRequest>;

export const HistoryImportResult = z
  .object({
    imported: z.number().int().describe('New entries'),
    duplicates: z
      .number()
      .int()
      .describe('Items whose text was already in the history (or earlier in this batch): updated, not added'),
    total: z
      .number()
      .int()
      .describe('Entries in the history after the import, as GET /v1/history counts them'),
  })
  .meta({ id: 'HistoryImportResult' });
export type HistoryImportResult = z.output<typeof HistoryImportResult>;

export const HistoryImportQuery = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .optional()
    .describe('`true`: check and preview the import row by row, writing nothing (200 HistoryPreviewResult)'),
});

/** An extension: POST /v1/history?dryRun=true, what an import would do, nothing written. */
export const HistoryPreviewResult = z
  .object({
    dryRun: z.literal(true),
    items: z.array(
      z.object({
        text: z.string(),
        platform: z.string(),
        publishedAt: z.number().int().nullable(),
        media: z.string().nullable(),
        reactions: z.number().int().nullable(),
        comments: z.number().int().nullable(),
        shares: z.number().int().nullable(),
        impressions: z.number().int().nullable(),
        clicks: z.number().int().nullable(),
        kind: z
          .enum(['new', 'update'])
          .describe('`update`: the text is already in the history (or earlier in this batch)'),
      }),
    ),
    newEntries: z.number().int().describe('Entries the import would add'),
    duplicates: z.number().int().describe('Rows that would update an entry instead'),
  })
  .meta({ id: 'HistoryPreviewResult' });
export type HistoryPreviewResult = z.output<typeof HistoryPreviewResult>;

const Counter = z.number().int().nullable();

export const HistoryEntry = z
  .object({
    id: z
      .string()
      .describe('`hst_…` for an imported post; the post id (`pst_…`) for one published through Postkit'),
    source: z
      .enum(['import', 'postkit'])
      .describe('`postkit`: published through Postkit, counters from its latest metric snapshot'),
    postId: z.string().nullable().describe('The Postkit post, for `postkit` entries'),
    text: z.string(),
    platform: z.string(),
    publishedAt: z.number().int().nullable(),
    media: MediaKind.nullable(),
    reactions: Counter,
    comments: Counter,
    shares: Counter,
    impressions: Counter,
    clicks: Counter,
    engagement: Counter.describe('reactions + comments + shares; null when none of the three is known'),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'HistoryEntry' });
export type HistoryEntry = z.output<typeof HistoryEntry>;

export const HistoryListQuery = PaginationQuery;

export const HistoryListResult = z
  .object({ history: z.array(HistoryEntry), pagination: Pagination })
  .meta({ id: 'HistoryListResult' });

export const HistoryClearResult = z
  .object({ deleted: z.number().int().describe('Imported entries removed') })
  .meta({ id: 'HistoryClearResult' });
