import type { Ctx } from '../context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No API key needed. */
    public?: boolean;
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
