import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorize,
  type ChannelWorld,
  callback,
  connected,
  expectNoSecrets,
  issuedSecrets,
  redirectOf,
  startChannelWorld,
} from './helpers.ts';

let w: ChannelWorld;
beforeAll(async () => {
  w = await startChannelWorld();
});
afterAll(async () => {
  await w?.close();
});

describe('connect flow: the consent page, refusal and exchange failures', () => {
  let manual: ChannelWorld;
  beforeAll(async () => {
    manual = await startChannelWorld({ sandbox: { autoApprove: false } });
  });
  afterAll(async () => {
    await manual?.close();
  });

  async function consent(apiKey: string, decision: 'approve' | 'cancel') {
    const started = await manual.t.request('POST', '/v1/channels/platformA/connect', { key: apiKey });
    const page = await fetch(started.body.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Approve');
    const consentId = /name="consent" value="([^"]+)"/.exec(html)![1]!;
    const back = await redirectOf(`${manual.sandbox.platformA.authUrl}/authorization/decide`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ consent: consentId, decision }).toString(),
    });
    return { state: started.body.state as string, back };
  }

  it('a person clicking Approve on the consent page connects the channel', async () => {
    const { apiKey } = await manual.t.signup();
    const { back } = await consent(apiKey, 'approve');
    const res = await callback(manual, back.search);
    expect(res.status, res.text).toBe(200);
    expect(res.body.channel.status).toBe('connected');
  });

  it('Cancel comes back as user_cancelled_authorize: 400 authorization_denied, and the state is spent', async () => {
    const { apiKey } = await manual.t.signup();
    const { back } = await consent(apiKey, 'cancel');
    expect(back.searchParams.get('error')).toBe('user_cancelled_authorize');
    const res = await callback(manual, back.search);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('authorization_denied');
    expect(res.body.error.message).toContain('user_cancelled_authorize');
    const retry = await callback(manual, `?code=forged&state=${back.searchParams.get('state')}`);
    expect(retry.status).toBe(400);
    expect(retry.body.error.message).toMatch(/already used/);
    const list = await manual.t.request('GET', '/v1/channels', { key: apiKey });
    expect(list.body.channels).toEqual([]);
  });

  it('an error value that is not a code is not echoed', async () => {
    const { apiKey } = await manual.t.signup();
    const started = await manual.t.request('POST', '/v1/channels/platformA/connect', { key: apiKey });
    const res = await callback(
      manual,
      `?error=${encodeURIComponent('<script>x</script>')}&state=${started.body.state}`,
    );
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('<script>');
  });

  it('maps every token-exchange failure to 502 token_exchange_failed without leaking secrets', async () => {
    const { apiKey } = await w.t.signup();
    const cases: [string, () => void][] = [
      ['invalid_grant', () => w.sandbox.platformA.faults.failNext('token', 400, { code: 'invalid_grant' })],
      ['client refused', () => w.sandbox.platformA.faults.failNext('token', 401)],
      ['rate limited', () => w.sandbox.platformA.faults.failNext('token', 429)],
      ['platform 5xx', () => w.sandbox.platformA.faults.failNext('token', 503)],
      ['connection dropped', () => w.sandbox.platformA.faults.dropNext('token')],
      ['userinfo down', () => w.sandbox.platformA.faults.failAlways('userinfo', 500)],
    ];
    for (const [name, inject] of cases) {
      const { back } = await authorize(w, apiKey);
      inject();
      try {
        const res = await callback(w, back.search);
        expect(res.status, name).toBe(502);
        expect(res.body.error.code, name).toBe('token_exchange_failed');
        expectNoSecrets(res.text, issuedSecrets(w.sandbox));
        expect(res.text).not.toContain(back.searchParams.get('code')!);
      } finally {
        w.sandbox.platformA.faults.clear();
      }
    }
    expect((await w.t.request('GET', '/v1/channels', { key: apiKey })).body.channels).toEqual([]);
  });
});

describe('connect flow with PLATFORMA_PKCE=false', () => {
  it('sends no challenge; a platform that requires PKCE refuses at consent (400 authorization_denied)', async () => {
    const world = await startChannelWorld({
      env: { PLATFORMA_PKCE: 'false' },
      sandbox: { platformA: { requirePkce: true } },
    });
    try {
      const { apiKey } = await world.t.signup();
      const { connect: started, back } = await authorize(world, apiKey);
      expect(new URL(started.url).searchParams.has('code_challenge')).toBe(false);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      const res = await callback(world, back.search);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('authorization_denied');
    } finally {
      await world.close();
    }
  });

  it('connects without PKCE when the platform does not require it', async () => {
    const world = await startChannelWorld({ env: { PLATFORMA_PKCE: 'false' } });
    try {
      const { apiKey } = await world.t.signup();
      const channel = await connected(world, apiKey);
      expect(channel.status).toBe('connected');
    } finally {
      await world.close();
    }
  });
});
