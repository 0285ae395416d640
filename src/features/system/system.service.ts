import type { AppDeps } from '../../context.ts';
import {
  DIMENSION_WEIGHTS,
  Dimension,
  FollowerBand,
  MAX_POST_LENGTH,
  MediaKind,
  Platform,
  PUBLISHING_PLATFORMS,
  SCORE_SCHEMA_VERSION,
} from '../../domain/enums.ts';
import { API_VERSION } from '../../http/version.ts';
import type { HealthResult, MetaResult } from './system.schemas.ts';

const CHECK_TIMEOUT_MS = 2_000;

async function timed(check: () => Promise<void>) {
  const started = performance.now();
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref()),
    ]);
    return { status: 'ok' as const, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    return {
      status: 'degraded' as const,
      latencyMs: Math.round(performance.now() - started),
      error: err instanceof Error ? err.message : 'failed',
    };
  }
}

/** Readiness: the database and the key-value store each answer a trivial request. */
export async function checkHealth(deps: AppDeps): Promise<HealthResult> {
  const [database, kv] = await Promise.all([timed(() => deps.database.ping()), timed(() => deps.kv.ping())]);
  return {
    status: database.status === 'ok' && kv.status === 'ok' ? 'ok' : 'degraded',
    checks: { database, kv },
  };
}

export function publishingConfigured(deps: AppDeps): boolean {
  const c = deps.config;
  return Boolean(
    c.KIT_VAULT_KEY && c.PLATFORMA_CLIENT_ID && c.PLATFORMA_CLIENT_SECRET && c.PLATFORMA_REDIRECT_URI,
  );
}

/** The self-describing service contract. */
export function describeService(deps: AppDeps): MetaResult {
  const c = deps.config;
  return {
    schemaVersion: SCORE_SCHEMA_VERSION,
    apiVersion: API_VERSION,
    maxPostLength: MAX_POST_LENGTH.platformA,
    platforms: Platform.options.map((id) => ({
      id,
      maxPostLength: MAX_POST_LENGTH[id],
      publishing: (PUBLISHING_PLATFORMS as readonly string[]).includes(id),
    })),
    mediaKinds: [...MediaKind.options],
    followerBands: [...FollowerBand.options],
    dimensions: Dimension.options.map((id) => ({ id, weight: DIMENSION_WEIGHTS[id] })),
    capabilities: {
      scoringEngine: c.LLM_PROVIDER,
      // The engine id is `<provider>:<model>` for a model engine, so a default model shows too.
      model: deps.engine.id === 'heuristic' ? null : deps.engine.id.slice(deps.engine.id.indexOf(':') + 1),
      publishing: publishingConfigured(deps),
      database: deps.database.kind,
      kv: deps.kv.kind,
      mediaStorage: c.S3_BUCKET ? 's3' : 'filesystem',
      role: c.KIT_ROLE,
    },
  };
}
