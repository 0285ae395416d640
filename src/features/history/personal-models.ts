import { createHash } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppDeps, Ctx } from '../../context.ts';
import { personalModels, posts } from '../../db/schema/index.ts';
import type { MediaKind } from '../../domain/enums.ts';
import { claimBatch } from '../../jobs/claim-batch.ts';
import { DEFAULT_PLATFORM, isPlatformId } from '../../platforms/profiles.ts';
import {
  FEATURE_NAMES,
  fitPersonalModel,
  globalWeights,
  offlineScored,
  PERSONAL_SCHEMA,
  type PersonalModel,
  reportable,
  scoreModel,
} from '../../scoring/index.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { readHistory } from './history-view.ts';

/**
 * Each account's personal model: fitted in the background from its history, stored with a
 * version, read (through a short in-process cache) when a score is personalised.
 */

/** A claimed fit that has not finished by then is taken to have died with its process. */
export const FIT_LEASE_MS = 120_000;
/** How long a process trusts its cached copy of an account's model before re-reading it. */
const CACHE_TTL_MS = 5_000;

export interface StoredPersonal {
  version: number;
  model: PersonalModel;
}

declare module '../../context.ts' {
  interface ProcessMemory {
    /** Each account's personal model as last read (trusted for CACHE_TTL_MS), by account id. */
    personalModels: Map<string, { at: number; value: StoredPersonal | null }>;
  }
}

/** History or metrics changed: the model is due a refit (durably), and the sweep is woken. */
export async function markPersonalStale(deps: AppDeps, accountId: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db
    .insert(personalModels)
    .values({ accountId, staleSince: now, updatedAt: now })
    .onConflictDoUpdate({
      target: personalModels.accountId,
      set: { staleSince: sql`coalesce(${personalModels.staleSince}, ${now})`, updatedAt: now },
    });
  deps.wake(SweepName.personal);
}

/**
 * A stored model is used when it was fitted on the global model in use and has this code's
 * shape (PERSONAL_SCHEMA); any other is stale and refitted by the sweep (markChangedInputs).
 */
function isCurrent(row: { model: unknown; globalVersion: string | null }): boolean {
  const model = row.model as { schema?: unknown } | null;
  return model?.schema === PERSONAL_SCHEMA && row.globalVersion === scoreModel().version;
}

/** Where the account's personal model stands, for people: what it learned from and when. */
export async function personalModelState(
  ctx: Ctx,
): Promise<{ fitted: boolean; basedOn: number; checkedAt: number | null; refitPending: boolean }> {
  const [row] = await ctx.deps.db
    .select({
      model: personalModels.model,
      basedOn: personalModels.basedOn,
      globalVersion: personalModels.globalVersion,
      checkedAt: personalModels.checkedAt,
      staleSince: personalModels.staleSince,
    })
    .from(personalModels)
    .where(eq(personalModels.accountId, ctx.caller.accountId));
  const fitted = row !== undefined && isCurrent(row);
  return {
    fitted,
    basedOn: fitted ? row!.basedOn : 0,
    checkedAt: row?.checkedAt ?? null,
    refitPending: row?.staleSince != null,
  };
}

/** The account's current model, or null without one (not enough history, or fitted on another global model). */
export async function loadPersonal(ctx: Ctx): Promise<StoredPersonal | null> {
  const accountId = ctx.caller.accountId;
  const now = ctx.deps.clock.now();
  const cache = ctx.deps.memory.personalModels;
  const hit = cache.get(accountId);
  if (hit && now - hit.at < CACHE_TTL_MS) return hit.value;
  const [row] = await ctx.deps.db
    .select({
      version: personalModels.version,
      model: personalModels.model,
      globalVersion: personalModels.globalVersion,
    })
    .from(personalModels)
    .where(eq(personalModels.accountId, accountId));
  const value =
    row !== undefined && isCurrent(row)
      ? { version: row.version, model: row.model as unknown as PersonalModel }
      : null;
  if (cache.size > 10_000) cache.clear();
  cache.set(accountId, { at: now, value });
  return value;
}

/** Rows due a refit: stale and not held by a live fit, claimed by stamping `claimedAt`. */
async function claimStale(deps: AppDeps, limit: number): Promise<{ accountId: string; claimedAt: number }[]> {
  const now = deps.clock.now();
  const rows = await claimBatch(deps.db, {
    table: personalModels,
    key: personalModels.accountId,
    where: and(
      isNotNull(personalModels.staleSince),
      or(isNull(personalModels.claimedAt), lt(personalModels.claimedAt, now - FIT_LEASE_MS)),
    ),
    orderBy: personalModels.staleSince,
    limit,
    set: { claimedAt: now },
  });
  return rows.map((r) => ({ accountId: r.accountId, claimedAt: now }));
}

