import type { Readable } from 'node:stream';
import { z } from 'zod';
import { DeleteResult, errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { MediaListQuery, MediaListResult, MediaResult, UploadQuery } from './media.schemas.ts';
import { deleteMedia, getMedia, listMedia, openMediaContent, uploadMedia } from './media.service.ts';
import { MEDIA_TYPES, toBasename } from './media-types.ts';

const tags = ['media'];

const UploadHeaders = z.object({
  'x-filename': z.string().max(1024).optional().describe('Original file name; reduced to its basename'),
});

export const mediaRoutes: FeatureRoutes = async (app) => {
  // This plugin's only body is an upload: hand every content type to the handler as the raw
  // stream (never buffered), and let the service judge the declared type and the bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.post(
    '/v1/media',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Upload media',
        description: `Send the raw file as the body with its Content-Type (${MEDIA_TYPES.join(', ')}). The type must match the file's magic bytes (else 415) and the size must fit the type's limit (else 413, checked while the body streams in). Optional \`X-Filename\` header and \`brandId\` query.`,
        consumes: [...MEDIA_TYPES],
        // Documents the raw body for the reference; the stream itself is judged by the service.
        body: z.any().meta({ type: 'string', format: 'binary', description: 'The file bytes' }),
        querystring: UploadQuery,
        headers: UploadHeaders,
        response: { 201: MediaResult, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const length = request.headers['content-length'];
      try {
        const media = await uploadMedia({
          ctx: request.ctx,
          input: {
            contentType: request.headers['content-type'],
            contentLength: length === undefined ? undefined : Number(length),
            filename: toBasename(request.headers['x-filename']),
            brandId: request.query.brandId,
            body: request.body as Readable | undefined,
          },
        });
        return reply.status(201).send({ media });
      } catch (err) {
        // Refused before the body was read to its end: close the connection rather than let the
        // server drain (possibly hundreds of MB of) bytes nobody wants.
        if (!request.raw.complete) reply.header('connection', 'close');
        throw err;
      }
    },
  );

  app.get(
    '/v1/media',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List media',
        description: 'Newest first.',
        querystring: MediaListQuery,
        response: { 200: MediaListResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => listMedia({ ctx: request.ctx, input: request.query }),
  );

  app.get(
    '/v1/media/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get media metadata',
        params: IdParams,
        response: { 200: MediaResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ media: await getMedia({ ctx: request.ctx, input: request.params }) }),
  );

  app.delete(
    '/v1/media/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete media',
        description: 'Removes the metadata and the stored object.',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => deleteMedia({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/v1/media/:id/content',
    {
      config: {
        scope: 'read',
        rawResponses: { 200: { description: 'The stored bytes', types: MEDIA_TYPES, binary: true } },
      },
      schema: {
        tags,
        summary: 'Download media bytes',
        description: 'Streams the stored bytes with the original Content-Type.',
        params: IdParams,
        response: errorResponses(401, 404, 429),
      },
    },
    async (request, reply) => {
      const { media, stream } = await openMediaContent({ ctx: request.ctx, input: request.params });
      const disposition = media.filename
        ? `inline; filename*=UTF-8''${encodeURIComponent(media.filename)}`
        : 'inline';
      return reply
        .type(media.contentType)
        .header('content-length', String(media.size))
        .header('etag', `"${media.sha256}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', disposition)
        .send(stream as never);
    },
  );
};
