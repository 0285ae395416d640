import { describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import { createPlatforms, platformConfigured } from '../../src/platforms/registry.ts';

const CREDS = {
  PLATFORMA_CLIENT_ID: 'cid',
  PLATFORMA_CLIENT_SECRET: 'secret',
  PLATFORMA_REDIRECT_URI: 'https://postkit.example/v1/channels/platformA/callback',
};

describe('createPlatforms', () => {
  it('has no platformA without all three app credentials', () => {
    expect(createPlatforms(configWith({})).size).toBe(0);
    const partial = configWith({ PLATFORMA_CLIENT_ID: 'cid', PLATFORMA_CLIENT_SECRET: 'secret' });
    expect(platformConfigured(partial, 'platformA')).toBe(false);
    expect(createPlatforms(partial).has('platformA')).toBe(false);
  });

  it('builds platformA from the configuration (live addresses by default)', () => {
    const platform = createPlatforms(configWith(CREDS)).get('platformA')!;
    expect(platform.id).toBe('platformA');
    const url = new URL(platform.authorizationUrl({ state: 's', codeChallenge: 'c'.repeat(43) }).url);
    expect(url.origin + url.pathname).toBe('https://www.linkedin.com/oauth/v2/authorization');
    expect(url.searchParams.get('client_id')).toBe('cid');
    expect(url.searchParams.get('redirect_uri')).toBe(CREDS.PLATFORMA_REDIRECT_URI);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('follows PLATFORMA_AUTH_URL and PLATFORMA_PKCE=false', () => {
    const platform = createPlatforms(
      configWith({
        ...CREDS,
        PLATFORMA_AUTH_URL: 'http://127.0.0.1:9400/oauth/v2/',
        PLATFORMA_PKCE: 'false',
      }),
    ).get('platformA')!;
    const url = new URL(platform.authorizationUrl({ state: 's', codeChallenge: 'c'.repeat(43) }).url);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:9400/oauth/v2/authorization');
    expect(url.searchParams.has('code_challenge')).toBe(false);
  });
});