/**
 * Marks stale the accounts whose published posts were polled since their model last read its
 * inputs (a metrics change), and models fitted on another global model version or stored in
 * another shape (PERSONAL_SCHEMA).
 */
async function markChangedInputs(deps: AppDeps): Promise<void> {
  const now = deps.clock.now();
  await deps.db.execute(sql`
    insert into ${personalModels} (account_id, stale_since, updated_at)
    select p.account_id, ${now}::bigint, ${now}::bigint from ${posts} p
    left join ${personalModels} pm on pm.account_id = p.account_id
    where p.status = 'published' and p.metrics_polled_at is not null
      and (pm.account_id is null or (pm.stale_since is null and p.metrics_polled_at > coalesce(pm.checked_at, 0)))
    group by p.account_id
    on conflict (account_id) do update set stale_since = coalesce(${personalModels}.stale_since, excluded.stale_since)`);
  await deps.db
    .update(personalModels)
    .set({ staleSince: now })
    .where(
      and(
        isNull(personalModels.staleSince),
        or(
          and(
            isNotNull(personalModels.globalVersion),
            sql`${personalModels.globalVersion} <> ${scoreModel().version}`,
          ),
          and(
            isNotNull(personalModels.model),
            sql`${personalModels.model}->>'schema' is distinct from ${PERSONAL_SCHEMA}`,
          ),
        ),
      ),
    );
}

/** Fits one account's model from its history now; returns whether the stored model changed. */
export async function refitPersonal(deps: AppDeps, accountId: string, claimedAt: number): Promise<boolean> {
  const global = scoreModel();
  const rows = (await readHistory(deps.db, accountId)).filter(
    (r) => r.reactions !== null || r.comments !== null || r.shares !== null,
  );
  const engagement = rows.map((r) => (r.reactions ?? 0) + (r.comments ?? 0) + (r.shares ?? 0));
  const fingerprint = createHash('sha256')
    .update(global.version)
    .update(PERSONAL_SCHEMA)
    .update(JSON.stringify(rows.map((r, i) => [r.id, r.text.length, r.media, engagement[i]])))
    .digest('hex');
  const [current] = await deps.db
    .select({ fingerprint: personalModels.fingerprint, model: personalModels.model })
    .from(personalModels)
    .where(eq(personalModels.accountId, accountId));
  // The same inputs fit the same model, unless the stored one has another shape (PERSONAL_SCHEMA).
  const unchanged =
    current?.fingerprint === fingerprint &&
    (current.model === null || current.model.schema === PERSONAL_SCHEMA);
  const read = unchanged
    ? []
    : rows.map((r) =>
        offlineScored(
          {
            post: r.text,
            platform: isPlatformId(r.platform) ? r.platform : DEFAULT_PLATFORM,
            media: (r.media as MediaKind | null) ?? undefined,
          },
          global,
        ),
      );
  const model = unchanged
    ? undefined
    : fitPersonalModel({
        names: FEATURE_NAMES,
        x: read.map((p) => p.x),
        engagement,
        overall: read.map((p) => p.overall),
        globalWeights: globalWeights(global),
        globalVersion: global.version,
        reportable,
      });
  const now = deps.clock.now();
  await deps.db
    .update(personalModels)
    .set({
      ...(model === undefined
        ? {}
        : {
            model: model as unknown as Record<string, unknown>,
            basedOn: model?.basedOn ?? rows.length,
            globalVersion: global.version,
            fingerprint,
            version: sql`${personalModels.version} + 1`,
            fittedAt: now,
          }),
      // A change that arrived during the fit keeps the row stale for another pass.
      staleSince: sql`case when ${personalModels.staleSince} > ${claimedAt} then ${personalModels.staleSince} else null end`,
      claimedAt: null,
      checkedAt: claimedAt,
      updatedAt: now,
    })
    .where(and(eq(personalModels.accountId, accountId), eq(personalModels.claimedAt, claimedAt)));
  deps.memory.personalModels.delete(accountId);
  return model !== undefined;
}

/** One sweep pass: find changed inputs, then refit up to `limit` stale accounts. */
export async function refitStalePersonalModels(
  deps: AppDeps,
  limit: number,
  signal?: AbortSignal,
): Promise<number> {
  await markChangedInputs(deps);
  const claimed = await claimStale(deps, limit);
  for (const { accountId, claimedAt } of claimed) {
    if (signal?.aborted) break;
    try {
      await refitPersonal(deps, accountId, claimedAt);
    } catch (err) {
      deps.log.error({ err, accountId }, 'personal model fit failed');
    }
  }
  return claimed.length;
}
