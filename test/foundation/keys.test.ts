import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, isWellFormedApiKey } from '../../src/features/keys/key-format.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('key format', () => {
  it('has a scanner-friendly prefix, ~190 bits of randomness and a checksum', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const key = generateApiKey();
      expect(key).toMatch(/^kit_sk_[0-9A-Za-z]{38}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
      seen.add(key);
    }
    expect(seen.size).toBe(200);
    const key = generateApiKey();
    // Any single-character change breaks the checksum.
    for (let i = 7; i < key.length; i++) {
      const c = key[i] === 'a' ? 'b' : 'a';
      expect(isWellFormedApiKey(key.slice(0, i) + c + key.slice(i + 1))).toBe(false);
    }
    expect(displayPrefix(key)).toHaveLength(15);
  });
});

describe('/v1/keys', () => {
  it('lists metadata only, creates, rotates and revokes', async () => {
    const { apiKey, keyId } = await t.signup();
    const created = await t.request('POST', '/v1/keys', { key: apiKey, body: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body.key.name).toBe('ci');
    expect(isWellFormedApiKey(created.body.apiKey)).toBe(true);

    const noBody = await t.request('POST', '/v1/keys', { key: apiKey });
    expect(noBody.status).toBe(201);
    expect(noBody.body.key.name).toBe('default');

    const list = await t.request('GET', '/v1/keys', { key: apiKey });
    expect(list.status).toBe(200);
    expect(list.body.keys.map((k: { id: string }) => k.id)).toEqual([
      noBody.body.key.id,
      created.body.key.id,
      keyId,
    ]);
    for (const k of list.body.keys)
      expect(Object.keys(k).sort()).toEqual([
        'createdAt',
        'id',
        'keyPrefix',
        'lastUsedAt',
        'memberId',
        'name',
        'revokedAt',
        'scopes',
      ]);

    const rotated = await t.request('POST', `/v1/keys/${created.body.key.id}/rotate`, { key: apiKey });
    expect(rotated.status).toBe(201);
    expect(rotated.body.key.name).toBe('ci');
    expect(rotated.body.key.id).not.toBe(created.body.key.id);
    expect((await t.request('GET', '/v1/account', { key: created.body.apiKey })).status).toBe(401);
    expect((await t.request('GET', '/v1/account', { key: rotated.body.apiKey })).status).toBe(200);
    expect((await t.request('POST', `/v1/keys/${created.body.key.id}/rotate`, { key: apiKey })).status).toBe(
      404,
    );

    const revoked = await t.request('DELETE', `/v1/keys/${rotated.body.key.id}`, { key: apiKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ revoked: true });
    expect((await t.request('GET', '/v1/account', { key: rotated.body.apiKey })).status).toBe(401);
    const again = await t.request('DELETE', `/v1/keys/${rotated.body.key.id}`, { key: apiKey });
    expect(again.body).toEqual({ revoked: true });
    const after = await t.request('GET', '/v1/keys', { key: apiKey });
    const row = after.body.keys.find((k: { id: string }) => k.id === rotated.body.key.id);
    expect(row.revokedAt).toEqual(expect.any(Number));
  });

  it('records lastUsedAt when a key is used', async () => {
    const { apiKey, keyId } = await t.signup();
    await t.request('GET', '/v1/account', { key: apiKey });
    let lastUsedAt: number | null = null;
    for (let i = 0; i < 50 && lastUsedAt === null; i++) {
      const list = await t.request('GET', '/v1/keys', { key: apiKey });
      lastUsedAt = list.body.keys.find((k: { id: string }) => k.id === keyId).lastUsedAt;
      if (lastUsedAt === null) await new Promise((r) => setTimeout(r, 20));
    }
    expect(lastUsedAt).toEqual(expect.any(Number));
  });

  it("answers 404 for another account's key ids and leaves them alone", async () => {
    const alice = await t.signup();
    const bob = await t.signup();
    expect((await t.request('POST', `/v1/keys/${bob.keyId}/rotate`, { key: alice.apiKey })).status).toBe(404);
    const del = await t.request('DELETE', `/v1/keys/${bob.keyId}`, { key: alice.apiKey });
    expect(del.status).toBe(404);
    expect(del.body.error.code).toBe('not_found');
    expect((await t.request('GET', '/v1/account', { key: bob.apiKey })).status).toBe(200);
    const list = await t.request('GET', '/v1/keys', { key: alice.apiKey });
    expect(list.body.keys.map((k: { id: string }) => k.id)).toEqual([alice.keyId]);
  });

  it('rejects a bad key name', async () => {
    const { apiKey } = await t.signup();
    const res = await t.request('POST', '/v1/keys', { key: apiKey, body: { name: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('name');
    const long = await t.request('POST', '/v1/keys', { key: apiKey, body: { name: 'x'.repeat(101) } });
    expect(long.status).toBe(400);
  });
});

describe('revocation with the in-process key cache', () => {
  it.runIf(Boolean(process.env.REDIS_URL))(
    'reaches another API process sharing the store at once',
    async () => {
      const { randomBytes } = await import('node:crypto');
      const { startService } = await import('../../src/server.ts');
      const kvPrefix = `test:${randomBytes(6).toString('hex')}:`;
      const first = await startTestApp({ AUTH_CACHE_TTL_MS: '600000' }, { kvPrefix });
      const second = await startService(first.config, { kvPrefix, autoStartRunner: false });
      try {
        const { apiKey, keyId } = await first.signup();
        const viaSecond = () =>
          fetch(`${second.url}/v1/account`, { headers: { authorization: `Bearer ${apiKey}` } });
        expect((await viaSecond()).status).toBe(200); // now cached in the second process for 10 minutes
        const other = await first.request('POST', '/v1/keys', { key: apiKey });
        expect((await first.request('DELETE', `/v1/keys/${keyId}`, { key: other.body.apiKey })).status).toBe(
          200,
        );
        let status = 200;
        for (let i = 0; i < 40 && status === 200; i++) {
          status = (await viaSecond()).status;
          if (status === 200) await new Promise((r) => setTimeout(r, 25));
        }
        expect(status).toBe(401);
      } finally {
        await second.close();
        await first.close();
      }
    },
  );
});
