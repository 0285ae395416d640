import { z } from 'zod';
import { TextSpan } from '../../api/schemas.ts';
import { Concept, Dimension } from '../../domain/enums.ts';

/** The `personal` part of a ScoreResult: the post as this author's own history rates it. */
export const PersonalScore = z
  .object({
    overall: z
      .number()
      .min(0)
      .max(100)
      .describe(
        "0-100: the overall score re-weighted by the author's own results (shrunk toward it with little history)",
      ),
    basedOn: z.number().int().describe('History posts with engagement the personal model was fitted on'),
    expected: z
      .object({ low: z.number(), median: z.number(), high: z.number() })
      .describe(
        "Expected engagement as multiples of the author's own median (low/high: the 10th and 90th percentiles)",
      ),
    note: z.string(),
    signals: z
      .array(
        z.object({
          dimension: Dimension,
          concept: Concept,
          impact: z.enum(['positive', 'negative']),
          weight: z.number().int().min(1).max(5),
          label: z.string(),
          detail: z.string().describe("What the author's history shows, with the effect measured from it"),
          rule: z.string().optional(),
          spans: z
            .array(TextSpan)
            .describe('Where in the submitted `post` the feature stands; empty for the whole post'),
        }),
      )
      .describe(
        "Features of this post whose effect in the author's history is clear (Mann-Whitney p < 0.05)",
      ),
  })
  .describe(
    'Present with 10 or more history posts with engagement, unless the request says `personalize: false`',
  )
  .meta({ id: 'PersonalScore' });

export const Personalize = z
  .boolean()
  .optional()
  .describe('`false` leaves out `personal` (default: included when the account has a personal model)');
