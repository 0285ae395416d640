import { z } from 'zod';
import { Pagination, PaginationQuery } from '../../api/schemas.ts';
import { MEDIA_TYPES } from './media-types.ts';

export const Media = z
  .object({
    id: z.string(),
    accountId: z.string(),
    brandId: z.string().nullable(),
    contentType: z.enum(MEDIA_TYPES).describe('Validated against the file magic bytes'),
    size: z.number().int().describe('Bytes'),
    filename: z.string().nullable().describe('Basename from X-Filename'),
    sha256: z.string().describe('Hex SHA-256 of the stored bytes'),
    createdAt: z.number().int(),
  })
  .meta({ id: 'Media' });
export type Media = z.output<typeof Media>;

export const MediaResult = z.object({ media: Media }).meta({ id: 'MediaResult' });
export const MediaListResult = z
  .object({ media: z.array(Media), pagination: Pagination })
  .meta({ id: 'MediaListResult' });

export const UploadQuery = z.object({
  brandId: z.string().min(1).max(64).optional().describe('A brand of the caller'),
});

export const MediaListQuery = PaginationQuery;
