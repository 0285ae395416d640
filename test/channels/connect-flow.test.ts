import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands, oauthStates } from '../../src/db/schema/index.ts';
import { vaultAad } from '../../src/vault/aad.ts';
import {
  authorize,
  type ChannelWorld,
  callback,
  channelRow,
  connect,
  connected,
  expectNoSecrets,
  issuedSecrets,
  startChannelWorld,
} from './helpers.ts';

let w: ChannelWorld;
beforeAll(async () => {
  w = await startChannelWorld();
});
afterAll(async () => {
  await w?.close();
});

const digest = (s: string) => createHash('sha256').update(s).digest('hex');

const rowOf = (id: string) => channelRow(w, id);

describe('connect flow over real HTTP (service <-> sandbox)', () => {
  it('connect returns the consent URL with state and PKCE S256; the callback creates a connected channel', async () => {
    const { apiKey, accountId } = await w.t.signup();
    const member = w.sandbox.platformA.state.members.get(w.sandbox.platformA.state.currentMember)!;
    const { started, back, status, body, text } = await connect(w, apiKey);

    const url = new URL(started.url);
    expect(url.origin + url.pathname).toBe(`${w.sandbox.platformA.authUrl}/authorization`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe(w.sandbox.platformA.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(w.redirectUri);
    expect(url.searchParams.get('state')).toBe(started.state);
    expect(url.searchParams.get('scope')!.split(' ')).toContain('w_member_social');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(back.searchParams.get('state')).toBe(started.state);

    expect(status, text).toBe(200);
    const channel = body.channel;
    expect(Object.keys(channel).sort()).toEqual(
      [
        'id',
        'accountId',
        'brandId',
        'platform',
        'platformUserId',
        'handle',
        'status',
        'scopes',
        'expiresAt',
        'lastRefreshAt',
        'renews',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(channel).toMatchObject({
      accountId,
      brandId: null,
      platform: 'platformA',
      platformUserId: member.sub,
      handle: member.name,
      status: 'connected',
    });
    expect(channel.id).toMatch(/^chn_/);
    expect(channel.scopes).toEqual(expect.arrayContaining(['openid', 'profile', 'w_member_social']));
    // 60-day token from the sandbox.
    expect(channel.expiresAt).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    expectNoSecrets(text, issuedSecrets(w.sandbox));

    // The tokens are sealed under the channel id; they open only as this channel's.
    const row = await rowOf(channel.id);
    const [issued] = [...w.sandbox.platformA.state.tokens.values()]
      .filter((t) => t.sub === member.sub)
      .slice(-1);
    expect(row.accessTokenSealed).not.toContain(issued!.accessToken);
    expect(w.vault.open(row.accessTokenSealed!, vaultAad.channelToken(channel.id, 'access'))).toBe(
      issued!.accessToken,
    );
    expect(w.vault.open(row.refreshTokenSealed!, vaultAad.channelToken(channel.id, 'refresh'))).toBe(
      issued!.refreshToken,
    );
    expect(() =>
      w.vault.open(row.accessTokenSealed!, vaultAad.channelToken('chn_other', 'access')),
    ).toThrow();

    // The state was stored only as its digest, is spent, and its PKCE verifier is gone.
    const [state] = await w.t.service.deps.db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.stateHash, digest(started.state)));
    expect(state).toMatchObject({ accountId, platform: 'platformA' });
    expect(state!.usedAt).not.toBeNull();
    expect(state!.codeVerifierSealed).toBeNull();
    expect(JSON.stringify(await w.t.service.deps.db.select().from(oauthStates))).not.toContain(started.state);
  });

  it('a replayed callback (same code and state) is refused with 400 and changes nothing', async () => {
    const { apiKey } = await w.t.signup();
    const first = await connect(w, apiKey);
    expect(first.status).toBe(200);
    const replay = await callback(w, first.back.search);
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('invalid_request');
    expect(replay.body.error.message).toMatch(/already used/);
    expect(replay.body.error.details[0].path).toBe('query.state');
  });

  it('an unknown state and a missing state are 400', async () => {
    const unknown = await callback(w, '?code=abc&state=not-a-state-we-issued');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/Unknown state/);
    const missing = await callback(w, '?code=abc');
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('invalid_request');
  });

  it('a state expires after 10 minutes', async () => {
    const { apiKey } = await w.t.signup();
    const { back } = await authorize(w, apiKey);
    w.clock.advance(10 * 60_000 + 1);
    try {
      const late = await callback(w, back.search);
      expect(late.status).toBe(400);
      expect(late.body.error.message).toMatch(/expired/);
    } finally {
      w.clock.advance(-(10 * 60_000 + 1));
    }
    // Just inside the window it works (a fresh state).
    const { apiKey: other } = await w.t.signup();
    const { back: again } = await authorize(w, other);
    w.clock.advance(10 * 60_000 - 1_000);
    try {
      expect((await callback(w, again.search)).status).toBe(200);
    } finally {
      w.clock.advance(-(10 * 60_000 - 1_000));
    }
  });

  it('the state is account-bound: the channel lands in the account that asked, never another', async () => {
    const a = await w.t.signup();
    const b = await w.t.signup();
    const channel = await connected(w, a.apiKey);
    expect(channel.accountId).toBe(a.accountId);
    const listA = await w.t.request('GET', '/v1/channels', { key: a.apiKey });
    const listB = await w.t.request('GET', '/v1/channels', { key: b.apiKey });
    expect(listA.body.channels.map((c: { id: string }) => c.id)).toContain(channel.id);
    expect(listB.body.channels).toEqual([]);
  });

  it('PKCE: the verifier sealed with the state is what the sandbox checks against the challenge', async () => {
    const { apiKey } = await w.t.signup();
    const { connect: started, back } = await authorize(w, apiKey);
    const hash = digest(started.state);
    // Swap in a different (validly sealed) verifier: the sandbox must refuse the exchange.
    await w.t.service.deps.db
      .update(oauthStates)
      .set({ codeVerifierSealed: w.vault.seal('x'.repeat(43), vaultAad.oauthVerifier(hash)) })
      .where(eq(oauthStates.stateHash, hash));
    const res = await callback(w, back.search);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('token_exchange_failed');
    expect(res.body.error.message).toMatch(/code_verifier/);
    expectNoSecrets(res.text, issuedSecrets(w.sandbox));
  });

  it('a verifier sealed for another state does not open: 400, nothing exchanged', async () => {
    const { apiKey } = await w.t.signup();
    const one = await authorize(w, apiKey);
    const two = await authorize(w, apiKey);
    const [rowOne] = await w.t.service.deps.db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.stateHash, digest(one.connect.state)));
    await w.t.service.deps.db
      .update(oauthStates)
      .set({ codeVerifierSealed: rowOne!.codeVerifierSealed })
      .where(eq(oauthStates.stateHash, digest(two.connect.state)));
    const before = w.sandbox.platformA.state.calls('token');
    const res = await callback(w, two.back.search);
    expect(res.status).toBe(400);
    expect(w.sandbox.platformA.state.calls('token')).toBe(before);
  });

  it('connecting the same member again reconnects the same channel with new tokens', async () => {
    const { apiKey } = await w.t.signup();
    const first = await connected(w, apiKey);
    const sealedBefore = (await rowOf(first.id)).accessTokenSealed;
    const del = await w.t.request('DELETE', `/v1/channels/${first.id}`, { key: apiKey });
    expect(del.body.channel.status).toBe('revoked');
    const second = await connected(w, apiKey);
    expect(second.id).toBe(first.id);
    expect(second.status).toBe('connected');
    const row = await rowOf(first.id);
    expect(row.accessTokenSealed).not.toBeNull();
    expect(row.accessTokenSealed).not.toBe(sealedBefore);
    const list = await w.t.request('GET', '/v1/channels', { key: apiKey });
    expect(list.body.channels).toHaveLength(1);
  });

  it('another member of the platform becomes a second channel', async () => {
    const { apiKey } = await w.t.signup();
    const first = await connected(w, apiKey);
    const previous = w.sandbox.platformA.state.currentMember;
    const other = w.sandbox.platformA.state.addMember({ givenName: 'Olga', familyName: 'Other' });
    w.sandbox.platformA.state.useMember(other.sub);
    try {
      const second = await connected(w, apiKey);
      expect(second.id).not.toBe(first.id);
      expect(second.platformUserId).toBe(other.sub);
      expect(second.handle).toBe('Olga Other');
    } finally {
      w.sandbox.platformA.state.useMember(previous);
    }
  });

  it('binds the channel to a brand of the caller; another account’s brand is 400', async () => {
    const a = await w.t.signup();
    const b = await w.t.signup();
    const now = Date.now();
    await w.t.service.deps.db.insert(brands).values([
      { id: 'brd_connect_a', accountId: a.accountId, name: 'A', createdAt: now, updatedAt: now },
      { id: 'brd_connect_b', accountId: b.accountId, name: 'B', createdAt: now, updatedAt: now },
    ]);
    const foreign = await w.t.request('POST', '/v1/channels/platformA/connect', {
      key: a.apiKey,
      body: { brandId: 'brd_connect_b' },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details[0].path).toBe('brandId');
    const channel = await connected(w, a.apiKey, { brandId: 'brd_connect_a' });
    expect(channel.brandId).toBe('brd_connect_a');
  });

  it('rejects a malformed connect body with 400', async () => {
    const { apiKey } = await w.t.signup();
    for (const body of [{ brandId: 42 }, { brandId: '' }, { unexpected: true }, []]) {
      const res = await w.t.request('POST', '/v1/channels/platformA/connect', { key: apiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    const noBody = await w.t.request('POST', '/v1/channels/platformA/connect', { key: apiKey });
    expect(noBody.status).toBe(200);
  });
});
