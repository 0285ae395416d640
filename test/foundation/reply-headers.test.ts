import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { enforceBudget } from '../../src/api/rate-limit.ts';
import { replyHeaderObject, setRequestIdHeader } from '../../src/api/reply-headers.ts';

/**
 * The per-request headers are written into Fastify's own header object (src/api/reply-headers.ts).
 * If a Fastify upgrade moves that object, the code falls back to `reply.header` and stays
 * correct, but the fast path is lost: the first test fails then, so the change is seen.
 */
describe('reply headers written by constant name', () => {
  it("finds this Fastify's header object, and what is written there is sent", async () => {
    const app = Fastify();
    let found: Record<string, unknown> | null = null;
    app.get('/', (_request, reply) => {
      found = replyHeaderObject(reply);
      setRequestIdHeader(reply, 'req_test-1');
      enforceBudget(
        reply,
        { key: 'k', limit: 10, windowMs: 60_000, headerPrefix: 'x-ratelimit', label: 'request' },
        { count: 3, resetMs: 1_500 },
      );
      enforceBudget(
        reply,
        { key: 'm', limit: 4, windowMs: 60_000, headerPrefix: 'x-ratelimit-llm', label: 'model-backed' },
        { count: 4, resetMs: 59_001 },
      );
      expect(reply.getHeader('x-ratelimit-remaining')).toBe('7');
      reply.send({ ok: true });
    });
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(found).not.toBeNull();
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('req_test-1');
    expect(res.headers['x-ratelimit-limit']).toBe('10');
    expect(res.headers['x-ratelimit-remaining']).toBe('7');
    expect(res.headers['x-ratelimit-reset']).toBe('2');
    expect(res.headers['x-ratelimit-llm-limit']).toBe('4');
    expect(res.headers['x-ratelimit-llm-remaining']).toBe('0');
    expect(res.headers['x-ratelimit-llm-reset']).toBe('60');
    await app.close();
  });

  it('sets headers of another prefix through reply.header, and refuses a spent budget', async () => {
    const app = Fastify();
    app.get('/', (_request, reply) => {
      try {
        enforceBudget(
          reply,
          { key: 's', limit: 2, windowMs: 3_600_000, headerPrefix: 'x-signup', label: 'account-creation' },
          { count: 3, resetMs: 10_000 },
        );
        reply.send({ admitted: true });
      } catch (err) {
        reply.status(429).send({ refused: (err as Error).message });
      }
    });
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(429);
    expect(res.json().refused).toBe('Rate limit exceeded for the account-creation budget; retry in 10s.');
    expect(res.headers['x-signup-limit']).toBe('2');
    expect(res.headers['x-signup-remaining']).toBe('0');
    expect(res.headers['x-signup-reset']).toBe('10');
    await app.close();
  });
});
