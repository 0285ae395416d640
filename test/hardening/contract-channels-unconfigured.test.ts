import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels } from '../../src/db/schema/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * CONTRACT.md section 4 declares 503 (no vault key or app credentials) only for connect, callback
 * and refresh. Listing, reading and disconnecting a channel open no token and call no platform,
 * so a deployment without channel configuration (or one whose vault key was removed after
 * channels were connected) still answers them as declared: 200, 401, 404.
 */
let t: TestApp;
let key: string;
let otherKey: string;
let channelId: string;

beforeAll(async () => {
  t = await startTestApp(); // no KIT_VAULT_KEY, no PLATFORMA_* credentials
  const owner = await t.signup();
  key = owner.apiKey;
  otherKey = (await t.signup()).apiKey;
  // A channel connected while the deployment was configured, its tokens still sealed.
  channelId = 'chn_contractUnconfigured1';
  const now = Date.now();
  await t.service.deps.db.insert(channels).values({
    id: channelId,
    accountId: owner.accountId,
    platform: 'platformA',
    platformUserId: 'member-1',
    handle: 'Member One',
    status: 'connected',
    scopes: ['w_member_social'],
    accessTokenSealed: 'sealed-access-token',
    refreshTokenSealed: 'sealed-refresh-token',
    expiresAt: now + 3_600_000,
    createdAt: now,
    updatedAt: now,
  });
});

afterAll(async () => {
  await t?.close();
});

describe('channel reads and disconnect on a deployment without channel configuration', () => {
  it('GET /v1/channels lists the account channels (200), without token material', async () => {
    const res = await t.request('GET', '/v1/channels', { key });
    expect(res.status).toBe(200);
    expect(res.body.channels.map((c: { id: string }) => c.id)).toEqual([channelId]);
    expect(res.text).not.toContain('sealed-');
    const other = await t.request('GET', '/v1/channels', { key: otherKey });
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ channels: [] });
    expect((await t.request('GET', '/v1/channels')).status).toBe(401);
  });

  it('GET /v1/channels/{id} answers 200 for the owner and 404 otherwise', async () => {
    const res = await t.request('GET', `/v1/channels/${channelId}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.channel).toMatchObject({ id: channelId, status: 'connected' });
    const foreign = await t.request('GET', `/v1/channels/${channelId}`, { key: otherKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect((await t.request('GET', '/v1/channels/chn_missing', { key })).status).toBe(404);
  });

  it('DELETE /v1/channels/{id} revokes and wipes the tokens; another account gets 404', async () => {
    const foreign = await t.request('DELETE', `/v1/channels/${channelId}`, { key: otherKey });
    expect(foreign.status).toBe(404);
    const res = await t.request('DELETE', `/v1/channels/${channelId}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.channel).toMatchObject({ id: channelId, status: 'revoked' });
    const [row] = await t.service.deps.db.select().from(channels).where(eq(channels.id, channelId));
    expect(row?.accessTokenSealed).toBeNull();
    expect(row?.refreshTokenSealed).toBeNull();
  });

  it('connect and refresh still answer 503 not_configured', async () => {
    const connect = await t.request('POST', '/v1/channels/platformA/connect', { key });
    expect(connect.status).toBe(503);
    expect(connect.body.error.code).toBe('not_configured');
    const refresh = await t.request('POST', `/v1/channels/${channelId}/refresh`, { key });
    expect(refresh.status).toBe(503);
  });
});

/** The statuses the interface declares, as CONTRACT.md section 4 lists them. */
describe('declared error statuses follow the contract', () => {
  const declared = async (method: string, path: string): Promise<string[]> => {
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    return Object.keys(doc.paths[path][method].responses);
  };

  it('channel list, read and disconnect do not declare 503', async () => {
    expect(await declared('get', '/v1/channels')).not.toContain('503');
    expect(await declared('get', '/v1/channels/{id}')).not.toContain('503');
    expect(await declared('delete', '/v1/channels/{id}')).not.toContain('503');
    expect(await declared('post', '/v1/channels/{id}/refresh')).toContain('503');
  });

  it('generate, plan and voice creation do not declare 404 (a foreign brandId/voiceId is a 400)', async () => {
    for (const path of ['/v1/generate', '/v1/plan', '/v1/voices', '/v1/voices/build']) {
      const statuses = await declared('post', path);
      expect(statuses, path).not.toContain('404');
      expect(statuses, path).toEqual(expect.arrayContaining(['400', '401', '402', '429', '502']));
    }
    const res = await t.request('POST', '/v1/plan', { key, body: { brief: 'x', brandId: 'brd_missing' } });
    expect(res.status).toBe(400);
  });
});
