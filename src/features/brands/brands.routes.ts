import { DeleteResult, errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { BrandCreateRequest, BrandListResult, BrandResult, BrandUpdateRequest } from './brands.schemas.ts';
import { createBrand, deleteBrand, getBrand, listBrands, updateBrand } from './brands.service.ts';

const tags = ['memory'];

export const brandRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/brands',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List brands',
        description: 'Newest first.',
        response: { 200: BrandListResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ brands: await listBrands({ ctx: request.ctx, input: undefined }) }),
  );

  app.post(
    '/v1/brands',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Create a brand',
        body: BrandCreateRequest,
        response: { 201: BrandResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ brand: await createBrand({ ctx: request.ctx, input: request.body }) }),
  );

  app.get(
    '/v1/brands/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get a brand',
        params: IdParams,
        response: { 200: BrandResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ brand: await getBrand({ ctx: request.ctx, input: request.params }) }),
  );

  app.patch(
    '/v1/brands/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Update a brand',
        description: 'Only the fields present are changed.',
        params: IdParams,
        body: BrandUpdateRequest,
        response: { 200: BrandResult, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      brand: await updateBrand({ ctx: request.ctx, input: { id: request.params.id, patch: request.body } }),
    }),
  );

  app.delete(
    '/v1/brands/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a brand',
        description: 'Attached voices (and media and posts) are kept; their `brandId` becomes null.',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => deleteBrand({ ctx: request.ctx, input: request.params }),
  );
};
