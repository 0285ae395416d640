import type { FastifyReply, FastifyRequest } from 'fastify';
import { spend } from '../../api/rate-limit.ts';
import { DeleteResult, errorResponses } from '../../api/schemas.ts';
import type { AppDeps } from '../../context.ts';
import { sha256Hex } from '../../lib/hash.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { baseUrlOf } from '../oauth/issuer.ts';
import { SESSION_COOKIE, SESSION_TTL_MS } from './session-token.ts';
import { SessionResult, SetPasswordRequest, SetPasswordResult, SignInRequest } from './sessions.schemas.ts';
import { setPassword, signIn, signOut } from './sessions.service.ts';

const tags = ['sessions'];
const HOUR_MS = 3_600_000;

/**
 * The session cookie: httpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Path=/ (the API and the console), Secure wherever the service is reached over https.
 */
function sessionCookie(deps: AppDeps, request: FastifyRequest, value: string, maxAgeMs: number): string {
  const secure = baseUrlOf(deps.config, request).startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(maxAgeMs / 1000)}${secure}`;
}

/** Sign-in attempts per client address, spent before the body is read (so garbage counts too). */
const spendPerAddress = (deps: AppDeps, request: FastifyRequest, reply: FastifyReply) =>
  spend(
    deps.memory.budgetLeases,
    {
      key: `rl:signin:${request.ip}`,
      limit: deps.config.RATE_LIMIT_SIGNINS_PER_HOUR,
      windowMs: HOUR_MS,
      headerPrefix: 'x-ratelimit',
      label: 'sign-in',
    },
    reply,
    request.log,
  );

/** Sign-in attempts per email, whatever the address: guessing one person's password from many addresses. */
const spendPerEmail = (deps: AppDeps, request: FastifyRequest, reply: FastifyReply, email: string) =>
  spend(
    deps.memory.budgetLeases,
    {
      key: `rl:signin-email:${sha256Hex(email.trim().toLowerCase())}`,
      limit: deps.config.RATE_LIMIT_SIGNINS_PER_HOUR,
      windowMs: HOUR_MS,
      headerPrefix: 'x-ratelimit-email',
      label: 'sign-in for this email',
    },
    reply,
    request.log,
  );

export const sessionRoutes: FeatureRoutes = async (app, { deps }) => {
  app.post(
    '/v1/sessions',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in to the console',
        description:
          'Email and password of a member who set one (at invitation accept, or PUT /v1/account/password). Answers with an httpOnly, SameSite=Strict session cookie and the CSRF token to send as `x-csrf-token` on every unsafe request made with it (GET /v1/account tells it again, under `session`). Attempts are limited per address and per email. API keys stay for programs.',
        security: [],
        body: SignInRequest,
        response: { 201: SessionResult, ...errorResponses(400, 401, 409, 429) },
      },
      onRequest: async (request, reply) => spendPerAddress(deps, request, reply),
    },
    async (request, reply) => {
      await spendPerEmail(deps, request, reply, request.body.email);
      const ctx = { deps, requestId: request.id, log: request.log };
      const { token, result } = await signIn({ ctx, input: request.body });
      reply.header('set-cookie', sessionCookie(deps, request, token, SESSION_TTL_MS));
      return reply.status(201).send(result);
    },
  );

  app.delete(
    '/v1/sessions',
    {
      config: { scope: 'any' },
      schema: {
        tags,
        summary: 'Sign out',
        description:
          'Ends the current console session at once, in every process, and clears its cookie. 404 when the request is made with an API key (revoke the key instead).',
        response: { 200: DeleteResult, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const result = await signOut({ ctx: request.ctx, input: undefined });
      reply.header('set-cookie', sessionCookie(deps, request, '', 0));
      return result;
    },
  );

  app.put(
    '/v1/account/password',
    {
      config: { scope: 'any' },
      schema: {
        tags,
        summary: 'Set your console password',
        description:
          'Sets or changes the calling member’s password for console sign-in (an owner who signed up with an email sets one here). Changing it needs `currentPassword`, and ends the member’s other sessions. Needs a key holding everything the member’s role allows, or a session.',
        body: SetPasswordRequest,
        response: { 200: SetPasswordResult, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => setPassword({ ctx: request.ctx, input: request.body }),
  );
};
