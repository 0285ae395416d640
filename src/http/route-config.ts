import type { Ctx } from '../context.ts';
import type { Scope } from '../domain/scopes.ts';

/** The scope a protected route needs; `any` for routes every credential may call (whoami, /mcp, whose tools check their own). */
export type RouteScope = Scope | 'any';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No API key needed. */
    public?: boolean;
    /**
     * Required on every route that is not public (checked as routes register, so a route
     * without one fails at startup): the scope the calling key must hold, else 403
     * insufficient_scope (src/domain/scopes.ts).
     */
    scope?: RouteScope;
    /**
     * Accepts OAuth access tokens for the MCP resource (src/features/oauth) besides API keys.
     * Only the /mcp routes: a token is bound to that resource (RFC 8707).
     */
    mcpResource?: boolean;
    /** Counts against the tighter model-backed budget too (x-ratelimit-llm-*). */
    modelBudget?: boolean;
    /** Honours the Idempotency-Key header. */
    idempotent?: boolean;
    /**
     * Success responses sent pre-serialized or as raw bytes, documented in OpenAPI without a zod
     * schema (which would re-serialize them): status -> description and content types.
     */
    rawResponses?: Record<number, { description: string; types: readonly string[]; binary?: boolean }>;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every protected route. */
    ctx: Ctx;
  }
}
