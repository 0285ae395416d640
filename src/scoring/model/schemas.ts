import { z } from 'zod';
import { Concept, Dimension, HookArchetype, MediaKind } from '../../domain/enums.ts';

/**
 * What the model may return, per task. The judge has no `overall` (the service computes it)
 * and no rule names (rules are the service's); unknown keys are dropped by zod.
 */

const Grade = z.number().int().min(0).max(100);

export const JudgeOutput = z.object({
  scores: z.object({
    hook: Grade.describe('Would the first line stop a scrolling reader?'),
    specificity: Grade.describe('Concrete numbers, names, examples instead of generalities'),
    voice: Grade.describe('Sounds like one person, not a brand or a machine'),
    engagement: Grade.describe('Gives readers a reason and a way to reply'),
    structure: Grade.describe('Easy to read on a phone: short paragraphs, rhythm, order'),
  }),
  signals: z
    .array(
      z.object({
        dimension: Dimension,
        concept: Concept.optional().describe('The one writer-facing concept the note is about'),
        impact: z.enum(['positive', 'negative']),
        weight: z.number().int().min(1).max(5),
        label: z.string().min(1).max(80),
        detail: z.string().min(1).max(240).describe('One sentence'),
      }),
    )
    .max(6),
});
export type JudgeOutput = z.output<typeof JudgeOutput>;

export const RewriteOutput = z.object({
  rewrite: z.string().min(1).describe('The post; when it became a thread, its first part'),
  thread: z
    .array(z.string().min(1))
    .max(24)
    .optional()
    .describe('The replies after the first part, only when the platform has threads and the post needs one'),
  firstComment: z
    .string()
    .nullable()
    .optional()
    .describe('The links moved out of the body, one a line; null when none moved'),
  changes: z
    .array(z.object({ dimension: Dimension, note: z.string().min(1).max(240) }))
    .max(8)
    .describe('One entry per edit you made, naming the dimension it serves'),
});
export type RewriteOutput = z.output<typeof RewriteOutput>;

export const GenerateOutput = z.object({
  candidates: z
    .array(z.object({ post: z.string().min(1) }))
    .min(1)
    .max(3),
});
export type GenerateOutput = z.output<typeof GenerateOutput>;

export const PlanOutput = z.object({
  items: z
    .array(
      z.object({
        pillar: z.string().min(1).max(80),
        hook: z.string().min(1).max(200),
        angle: z.string().min(1).max(300),
        format: MediaKind,
        archetype: HookArchetype,
      }),
    )
    .min(1)
    .max(14),
});
export type PlanOutput = z.output<typeof PlanOutput>;

export const VoiceOutput = z.object({
  traits: z.array(z.string().min(1).max(160)).min(1).max(8),
  doNot: z.array(z.string().min(1).max(160)).max(6),
  exemplars: z
    .array(z.string().min(1).max(400))
    .min(1)
    .max(3)
    .describe('Verbatim snippets copied from the samples'),
});
export type VoiceOutput = z.output<typeof VoiceOutput>;
