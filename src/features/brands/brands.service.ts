import { and, eq } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import { brands } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import type { BrandContext } from '../../scoring/index.ts';
import { listOwned, ownedNotFound, requireOwned, requireReference } from '../tenancy.ts';
import type { Brand, BrandCreateRequest, BrandUpdateRequest } from './brands.schemas.ts';

type BrandRow = typeof brands.$inferSelect;

const toBrand = (row: BrandRow): Brand => ({
  id: row.id,
  name: row.name,
  description: row.description,
  audience: row.audience,
  themes: row.themes,
  linkPolicy: row.linkPolicy,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Newest first. */
export async function listBrands({ ctx }: Call<void>): Promise<Brand[]> {
  return (await listOwned(ctx, brands)).map(toBrand);
}

export async function createBrand({ ctx, input }: Call<BrandCreateRequest>): Promise<Brand> {
  const now = ctx.deps.clock.now();
  const [row] = await ctx.deps.db
    .insert(brands)
    .values({
      id: newId('brand'),
      accountId: ctx.caller.accountId,
      name: input.name,
      description: input.description ?? null,
      audience: input.audience ?? null,
      themes: input.themes ?? [],
      linkPolicy: input.linkPolicy ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toBrand(row!);
}

export async function getBrand({ ctx, input }: Call<{ id: string }>): Promise<Brand> {
  return toBrand(await requireOwned(ctx, brands, input.id, 'Brand'));
}

/** Changes only the fields present. */
export async function updateBrand({
  ctx,
  input,
}: Call<{ id: string; patch: BrandUpdateRequest }>): Promise<Brand> {
  const { patch } = input;
  const set: Partial<BrandRow> = { updatedAt: ctx.deps.clock.now() };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.audience !== undefined) set.audience = patch.audience;
  if (patch.themes !== undefined) set.themes = patch.themes;
  if (patch.linkPolicy !== undefined) set.linkPolicy = patch.linkPolicy;
  const [row] = await ctx.deps.db
    .update(brands)
    .set(set)
    .where(and(eq(brands.id, input.id), eq(brands.accountId, ctx.caller.accountId)))
    .returning();
  if (!row) throw ownedNotFound('Brand');
  return toBrand(row);
}

/** Voices, media and posts that pointed at the brand keep existing with brandId null (FK set null). */
export async function deleteBrand({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: boolean }> {
  const rows = await ctx.deps.db
    .delete(brands)
    .where(and(eq(brands.id, input.id), eq(brands.accountId, ctx.caller.accountId)))
    .returning({ id: brands.id });
  if (rows.length === 0) throw ownedNotFound('Brand');
  return { deleted: true };
}

/**
 * The brand a request field names, as the engines see it, plus its version for cache keys;
 * 400 naming `path` when it is not the caller's (a body reference, docs/decisions.md).
 */
export async function brandContext(
  ctx: Ctx,
  id: string,
  path = 'brandId',
): Promise<{ brand: BrandContext; version: string }> {
  const row = await requireReference(ctx, brands, id, { what: 'Brand', path });
  return {
    brand: {
      name: row.name,
      description: row.description,
      audience: row.audience,
      themes: row.themes,
      linkPolicy: row.linkPolicy,
    },
    version: `${row.id}@${row.updatedAt}`,
  };
}
