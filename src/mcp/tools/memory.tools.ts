import { z } from 'zod';
import { BrandListResult } from '../../features/brands/brands.schemas.ts';
import { listBrands } from '../../features/brands/brands.service.ts';
import { BuildVoiceRequest, VoiceListResult, VoiceResult } from '../../features/voices/voices.schemas.ts';
import { buildVoice, listVoices } from '../../features/voices/voices.service.ts';
import { creates, defineTool, plural, readOnly } from '../tool.ts';
import { MODEL_COST } from './intelligence.tools.ts';

const NoArguments = z.object({}).strict();

export const memoryTools = [
  defineTool({
    name: 'build_voice',
    title: 'Build a voice from samples',
    description: `Creates a saved writing voice by distilling 1-12 sample posts by the author (samples) into traits to imitate, things to avoid and short exemplars, under a name (optionally attached to a brandId). Use it once per author or style, then pass the returned voice.id as voiceId to generate_post and plan_week; check list_voices first to reuse an existing one. invalid_request naming brandId when it is not the account's. ${MODEL_COST}`,
    input: BuildVoiceRequest,
    output: VoiceResult,
    annotations: creates,
    scope: 'write',
    modelBacked: true,
    idempotentAs: { method: 'POST', url: '/v1/voices/build', status: 201 },
    run: async (ctx, input) => ({ voice: await buildVoice({ ctx, input }) }),
    summarize: ({ voice }) =>
      `Built voice ${voice.id} "${voice.name}": ${plural(voice.traits.length, 'trait')}, ${plural(voice.doNot.length, 'do-not')}, ${plural(voice.exemplars.length, 'exemplar')}.`,
  }),
  defineTool({
    name: 'list_brands',
    title: 'List brands',
    description:
      "Lists the account's brands (workspace context: name, description, audience, themes, link policy), newest first. Use it to find the brandId to pass to generate_post, plan_week, build_voice or create_post so output fits the brand. Brands are created and edited through the REST API. Free.",
    input: NoArguments,
    output: BrandListResult,
    annotations: readOnly,
    scope: 'read',
    run: async (ctx) => ({ brands: await listBrands({ ctx, input: undefined }) }),
    summarize: ({ brands }) =>
      `${plural(brands.length, 'brand')}.${brands
        .map((b) => `\n- ${b.id} ${b.name}${b.themes.length ? ` (themes: ${b.themes.join(', ')})` : ''}`)
        .join('')}`,
  }),
  defineTool({
    name: 'list_voices',
    title: 'List voices',
    description:
      "Lists the account's writing voices (traits, do-nots, exemplars, optional brandId), newest first. Use it to find the voiceId to pass to generate_post or plan_week, and before build_voice to avoid building a duplicate. Free.",
    input: NoArguments,
    output: VoiceListResult,
    annotations: readOnly,
    scope: 'read',
    run: async (ctx) => ({ voices: await listVoices({ ctx, input: undefined }) }),
    summarize: ({ voices }) =>
      `${plural(voices.length, 'voice')}.${voices
        .map((v) => `\n- ${v.id} ${v.name}${v.brandId ? ` (brand ${v.brandId})` : ''}`)
        .join('')}`,
  }),
];
