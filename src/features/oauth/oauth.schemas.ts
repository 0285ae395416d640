import { z } from 'zod';
import { SCOPES } from '../../domain/scopes.ts';
import { ScopeName } from '../keys/keys.schemas.ts';

export const AuthorizationRequestView = z
  .object({
    id: z.string(),
    client: z.object({
      id: z.string(),
      name: z.string().describe('As the app registered it: self-declared, not verified'),
      uri: z.string().nullable(),
    }),
    redirectHost: z.string().describe('Where the browser goes back to after the answer'),
    redirectUri: z.string(),
    scopes: z.array(z.object({ scope: ScopeName, description: z.string() })),
    resource: z.string().describe('The MCP endpoint the tokens will work on'),
    expiresAt: z.number().int(),
  })
  .meta({ id: 'AuthorizationRequestView' });

export const AuthorizationRequestResult = z
  .object({ request: AuthorizationRequestView })
  .meta({ id: 'AuthorizationRequestResult' });

export const ApproveAuthorizationRequest = z
  .object({
    scopes: z
      .array(ScopeName)
      .min(1)
      .max(SCOPES.length)
      .optional()
      .describe('The scopes to grant: those the app asked for (default) or fewer'),
  })
  .strict()
  .meta({ id: 'ApproveAuthorizationRequest' });

export const AuthorizationAnswer = z
  .object({
    redirectTo: z
      .string()
      .describe("Send the browser here: the app's redirect URI with the code or the error"),
  })
  .meta({ id: 'AuthorizationAnswer' });

export const ConnectedApp = z
  .object({
    clientId: z.string(),
    name: z.string(),
    clientUri: z.string().nullable(),
    redirectHosts: z.array(z.string()),
    scopes: z.array(ScopeName),
    connectedAt: z.number().int(),
    lastUsedAt: z.number().int().nullable(),
    connectedBy: z
      .array(z.object({ memberId: z.string(), email: z.string(), name: z.string().nullable() }))
      .describe(
        'The members who approved it: an owner or admin sees every member’s connections, anyone else only their own',
      ),
  })
  .meta({ id: 'ConnectedApp' });

export const ConnectedAppListResult = z
  .object({ apps: z.array(ConnectedApp) })
  .meta({ id: 'ConnectedAppListResult' });
