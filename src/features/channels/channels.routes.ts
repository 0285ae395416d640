import type { LevelWithSilent } from 'pino';
import { errorResponses, IdParams, optionalBody } from '../../api/schemas.ts';
import { PLATFORM_IDS } from '../../platforms/profiles.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import {
  CallbackQuery,
  ChannelListResult,
  ChannelResult,
  ConnectChannelRequest,
  ConnectChannelResult,
} from './channels.schemas.ts';
import {
  completeConnect,
  connectChannel,
  disconnectChannel,
  getChannel,
  listChannels,
  refreshChannel,
} from './channels.service.ts';

const tags = ['channels'];

/** `warn`, or the configured level when that is already quieter (error, fatal, silent). */
const quieter = (level: LevelWithSilent): LevelWithSilent =>
  level === 'error' || level === 'fatal' || level === 'silent' ? level : 'warn';

export const channelRoutes: FeatureRoutes = async (app, { deps }) => {
  app.get(
    '/v1/channels',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List connected channels',
        description: 'Every channel of the account, newest first, whatever its status. No token material.',
        response: { 200: ChannelListResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ channels: await listChannels({ ctx: request.ctx, input: undefined }) }),
  );

  // One connect + callback pair per platform (each has a profile).
  for (const platform of PLATFORM_IDS) {
    app.post(
      `/v1/channels/${platform}/connect`,
      {
        // Connecting an account is what lets posts reach its audience.
        config: { scope: 'publish', role: 'admin' },
        schema: {
          tags,
          summary: `Start connecting a ${platform} channel`,
          description:
            "Returns the platform's authorization URL and a single-use state bound to this account, valid for 10 minutes. Send the member's browser to `url`; the platform redirects it to the callback. PKCE (S256) is handled by the service.",
          body: optionalBody(ConnectChannelRequest),
          response: { 200: ConnectChannelResult, ...errorResponses(400, 401, 429, 503) },
        },
      },
      async (request) =>
        connectChannel({ ctx: request.ctx, input: { platform, brandId: request.body?.brandId } }),
    );

    app.get(
      `/v1/channels/${platform}/callback`,
      {
        config: { public: true },
        // The query carries the authorization code and state: keep them out of the access log.
        logLevel: quieter(deps.config.LOG_LEVEL),
        schema: {
          tags,
          summary: `OAuth redirect target for ${platform}`,
          description:
            'Public: trust comes from the single-use, account-bound state. Exchanges the code, seals the tokens in the vault and creates the channel (or reconnects the existing channel for the same member). Not called directly by API clients. 400 for an unknown, expired or already used state, or when the member refused (`authorization_denied`).',
          security: [],
          querystring: CallbackQuery,
          response: { 200: ChannelResult, ...errorResponses(400, 502, 503) },
        },
      },
      async (request) => {
        const ctx = { deps, requestId: request.id, log: request.log };
        return { channel: await completeConnect({ ctx, input: { ...request.query, platform } }) };
      },
    );
  }

  app.get(
    '/v1/channels/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get a channel',
        params: IdParams,
        response: { 200: ChannelResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ channel: await getChannel({ ctx: request.ctx, input: request.params }) }),
  );

  app.delete(
    '/v1/channels/:id',
    {
      config: { scope: 'publish', role: 'admin' },
      schema: {
        tags,
        summary: 'Disconnect a channel',
        description:
          'Status becomes `revoked` and the stored tokens are wiped irreversibly; the row is kept and `channel.disconnected` is emitted. Repeating it changes nothing.',
        params: IdParams,
        response: { 200: ChannelResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ channel: await disconnectChannel({ ctx: request.ctx, input: request.params }) }),
  );

  app.post(
    '/v1/channels/:id/refresh',
    {
      config: { scope: 'publish', role: 'admin' },
      schema: {
        tags,
        summary: "Refresh a channel's token",
        description:
          'Re-reads the channel and renews its access token when at or near expiry; a no-op when fresh. A lapsed token without a refresh token makes the channel `expired`. 502 `refresh_failed` carries the channel as it now is in `error.channel`.',
        params: IdParams,
        response: { 200: ChannelResult, ...errorResponses(401, 404, 429, 502, 503) },
      },
    },
    async (request) => ({ channel: await refreshChannel({ ctx: request.ctx, input: request.params }) }),
  );
};
