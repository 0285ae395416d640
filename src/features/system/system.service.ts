import { countingWords } from '../../../packages/client/src/text-length.ts';
import { API_VERSION } from '../../api/version.ts';
import type { AppDeps } from '../../context.ts';
import { Dimension, FollowerBand, MediaKind, SCORE_SCHEMA_VERSION } from '../../domain/enums.ts';
import {
  DEFAULT_PLATFORM,
  type PartLimit,
  PLATFORM_IDS,
  type PlatformId,
  type PlatformProfile,
  PROFILES,
} from '../../platforms/profiles.ts';
import { CONCEPT_DESCRIPTIONS, CONCEPTS, DIMENSION_WEIGHTS, engineNotice } from '../../scoring/index.ts';
import type { HealthResult, MetaResult } from './system.schemas.ts';

const CHECK_TIMEOUT_MS = 2_000;

/** What the (public) probe may say about a failed check, by the failure's code. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'timed out',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  '28P01': 'authentication failed',
  '28000': 'authentication failed',
  '3D000': 'database does not exist',
  '57P01': 'shutting down',
  '57P03': 'starting up',
};

/**
 * The probe is public, so a failure is described without its details: driver messages carry
 * internal host names, addresses, ports and user names. A known code gets its meaning; a
 * message of plain words passes; anything else is just `unavailable`. The full error is logged.
 */
function publicReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && REASONS[code]) return REASONS[code];
  const message = err instanceof Error ? err.message : '';
  return /^[A-Za-z][A-Za-z ]{0,79}$/.test(message) ? message : 'unavailable';
}

async function timed(name: string, log: AppDeps['log'], check: () => Promise<void>) {
  const started = performance.now();
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref()),
    ]);
    return { status: 'ok' as const, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    log.warn({ err, check: name }, 'readiness check failed');
    return {
      status: 'degraded' as const,
      latencyMs: Math.round(performance.now() - started),
      error: publicReason(err),
    };
  }
}

/** Readiness: the database and the key-value store each answer a trivial request. */
export async function checkHealth(deps: AppDeps): Promise<HealthResult> {
  const [database, kv] = await Promise.all([
    timed('database', deps.log, () => deps.database.ping()),
    timed('kv', deps.log, () => deps.kv.ping()),
  ]);
  return {
    status: database.status === 'ok' && kv.status === 'ok' ? 'ok' : 'degraded',
    checks: { database, kv },
  };
}

/** A vault key and app credentials of at least one platform (or of `platform`) are configured. */
export function publishingConfigured(deps: AppDeps, platform?: string): boolean {
  if (!deps.config.KIT_VAULT_KEY) return false;
  return platform === undefined ? deps.platforms.size > 0 : deps.platforms.has(platform);
}

/**
 * The default platform (platformA) is the contract's publishing platform and is always listed
 * as one; a later platform (platformB) is listed as publishing once this deployment is
 * configured for it.
 */
const listsAsPublishing = (deps: AppDeps, id: PlatformId) =>
  id === DEFAULT_PLATFORM || publishingConfigured(deps, id);

const partLimit = ({ max, counting }: PartLimit) => ({ max, counting, counted: countingWords(counting) });

/** The profile's published fields (the media rule's check and the scorer's rubric stay inside). */
export function publishedProfile(profile: PlatformProfile) {
  return {
    displayName: profile.displayName,
    parts: {
      post: partLimit(profile.post),
      reply: profile.threads && partLimit(profile.threads.reply),
      comment: partLimit(profile.firstComment.limit),
    },
    threads: profile.threads && { maxFollowUps: profile.threads.maxFollowUps },
    firstComment: profile.firstComment.as,
    media: { summary: profile.media.summary, maxImages: profile.media.maxImages },
    fold: profile.fold,
  };
}

/** The self-describing service contract. */
export function describeService(deps: AppDeps): MetaResult {
  const c = deps.config;
  return {
    schemaVersion: SCORE_SCHEMA_VERSION,
    apiVersion: API_VERSION,
    maxPostLength: PROFILES[DEFAULT_PLATFORM].post.max,
    platforms: PLATFORM_IDS.map((id) => ({
      id,
      maxPostLength: PROFILES[id].post.max,
      publishing: listsAsPublishing(deps, id),
      ...publishedProfile(PROFILES[id]),
    })),
    mediaKinds: [...MediaKind.options],
    followerBands: [...FollowerBand.options],
    dimensions: Dimension.options.map((id) => ({ id, weight: DIMENSION_WEIGHTS[id] })),
    concepts: CONCEPTS.map((id) => ({ id, description: CONCEPT_DESCRIPTIONS[id] })),
    capabilities: {
      scoringEngine: c.LLM_PROVIDER,
      // The engine id is `<provider>:<model>` for a model engine, so a default model shows too.
      model: deps.engine.id === 'heuristic' ? null : deps.engine.id.slice(deps.engine.id.indexOf(':') + 1),
      offline: engineNotice(deps.engine.id).offline,
      engineNote: engineNotice(deps.engine.id).note,
      publishing: publishingConfigured(deps),
      database: deps.database.kind,
      kv: deps.kv.kind,
      mediaStorage: c.S3_BUCKET ? 's3' : 'filesystem',
      role: c.KIT_ROLE,
      // Offered only where it can be reached: a loopback receiver needs WEBHOOK_ALLOW_LOOPBACK.
      webhookReceiver:
        c.WEBHOOK_DEMO_RECEIVER_URL && c.WEBHOOK_ALLOW_LOOPBACK ? c.WEBHOOK_DEMO_RECEIVER_URL : null,
    },
  };
}
