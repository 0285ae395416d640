import { and, desc, eq } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import { brands } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import type { BrandContext } from '../../intelligence/types.ts';
import { newId } from '../../lib/ids.ts';
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

/** 404 for a brand id that is unknown or another account's; `path` names the field that carried it. */
export const brandNotFound = (path?: string) =>
  new AppError(404, 'not_found', 'Brand not found for this account.', {
    details: path ? [{ path, message: 'no brand with this id belongs to the calling account' }] : undefined,
  });

async function findBrand(ctx: Ctx, id: string): Promise<BrandRow | undefined> {
  const [row] = await ctx.deps.db
    .select()
    .from(brands)
    .where(and(eq(brands.id, id), eq(brands.accountId, ctx.caller.accountId)));
  return row;
}

/** Newest first. */
export async function listBrands({ ctx }: Call<void>): Promise<Brand[]> {
  const rows = await ctx.deps.db
    .select()
    .from(brands)
    .where(eq(brands.accountId, ctx.caller.accountId))
    .orderBy(desc(brands.createdAt), desc(brands.id));
  return rows.map(toBrand);
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
  const row = await findBrand(ctx, input.id);
  if (!row) throw brandNotFound();
  return toBrand(row);
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
  if (!row) throw brandNotFound();
  return toBrand(row);
}

/** Voices, media and posts that pointed at the brand keep existing with brandId null (FK set null). */
export async function deleteBrand({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: boolean }> {
  const rows = await ctx.deps.db
    .delete(brands)
    .where(and(eq(brands.id, input.id), eq(brands.accountId, ctx.caller.accountId)))
    .returning({ id: brands.id });
  if (rows.length === 0) throw brandNotFound();
  return { deleted: true };
}

/** The brand as the engines see it, plus its version for cache keys; 404 when not the caller's. */
export async function brandContext(
  ctx: Ctx,
  id: string,
  path = 'brandId',
): Promise<{ brand: BrandContext; version: string }> {
  const row = await findBrand(ctx, id);
  if (!row) throw brandNotFound(path);
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

/** True when the brand exists and belongs to the caller (voices check references with it). */
export async function ownsBrand(ctx: Ctx, id: string): Promise<boolean> {
  return (await findBrand(ctx, id)) !== undefined;
}
