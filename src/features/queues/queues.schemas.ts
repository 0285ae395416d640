import { z } from 'zod';

/** Wire shapes of a channel's posting queue (/v1/channels/{id}/queue). */

export const MAX_QUEUE_SLOTS = 100;

export const QueueSlot = z
  .object({
    day: z.number().int().min(1).max(7).describe('ISO weekday: Monday = 1 ... Sunday = 7'),
    time: z
      .string()
      .max(5)
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A 24-hour local time such as 09:30')
      .describe('Local wall time, HH:MM (24-hour)'),
  })
  .strict()
  .meta({ id: 'QueueSlot' });
export type QueueSlot = z.output<typeof QueueSlot>;

export const Queue = z
  .object({
    timezone: z.string().describe('IANA time zone the slots are in, e.g. Europe/Paris'),
    slots: z.array(QueueSlot).describe('Weekly slots, in weekday then time order'),
  })
  .meta({ id: 'Queue' });
export type Queue = z.output<typeof Queue>;

export const SetQueueRequest = z
  .object({
    timezone: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("IANA time zone, e.g. Europe/Paris; default the account's time zone (settings)"),
    slots: z
      .array(QueueSlot)
      .max(MAX_QUEUE_SLOTS)
      .describe(`At most ${MAX_QUEUE_SLOTS} distinct weekly slots`),
  })
  .strict()
  .meta({ id: 'SetQueueRequest' });
export type SetQueueRequest = z.output<typeof SetQueueRequest>;

export const QueueResult = z.object({ queue: Queue }).meta({ id: 'QueueResult' });

export const UpcomingSlot = z
  .object({
    at: z.number().int().describe('Epoch ms of the slot'),
    postId: z.string().nullable().describe('The post scheduled on this channel at that time; null when free'),
  })
  .meta({ id: 'UpcomingSlot' });

export const QueueViewResult = z
  .object({ queue: Queue, upcoming: z.array(UpcomingSlot).describe('The next slot times, soonest first') })
  .meta({ id: 'QueueViewResult' });
export type QueueViewResult = z.output<typeof QueueViewResult>;

export const QueueViewQuery = z.object({
  count: z.coerce.number().int().min(1).max(100).default(10).describe('How many upcoming slot times, 1-100'),
});

export const SuggestQuery = z.object({
  count: z.coerce.number().int().min(1).max(21).default(5).describe('How many slots to propose, 1-21'),
  timezone: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("IANA zone for the proposals; default the queue's zone, else the account's (settings)"),
});
export type SuggestQuery = z.output<typeof SuggestQuery>;

export const SuggestedSlot = z
  .object({
    day: z.number().int().min(1).max(7),
    time: z.string(),
    posts: z
      .number()
      .int()
      .nullable()
      .describe('History posts published in this weekday and 3-hour window; null for a general figure'),
    multiple: z
      .number()
      .nullable()
      .describe("Their median engagement as a multiple of the author's median; null for a general figure"),
    reason: z.string().describe('Why this slot, in one sentence'),
  })
  .meta({ id: 'SuggestedSlot' });
export type SuggestedSlot = z.output<typeof SuggestedSlot>;

export const SuggestResult = z
  .object({
    source: z
      .enum(['history', 'general'])
      .describe('history: from your own results; general: the published figures, when history is thin'),
    timezone: z.string(),
    basedOn: z.number().int().describe('History posts with engagement and a publish time that were weighed'),
    slots: z.array(SuggestedSlot),
    note: z.string().describe('What the proposal rests on, in one or two sentences'),
  })
  .meta({ id: 'SuggestResult' });
export type SuggestResult = z.output<typeof SuggestResult>;
