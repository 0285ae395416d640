import type { Platform } from '../../src/platforms/platform.ts';
import { createPlatformB, type PlatformBOptions } from '../../src/platforms/platformB/adapter.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';

export const REDIRECT_URI_B = 'http://127.0.0.1:9/v1/channels/platformB/callback';

/** The real platformB adapter pointed at a sandbox, with backoff shrunk so retries take milliseconds. */
export function adapterB(sandbox: Sandbox, overrides: Partial<PlatformBOptions> = {}): Platform {
  return createPlatformB({
    clientId: sandbox.platformB.clientId,
    clientSecret: sandbox.platformB.clientSecret,
    redirectUri: REDIRECT_URI_B,
    authUrl: sandbox.platformB.authUrl,
    tokenUrl: sandbox.platformB.tokenUrl,
    apiUrl: sandbox.platformB.apiUrl,
    backoffScale: 0.001,
    ...overrides,
  });
}

/** Tokens for the sandbox's current platformB member, without the OAuth dance. */
export function memberB(sandbox: Sandbox) {
  const token = sandbox.platformB.state.issueToken();
  const member = sandbox.platformB.state.members.get(token.userId)!;
  return { accessToken: token.accessToken, refreshToken: token.refreshToken!, authorRef: member.id, member };
}
