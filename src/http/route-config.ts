import type { Ctx } from '../context.ts';
import type { Role } from '../domain/roles.ts';
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
     * The least role of the workspace a caller's member must hold, when it is more than the
     * scope's (`roleNeeded` in src/domain/roles.ts: read a viewer, write and publish an editor);
     * else 403 forbidden naming it. Checked by the auth hook before the scope.
     */
    role?: Role;
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
  interface FastifyInstance {
    /** Every protected route with the role and scope it needs, as the auth hook checks them (the role matrix test reads it). */
    routeAccess: RouteAccess[];
  }
  interface FastifyRequest {
    /** Set by the auth hook on every protected route. */
    ctx: Ctx;
  }
}

/** What a protected route needs of its caller: one entry per method and path. */
export interface RouteAccess {
  method: string;
  url: string;
  scope: RouteScope;
  role: Role;
}
