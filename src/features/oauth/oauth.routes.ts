import type { FastifyReply } from 'fastify';
import { spend } from '../../api/rate-limit.ts';
import { OAuthRefused, RateLimited } from '../../domain/errors.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { startAuthorization } from './authorize.service.ts';
import { registerClient } from './clients.service.ts';
import {
  authorizationServerMetadata,
  baseUrlOf,
  mcpResourceOf,
  OAUTH_PATHS,
  PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata,
} from './issuer.ts';
import { exchangeCode, refreshTokens, revokeToken } from './token.service.ts';

/*
 * Postkit as an OAuth 2.1 authorization server for its MCP endpoint (MCP specification
 * 2025-06-18, "Authorization"): discovery (RFC 9728, RFC 8414), dynamic client registration
 * (RFC 7591), the authorization code flow with PKCE S256, and token revocation (RFC 7009).
 * These are protocol endpoints, not the REST API: public, and left out of the OpenAPI document.
 * Their refusals are `OAuthRefused`, which the app's error handler answers in OAuth's own shape
 * (src/http/oauth-errors.ts).
 */

const route = { config: { public: true }, schema: { hide: true } } as const;

/** Browser-based MCP clients fetch discovery and tokens cross-origin; none of these use cookies. */
const cors = (reply: FastifyReply) => reply.header('access-control-allow-origin', '*');

const page = (title: string, message: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${title}</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui;max-width:36rem;margin:3rem auto;padding:0 1rem">
<h1>${title}</h1><p>${message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p></body></html>`;

export const oauthRoutes: FeatureRoutes = async (app, { deps }) => {
  // OAuth's token and revocation requests are form-encoded (RFC 6749 section 4.1.3); only here.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  // RFC 9728 places the metadata of /mcp at the path-inserted address; clients also try the
  // root one and the path-appended one (`/mcp/.well-known/…`), so all three answer the same.
  for (const url of [
    PROTECTED_RESOURCE_PATH,
    `${PROTECTED_RESOURCE_PATH}/mcp`,
    `/mcp${PROTECTED_RESOURCE_PATH}`,
  ])
    app.get(url, route, async (request, reply) => {
      cors(reply);
      return protectedResourceMetadata(baseUrlOf(deps.config, request));
    });

  app.get('/.well-known/oauth-authorization-server', route, async (request, reply) => {
    cors(reply);
    return authorizationServerMetadata(baseUrlOf(deps.config, request));
  });

  app.post(
    OAUTH_PATHS.register,
    {
      ...route,
      // Registrations are anonymous, so they are limited per address like account creation.
      onRequest: async (request, reply) => {
        cors(reply);
        try {
          await spend(
            deps.memory.budgetLeases,
            {
              key: `rl:oauth-register:${request.ip}`,
              limit: deps.config.RATE_LIMIT_SIGNUPS_PER_HOUR,
              windowMs: 3_600_000,
              headerPrefix: 'x-ratelimit',
              label: 'client-registration',
            },
            reply,
            request.log,
          );
        } catch (err) {
          if (!(err instanceof RateLimited)) throw err;
          throw new OAuthRefused('too_many_requests', err.message, {
            retryAfterSeconds: err.retryAfterSeconds,
          });
        }
      },
    },
    async (request, reply) => {
      const ctx = { deps, requestId: request.id, log: request.log };
      const client = await registerClient(ctx, request.body);
      return reply.status(201).header('cache-control', 'no-store').send(client);
    },
  );

  app.get(OAUTH_PATHS.authorize, route, async (request, reply) => {
    const base = baseUrlOf(deps.config, request);
    const ctx = { deps, requestId: request.id, log: request.log };
    const outcome = await startAuthorization(
      ctx,
      request.query as Record<string, unknown>,
      mcpResourceOf(base),
    );
    if (outcome.kind === 'page')
      return reply
        .status(400)
        .type('text/html; charset=utf-8')
        .send(page('This app cannot sign in to Postkit', outcome.message));
    // The consent page is the console's: it signs in with the account's key like every page.
    const location =
      outcome.kind === 'consent'
        ? `/#/authorize?request=${encodeURIComponent(outcome.requestId)}`
        : outcome.location;
    return reply.status(302).header('location', location).send();
  });

  app.post(OAUTH_PATHS.token, route, async (request, reply) => {
    cors(reply);
    const form = (request.body ?? {}) as Record<string, unknown>;
    const ctx = { deps, requestId: request.id, log: request.log };
    const grantType = form.grant_type;
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token')
      throw new OAuthRefused(
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token.',
      );
    const tokens =
      grantType === 'authorization_code' ? await exchangeCode(ctx, form) : await refreshTokens(ctx, form);
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
  });

  app.post(OAUTH_PATHS.revoke, route, async (request, reply) => {
    cors(reply);
    const ctx = { deps, requestId: request.id, log: request.log };
    await revokeToken(ctx, (request.body ?? {}) as Record<string, unknown>);
    return reply.header('cache-control', 'no-store').send({});
  });
};
