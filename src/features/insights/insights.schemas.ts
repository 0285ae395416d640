import { z } from 'zod';

/** Wire shapes of GET /v1/insights: what the author's own history shows. */

export const InsightsQuery = z.object({
  timezone: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      "IANA time zone for days and hours, e.g. Europe/Paris; default the account's time zone (settings)",
    ),
});
export type InsightsQuery = z.output<typeof InsightsQuery>;

export const TimingSlot = z
  .object({
    slot: z.string().describe('A weekday (Monday) or a 3-hour window (09:00-12:00)'),
    posts: z.number().int(),
    multiple: z
      .number()
      .nullable()
      .describe("Median engagement here as a multiple of the author's median; null under 5 posts"),
    pValue: z
      .number()
      .nullable()
      .describe('Mann-Whitney test of this slot against the other posts; null when too few to test'),
    standsOut: z
      .boolean()
      .describe('Supported by the data: at least 5 posts and p under 0.05 divided by the slots tested'),
  })
  .meta({ id: 'TimingSlot' });

export const TimingInsight = z
  .object({
    posts: z.number().int().describe('Posts with engagement that this analysis could place'),
    slots: z.array(TimingSlot),
    best: z
      .array(z.string())
      .describe('Slots that stand out above the median, best first; empty when none does'),
    worst: z.array(z.string()).describe('Slots that stand out below the median'),
    note: z.string().describe('What the data supports, in one or two sentences'),
  })
  .meta({ id: 'TimingInsight' });

export const TimingCell = TimingSlot.extend({
  slot: z.string().describe('The weekday and window, e.g. "Tuesday 09:00-12:00"'),
  day: z.number().int().min(0).max(6).describe('Weekday on the author’s clock, 0 = Sunday'),
  hour: z.number().int().min(0).max(23).describe('First hour of the window on the author’s clock'),
}).meta({ id: 'TimingCell' });

export const TimingGrid = z
  .object({
    posts: z.number().int().describe('Posts with engagement and a publish time'),
    hoursPerCell: z.number().int().describe('Hours in each window: 3'),
    cells: z
      .array(TimingCell)
      .describe('Every weekday and window, Sunday 00:00-03:00 first, each with the posts behind it'),
    best: z.array(z.string()).describe('Cells that stand out above the median, best first'),
    worst: z.array(z.string()).describe('Cells that stand out below the median'),
    note: z.string().describe('What the data supports, in one or two sentences'),
  })
  .meta({ id: 'TimingGrid' });

export const Factor = z
  .object({
    feature: z.string().describe('The global model feature (a rule name, a measure, a format)'),
    label: z.string().describe('What the feature is, in a few words ("A link in the post")'),
    detail: z
      .string()
      .describe(
        'An extension: the figures in one sentence ("Your 12 posts with a link in the text earned 0.40x your median engagement, and the 30 others earned 1.20x.")',
      ),
    modelMultiple: z
      .number()
      .describe("The personal model's effect at the feature's typical value, as a multiple of engagement"),
    posts: z.number().int().describe('History posts with the feature'),
    multiple: z.number().describe("Their median engagement as a multiple of the author's median"),
    withoutPosts: z.number().int(),
    without: z.number().describe('The same for the posts without it'),
    pValue: z.number().describe('Mann-Whitney, with against without'),
  })
  .meta({ id: 'Factor' });

export const Factors = z
  .object({
    basedOn: z.number().int().describe('Posts the personal model was fitted on; 0 without a model'),
    positive: z
      .array(Factor)
      .describe(
        'Features that lift the author’s posts, strongest in the personal model first (at most 5): each has `multiple` above `without`, a difference unlikely to be chance (Benjamini-Hochberg over the features tested, false discovery rate under 0.1), and a personal-model effect above 1',
      ),
    negative: z
      .array(Factor)
      .describe('Features that hold the posts back: the mirror of `positive` (`multiple` below `without`)'),
    note: z.string().describe('What the list shows, or why nothing is named yet'),
  })
  .meta({ id: 'Factors' });
export type Factors = z.output<typeof Factors>;

export const InsightsResult = z
  .object({
    basedOn: z
      .object({
        posts: z.number().int().describe('History entries'),
        withEngagement: z.number().int(),
        withDate: z.number().int().describe('With engagement and a publish date'),
        withTime: z.number().int().describe('With engagement and a publish time of day'),
      })
      .describe('What the insights were computed from'),
    medianEngagement: z
      .number()
      .nullable()
      .describe("The author's median engagement (reactions + comments + shares); the unit of every multiple"),
    timezone: z.string(),
    days: TimingInsight,
    hours: TimingInsight,
    grid: TimingGrid.describe(
      'An extension: days and hours together, a heat map of weekday by 3-hour window in `timezone`; each cell is tested as `days` and `hours` are, against every cell tested',
    ),
    personalModel: z
      .object({
        fitted: z.boolean().describe('A personal model is in use (it needs 10+ posts with engagement)'),
        basedOn: z.number().int().describe('Posts with engagement it was fitted on; 0 without a model'),
        checkedAt: z
          .number()
          .int()
          .nullable()
          .describe('When the history was last read for a fit (epoch ms); null: never'),
        refitPending: z.boolean().describe('The history changed since: a refit is queued'),
      })
      .describe("An extension: the personal model's state"),
    factors: Factors.describe(
      "What the author's personal model weighs most, with effects measured in their history",
    ),
  })
  .meta({ id: 'InsightsResult' });
export type InsightsResult = z.output<typeof InsightsResult>;
