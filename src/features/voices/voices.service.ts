import { and, eq } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import { brands, voices } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { normalizePost, type VoiceContext, type VoiceProfile } from '../../scoring/index.ts';
import { cachedJson, cacheKey } from '../account/metered.ts';
import { listOwned, ownedNotFound, requireOwned, requireReference } from '../tenancy.ts';
import type { BuildVoiceRequest, Voice, VoiceCreateRequest, VoiceUpdateRequest } from './voices.schemas.ts';

type VoiceRow = typeof voices.$inferSelect;

const toVoice = (row: VoiceRow): Voice => ({
  id: row.id,
  brandId: row.brandId,
  name: row.name,
  traits: row.traits,
  doNot: row.doNot,
  exemplars: row.exemplars,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** A brand named in a voice's body must be the caller's (400 naming brandId otherwise). */
async function checkBrand(ctx: Ctx, brandId: string | null | undefined) {
  if (brandId) await requireReference(ctx, brands, brandId, { what: 'Brand', path: 'brandId' });
}

/**
 * Distils traits, do-nots and exemplars from samples with the engine (the model when one is
 * configured, offline analysis otherwise). A model-backed operation: metered, and cached
 * like the others, so distilling the same samples again is free.
 */
export async function distillVoice({ ctx, input }: Call<{ samples: string[] }>): Promise<VoiceProfile> {
  const samples = input.samples.map(normalizePost);
  const json = await cachedJson(ctx, cacheKey(ctx, 'voice', samples), { metered: true }, () =>
    ctx.deps.engine.distillVoice(samples),
  );
  return JSON.parse(json) as VoiceProfile;
}

/** Newest first. */
export async function listVoices({ ctx }: Call<void>): Promise<Voice[]> {
  return (await listOwned(ctx, voices)).map(toVoice);
}

/** With `samples` the profile is distilled and explicit lists are ignored; without, they are stored as given. */
export async function createVoice({ ctx, input }: Call<VoiceCreateRequest>): Promise<Voice> {
  await checkBrand(ctx, input.brandId);
  const profile: VoiceProfile = input.samples
    ? await distillVoice({ ctx, input: { samples: input.samples } })
    : { traits: input.traits ?? [], doNot: input.doNot ?? [], exemplars: input.exemplars ?? [] };
  const now = ctx.deps.clock.now();
  const [row] = await ctx.deps.db
    .insert(voices)
    .values({
      id: newId('voice'),
      accountId: ctx.caller.accountId,
      brandId: input.brandId ?? null,
      name: input.name,
      ...profile,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toVoice(row!);
}

export async function buildVoice({ ctx, input }: Call<BuildVoiceRequest>): Promise<Voice> {
  return createVoice({ ctx, input });
}

export async function getVoice({ ctx, input }: Call<{ id: string }>): Promise<Voice> {
  return toVoice(await requireOwned(ctx, voices, input.id, 'Voice'));
}

export async function updateVoice({
  ctx,
  input,
}: Call<{ id: string; patch: VoiceUpdateRequest }>): Promise<Voice> {
  const { patch } = input;
  await checkBrand(ctx, patch.brandId);
  const set: Partial<VoiceRow> = { updatedAt: ctx.deps.clock.now() };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.brandId !== undefined) set.brandId = patch.brandId;
  if (patch.traits !== undefined) set.traits = patch.traits;
  if (patch.doNot !== undefined) set.doNot = patch.doNot;
  if (patch.exemplars !== undefined) set.exemplars = patch.exemplars;
  const [row] = await ctx.deps.db
    .update(voices)
    .set(set)
    .where(and(eq(voices.id, input.id), eq(voices.accountId, ctx.caller.accountId)))
    .returning();
  if (!row) throw ownedNotFound('Voice');
  return toVoice(row);
}

export async function deleteVoice({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: boolean }> {
  const rows = await ctx.deps.db
    .delete(voices)
    .where(and(eq(voices.id, input.id), eq(voices.accountId, ctx.caller.accountId)))
    .returning({ id: voices.id });
  if (rows.length === 0) throw ownedNotFound('Voice');
  return { deleted: true };
}

/**
 * The voice a request field names, as the engines see it, plus its version for cache keys;
 * 400 naming `path` when it is not the caller's (a body reference, docs/decisions.md).
 */
export async function voiceContext(
  ctx: Ctx,
  id: string,
  path = 'voiceId',
): Promise<{ voice: VoiceContext; version: string }> {
  const row = await requireReference(ctx, voices, id, { what: 'Voice', path });
  return {
    voice: { name: row.name, traits: row.traits, doNot: row.doNot, exemplars: row.exemplars },
    version: `${row.id}@${row.updatedAt}`,
  };
}
