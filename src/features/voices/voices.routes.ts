import { DeleteResult, errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import {
  BuildVoiceRequest,
  VoiceCreateRequest,
  VoiceListResult,
  VoiceResult,
  VoiceUpdateRequest,
} from './voices.schemas.ts';
import { buildVoice, createVoice, deleteVoice, getVoice, listVoices, updateVoice } from './voices.service.ts';

const tags = ['memory'];

export const voiceRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/voices',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List voices',
        description: 'Newest first.',
        response: { 200: VoiceListResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ voices: await listVoices({ ctx: request.ctx, input: undefined }) }),
  );

  app.post(
    '/v1/voices',
    {
      // Distillation from samples is model-backed: it spends the model budget and the quota.
      config: { scope: 'write', modelBudget: true, idempotent: true },
      schema: {
        tags,
        summary: 'Create a voice',
        description:
          'With `samples`, traits, do-nots and exemplars are distilled from them (one model-backed operation) and any explicit lists are ignored; without, the lists are stored as given.',
        body: VoiceCreateRequest,
        response: { 201: VoiceResult, ...errorResponses(400, 401, 402, 429, 502) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ voice: await createVoice({ ctx: request.ctx, input: request.body }) }),
  );

  app.post(
    '/v1/voices/build',
    {
      config: { scope: 'write', modelBudget: true, idempotent: true },
      schema: {
        tags,
        summary: 'Build a voice from samples',
        description: 'Distils traits, do-nots and exemplars from 1-12 sample posts and saves the voice.',
        body: BuildVoiceRequest,
        response: { 201: VoiceResult, ...errorResponses(400, 401, 402, 429, 502) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ voice: await buildVoice({ ctx: request.ctx, input: request.body }) }),
  );

  app.get(
    '/v1/voices/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get a voice',
        params: IdParams,
        response: { 200: VoiceResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ voice: await getVoice({ ctx: request.ctx, input: request.params }) }),
  );

  app.patch(
    '/v1/voices/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Update a voice',
        description: 'Only the fields present are changed; `brandId: null` detaches the voice.',
        params: IdParams,
        body: VoiceUpdateRequest,
        response: { 200: VoiceResult, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      voice: await updateVoice({ ctx: request.ctx, input: { id: request.params.id, patch: request.body } }),
    }),
  );

  app.delete(
    '/v1/voices/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a voice',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => deleteVoice({ ctx: request.ctx, input: request.params }),
  );
};
