import { z } from 'zod';
import { ChannelStatus } from '../../domain/enums.ts';

/** CONTRACT.md: Channel. No token material is ever included. */
export const Channel = z
  .object({
    id: z.string().describe('chn_…'),
    accountId: z.string(),
    brandId: z.string().nullable(),
    platform: z.string(),
    platformUserId: z.string().nullable().describe("The member's id at the platform"),
    handle: z.string().nullable().describe("The member's display name at the platform"),
    status: ChannelStatus,
    scopes: z.array(z.string()).describe('Scopes the member granted'),
    expiresAt: z
      .number()
      .int()
      .nullable()
      .describe('Access-token expiry (epoch ms); null when unknown or wiped'),
    lastRefreshAt: z
      .number()
      .int()
      .nullable()
      .describe('When the current access token was obtained (connect, reconnect or refresh)'),
    renews: z
      .boolean()
      .describe(
        'An extension: true while a refresh token is stored, so Postkit renews the sign-in itself before `expiresAt`; false: the member must connect again once `expiresAt` passes',
      ),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Channel' });
export type Channel = z.output<typeof Channel>;

export const ChannelResult = z.object({ channel: Channel }).meta({ id: 'ChannelResult' });
export const ChannelListResult = z.object({ channels: z.array(Channel) }).meta({ id: 'ChannelListResult' });

export const ConnectChannelRequest = z
  .object({
    brandId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("A brand of the caller's to attach the connected channel to"),
  })
  .strict()
  .meta({ id: 'ConnectChannelRequest' });
export type ConnectChannelRequest = z.output<typeof ConnectChannelRequest>;

export const ConnectChannelResult = z
  .object({
    url: z.string().describe("The platform authorization URL to send the member's browser to"),
    state: z
      .string()
      .describe(
        'Opaque single-use token, bound to this account, valid for 10 minutes; echoed to the callback',
      ),
  })
  .meta({ id: 'ConnectChannelResult' });
export type ConnectChannelResult = z.output<typeof ConnectChannelResult>;

/**
 * What the platform appends to the redirect URI: `code` and `state` on approval, or
 * `error` (e.g. user_cancelled_authorize), `error_description` and `state` on refusal.
 * Presence rules are checked by the service so each case gets a clear 400.
 */
export const CallbackQuery = z.object({
  code: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe('Authorization code (required unless `error` is set)'),
  state: z.string().min(1).max(256).describe('The state returned by connect'),
  error: z.string().max(256).optional().describe('Set by the platform when the member refused'),
  error_description: z.string().max(2048).optional(),
});
export type CallbackQuery = z.output<typeof CallbackQuery>;
