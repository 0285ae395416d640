import type { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { brands, media } from '../../db/schema/index.ts';
import { InternalFailure, Invalid, UnsupportedType } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';
import { StoredObjectMissing } from '../../storage/storage.ts';
import type { PageRequest } from '../pagination.ts';
import { ownedNotFound, pageOwned, requireOwned, requireReference } from '../tenancy.ts';
import type { Media } from './media.schemas.ts';
import {
  isMediaType,
  MEDIA_TYPES,
  type MediaType,
  maxBytesFor,
  normalizeContentType,
} from './media-types.ts';
import { inspectUpload, tooLarge } from './upload-inspector.ts';

type MediaRow = typeof media.$inferSelect;

export const toMedia = (row: MediaRow): Media => ({
  id: row.id,
  accountId: row.accountId,
  brandId: row.brandId,
  contentType: row.contentType as MediaType,
  size: row.size,
  filename: row.filename,
  sha256: row.sha256,
  createdAt: row.createdAt,
});

export interface UploadInput {
  /** The raw Content-Type header. */
  contentType: string | undefined;
  /** The Content-Length header, when the client sent one. */
  contentLength: number | undefined;
  filename: string | null;
  brandId: string | undefined;
  body: Readable | undefined;
}

/**
 * Stores an upload: the declared type must be one of the six and match the magic bytes (415),
 * the size must fit the type's limit (413, enforced while streaming), and a brand must be the
 * caller's. The bytes land in storage before the row is written; a failed write leaves neither.
 */
export async function uploadMedia({ ctx, input }: Call<UploadInput>): Promise<Media> {
  const { deps } = ctx;
  const declared = normalizeContentType(input.contentType);
  if (!declared || !isMediaType(declared)) {
    throw new UnsupportedType(
      `${declared ? `Content-Type ${declared} is not accepted` : 'Content-Type is missing'}; send one of ${MEDIA_TYPES.join(', ')}.`,
    );
  }
  const limit = maxBytesFor(deps.config, declared);
  if (input.contentLength !== undefined && input.contentLength > limit) throw tooLarge(declared, limit);
  if (input.brandId !== undefined) {
    await requireReference(ctx, brands, input.brandId, { what: 'Brand', path: 'querystring.brandId' });
  }
  if (!input.body || input.contentLength === 0) {
    throw new Invalid('The upload is empty; send the file bytes as the body.');
  }

  const id = newId('media');
  const storageKey = `${ctx.caller.accountId}/${id}`;
  const upload = inspectUpload(input.body, declared, limit);
  await deps.storage.put(storageKey, upload.stream, { contentType: declared });
  const { size, sha256 } = upload.summary();
  try {
    const [row] = await deps.db
      .insert(media)
      .values({
        id,
        accountId: ctx.caller.accountId,
        brandId: input.brandId ?? null,
        contentType: declared,
        size,
        filename: input.filename,
        sha256,
        storageKey,
        createdAt: deps.clock.now(),
      })
      .returning();
    return toMedia(row!);
  } catch (err) {
    await deps.storage.delete(storageKey).catch(() => {});
    throw err;
  }
}

export async function listMedia({ ctx, input }: Call<PageRequest>) {
  const { items, pagination } = await pageOwned(ctx, media, input);
  return { media: items.map(toMedia), pagination };
}

export async function getMedia({ ctx, input }: Call<{ id: string }>): Promise<Media> {
  return toMedia(await requireOwned(ctx, media, input.id, 'Media'));
}

/**
 * Removes the row first, then the bytes: a crash in between leaves an orphaned object (harmless)
 * rather than a row pointing at nothing. Posts that still reference the id fail to publish
 * with a clear error.
 */
export async function deleteMedia({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: boolean }> {
  const [row] = await ctx.deps.db
    .delete(media)
    .where(and(eq(media.id, input.id), eq(media.accountId, ctx.caller.accountId)))
    .returning({ storageKey: media.storageKey });
  if (!row) throw ownedNotFound('Media');
  try {
    await ctx.deps.storage.delete(row.storageKey);
  } catch (err) {
    ctx.log.warn({ err, mediaId: input.id }, 'media row deleted but its stored object could not be removed');
  }
  return { deleted: true };
}

/** The stored bytes with their metadata, for streaming to the client. */
export async function openMediaContent({ ctx, input }: Call<{ id: string }>) {
  const row = await requireOwned(ctx, media, input.id, 'Media');
  try {
    return { media: toMedia(row), stream: await ctx.deps.storage.get(row.storageKey) };
  } catch (err) {
    if (err instanceof StoredObjectMissing) {
      ctx.log.error({ mediaId: row.id }, 'media row without its stored object');
      throw new InternalFailure('The stored file for this media is missing.');
    }
    throw err;
  }
}
