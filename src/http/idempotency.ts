import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../context.ts';
import { DomainError, Invalid } from '../domain/errors.ts';
import type { KvStore } from '../kv/kv.ts';
import { sha256Hex, stableStringify } from '../lib/hash.ts';
import { AppError } from './errors.ts';

/** The first 2xx is kept this long and replayed verbatim. */
const REPLAY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request holding a key this long without finishing (its process died) releases it. */
const IN_FLIGHT_TTL_MS = 120_000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

type Stored =
  | { state: 'running'; fingerprint: string }
  | { state: 'done'; fingerprint: string; status: number; contentType: string; body: string };

export interface IdempotencyClaim {
  storeKey: string;
  fingerprint: string;
}

export type BeginResult =
  | { kind: 'run'; claim: IdempotencyClaim }
  | { kind: 'replay'; status: number; contentType: string; body: string };

/** The fingerprint binds a key to one request: same key with another body or route is refused. */
export function fingerprintOf(method: string, route: string, body: unknown): string {
  return sha256Hex(`${method} ${route}\n${stableStringify(body ?? null)}`);
}

/**
 * Starts an idempotent operation: either a replay of the stored 2xx, or a claim that the
 * caller must complete. A concurrent request with the same key gets 409 rather than running twice.
 * Shared by the REST hooks and the MCP tools.
 */
export async function beginIdempotent(
  kv: KvStore,
  keyId: string,
  idempotencyKey: string,
  fingerprint: string,
): Promise<BeginResult> {
  try {
    return await claimOrReplay(kv, keyId, idempotencyKey, fingerprint);
  } catch (err) {
    if (err instanceof AppError || err instanceof DomainError) throw err;
    // Without the store "at most once" cannot be promised: refuse rather than risk a double run.
    throw new AppError(
      503,
      'idempotency_unavailable',
      'The idempotency key cannot be honoured right now (store unavailable); retry shortly, or retry without it.',
      { headers: { 'retry-after': '1' }, cause: err },
    );
  }
}

async function claimOrReplay(
  kv: KvStore,
  keyId: string,
  idempotencyKey: string,
  fingerprint: string,
): Promise<BeginResult> {
  if (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new Invalid(`Idempotency-Key must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, [
      { path: 'headers.idempotency-key', message: `length ${idempotencyKey.length}` },
    ]);
  }
  const storeKey = `idem:${keyId}:${sha256Hex(idempotencyKey)}`;
  const running: Stored = { state: 'running', fingerprint };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await kv.setIfAbsent(storeKey, JSON.stringify(running), IN_FLIGHT_TTL_MS)) {
      return { kind: 'run', claim: { storeKey, fingerprint } };
    }
    const raw = await kv.get(storeKey);
    if (raw === null) continue; // expired between the two calls: try to claim again
    const stored = JSON.parse(raw) as Stored;
    if (stored.fingerprint !== fingerprint) {
      throw new AppError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request; use a new key for a new request.',
      );
    }
    if (stored.state === 'running') {
      throw new AppError(
        409,
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still being processed; retry shortly to get its result.',
        { headers: { 'retry-after': '1' } },
      );
    }
    return { kind: 'replay', status: stored.status, contentType: stored.contentType, body: stored.body };
  }
  throw new AppError(409, 'idempotency_in_progress', 'The Idempotency-Key is contended; retry shortly.');
}

/** Stores a 2xx for replay; anything else releases the key so it can be reused. */
export async function completeIdempotent(
  kv: KvStore,
  claim: IdempotencyClaim,
  status: number,
  contentType: string,
  body: string,
): Promise<void> {
  if (status >= 200 && status < 300) {
    const done: Stored = { state: 'done', fingerprint: claim.fingerprint, status, contentType, body };
    await kv.set(claim.storeKey, JSON.stringify(done), REPLAY_TTL_MS);
  } else {
    await kv.del(claim.storeKey);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdempotencyClaim;
  }
}

/**
 * Wires Idempotency-Key into the routes whose config says `idempotent`, and only those: the
 * hooks are attached per route as routes are declared, so other routes pay nothing for them.
 */
export function registerIdempotency(app: FastifyInstance, deps: AppDeps) {
  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header.join(',') : header;
    // The query is part of the request (`?dryRun=true` must not replay as the real import).
    const search = request.url.indexOf('?');
    const route = (request.routeOptions.url ?? request.url) + (search < 0 ? '' : request.url.slice(search));
    const fingerprint = fingerprintOf(request.method, route, request.body);
    const started = await beginIdempotent(deps.kv, request.ctx.caller.keyId ?? 'worker', key, fingerprint);
    if (started.kind === 'replay') {
      return reply
        .status(started.status)
        .header('content-type', started.contentType)
        .header('idempotent-replay', 'true')
        .send(started.body);
    }
    request.idempotency = started.claim;
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = undefined;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : '';
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    try {
      await completeIdempotent(deps.kv, claim, reply.statusCode, contentType, body);
    } catch (err) {
      request.log.warn({ err }, 'could not store idempotent response');
    }
    return payload;
  };

  const asList = <T>(hook: T | T[] | undefined): T[] =>
    hook === undefined ? [] : Array.isArray(hook) ? hook : [hook];
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...asList(route.preHandler), preHandler] as typeof route.preHandler;
    route.onSend = [...asList(route.onSend), onSend] as typeof route.onSend;
  });
}
