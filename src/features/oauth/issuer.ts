import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config/config.ts';
import { SCOPES } from '../../domain/scopes.ts';

/*
 * Where Postkit's OAuth server and its one protected resource (the MCP endpoint) live. With
 * PUBLIC_BASE_URL set (production, behind a proxy) every address derives from it; otherwise
 * from the request's own scheme and Host, which is what a local `npm start` needs.
 */

export function baseUrlOf(config: Config, request: FastifyRequest): string {
  const configured = config.PUBLIC_BASE_URL?.replace(/\/+$/, '');
  return configured || `${request.protocol}://${request.host}`;
}

/** The RFC 8707 resource identifier of the MCP endpoint, which tokens are bound to. */
export const mcpResourceOf = (base: string) => `${base}/mcp`;

/** RFC 9728 metadata path for the /mcp resource (path-suffixed form). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
export const resourceMetadataUrlOf = (base: string) => `${base}${PROTECTED_RESOURCE_PATH}/mcp`;

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

/** RFC 9728 protected resource metadata of /mcp. */
export function protectedResourceMetadata(base: string) {
  return {
    resource: mcpResourceOf(base),
    authorization_servers: [base],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Postkit',
    resource_documentation: `${base}/docs`,
  };
}

/** RFC 8414 authorization server metadata. */
export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: base + OAUTH_PATHS.authorize,
    token_endpoint: base + OAUTH_PATHS.token,
    registration_endpoint: base + OAUTH_PATHS.register,
    // An https URL may be the client_id, naming the client's metadata document (client-metadata.ts).
    client_id_metadata_document_supported: true,
    revocation_endpoint: base + OAUTH_PATHS.revoke,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    service_documentation: `${base}/docs`,
  };
}
