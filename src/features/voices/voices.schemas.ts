import { z } from 'zod';

/** Voices: writing profiles, explicit or distilled from sample posts (CONTRACT.md "Voice"). */

export const Voice = z
  .object({
    id: z.string(),
    brandId: z.string().nullable(),
    name: z.string(),
    traits: z.array(z.string()).describe('Traits to imitate'),
    doNot: z.array(z.string()),
    exemplars: z.array(z.string()).describe('Few-shot snippets'),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Voice' });
export type Voice = z.output<typeof Voice>;

const Name = z.string().trim().min(1).max(200);
const Lines = z.array(z.string().trim().min(1).max(1_000)).max(20);
const Sample = z
  .string()
  .max(10_000)
  .refine((s) => s.trim().length > 0, 'a sample must not be empty');
const Samples = z.array(Sample).min(1).max(12);
const BrandRef = z.string().min(1).max(64);

export const VoiceCreateRequest = z
  .object({
    name: Name,
    brandId: BrandRef.optional().describe('Must belong to the caller'),
    samples: Samples.optional().describe(
      '1-12 sample posts; when present the profile is distilled from them and traits/doNot/exemplars are ignored',
    ),
    traits: Lines.optional(),
    doNot: Lines.optional(),
    exemplars: Lines.optional(),
  })
  .strict()
  .meta({ id: 'VoiceCreateRequest' });
export type VoiceCreateRequest = z.output<typeof VoiceCreateRequest>;

export const BuildVoiceRequest = z
  .object({
    name: Name,
    brandId: BrandRef.optional().describe('Must belong to the caller'),
    samples: Samples.describe('1-12 sample posts to distil'),
  })
  .strict()
  .meta({ id: 'BuildVoiceRequest' });
export type BuildVoiceRequest = z.output<typeof BuildVoiceRequest>;

export const VoiceUpdateRequest = z
  .object({
    name: Name.optional(),
    brandId: BrandRef.nullable().optional().describe('null detaches the voice from its brand'),
    traits: Lines.optional(),
    doNot: Lines.optional(),
    exemplars: Lines.optional(),
  })
  .strict()
  .meta({ id: 'VoiceUpdateRequest' });
export type VoiceUpdateRequest = z.output<typeof VoiceUpdateRequest>;

export const VoiceResult = z.object({ voice: Voice }).meta({ id: 'VoiceResult' });
export const VoiceListResult = z.object({ voices: z.array(Voice) }).meta({ id: 'VoiceListResult' });
