import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { NotFound, OAuthRefused } from '../../src/domain/errors.ts';
import { registerErrorHandler } from '../../src/http/error-handler.ts';

/**
 * OAuthRefused is a domain error like the others; the app's one error handler answers it in
 * OAuth's wire shape (RFC 6749 section 5.2) wherever it is thrown, a hook included, and every
 * other error in the API's own shape beside it.
 */
async function appThrowing(err: Error, where: 'handler' | 'hook' = 'handler') {
  const app = Fastify();
  registerErrorHandler(app);
  app.get(
    '/x',
    where === 'hook'
      ? {
          onRequest: async () => {
            throw err;
          },
        }
      : {},
    async () => {
      throw err;
    },
  );
  await app.ready();
  const res = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  return res;
}

describe("OAuth's error shape, written in one place", () => {
  it('answers a refusal as {error, error_description}, 400, not stored', async () => {
    const res = await appThrowing(new OAuthRefused('invalid_grant', 'This code has expired; sign in again.'));
    expect(res.statusCode).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'This code has expired; sign in again.',
    });
  });

  it('an unidentified client is 401; a registration over budget 429 with Retry-After, thrown from a hook', async () => {
    expect((await appThrowing(new OAuthRefused('invalid_client', 'Unknown client.'))).statusCode).toBe(401);
    const limited = await appThrowing(
      new OAuthRefused('too_many_requests', 'Too many registrations.', { retryAfterSeconds: 12 }),
      'hook',
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('12');
    expect(limited.json().error).toBe('too_many_requests');
  });

  it('the other domain errors keep the API shape', async () => {
    const res = await appThrowing(new NotFound('Post'));
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    expect(res.json().error_description).toBeUndefined();
  });
});
