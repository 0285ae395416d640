import { createServer, type Server } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema/index.ts';
import {
  type ChannelWorld,
  channelRow,
  connected,
  expectNoSecrets,
  issuedSecrets,
  startChannelWorld,
} from './helpers.ts';

let w: ChannelWorld;
let receiver: Server;
let receiverUrl: string;
const received: {
  headers: Record<string, unknown>;
  body: { type?: string; data?: { channel?: { id: string; status: string } } };
}[] = [];

beforeAll(async () => {
  w = await startChannelWorld({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(raw) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});
afterAll(async () => {
  await w?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const rowOf = (id: string) => channelRow(w, id);

describe('channel resources', () => {
  it('lists (newest first) and gets channels without any token material', async () => {
    const { apiKey } = await w.t.signup();
    const first = await connected(w, apiKey);
    const other = w.sandbox.platformA.state.addMember();
    const previous = w.sandbox.platformA.state.currentMember;
    w.sandbox.platformA.state.useMember(other.sub);
    const second = await connected(w, apiKey);
    w.sandbox.platformA.state.useMember(previous);

    const list = await w.t.request('GET', '/v1/channels', { key: apiKey });
    expect(list.status).toBe(200);
    expect(list.body.channels.map((c: { id: string }) => c.id)).toEqual([second.id, first.id]);
    const one = await w.t.request('GET', `/v1/channels/${first.id}`, { key: apiKey });
    expect(one.status).toBe(200);
    expect(one.body.channel).toEqual(first);
    const row = await rowOf(first.id);
    for (const res of [list, one]) {
      expectNoSecrets(res.text, issuedSecrets(w.sandbox));
      expect(res.text).not.toContain(row.accessTokenSealed!);
      expect(res.text).not.toMatch(/sealed|accessToken|refreshToken/i);
    }
  });

  it('every {id} route answers 404 for another account’s channel and for unknown ids', async () => {
    const owner = await w.t.signup();
    const stranger = await w.t.signup();
    const channel = await connected(w, owner.apiKey);
    for (const id of [channel.id, 'chn_doesnotexist']) {
      for (const [method, path] of [
        ['GET', `/v1/channels/${id}`],
        ['DELETE', `/v1/channels/${id}`],
        ['POST', `/v1/channels/${id}/refresh`],
      ] as const) {
        const res = await w.t.request(method, path, { key: stranger.apiKey });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
    }
    // The stranger's attempts changed nothing.
    expect((await rowOf(channel.id)).status).toBe('connected');
    expect((await rowOf(channel.id)).accessTokenSealed).not.toBeNull();
  });

  it('requires a key on every protected route', async () => {
    for (const [method, path] of [
      ['GET', '/v1/channels'],
      ['POST', '/v1/channels/platformA/connect'],
      ['GET', '/v1/channels/chn_x'],
      ['DELETE', '/v1/channels/chn_x'],
      ['POST', '/v1/channels/chn_x/refresh'],
    ] as const) {
      expect((await w.t.request(method, path)).status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('disconnect', () => {
  it('revokes, wipes the sealed tokens irreversibly, keeps the row and emits channel.disconnected once', async () => {
    const { apiKey, accountId } = await w.t.signup();
    const hook = await w.t.request('POST', '/v1/webhooks', {
      key: apiKey,
      body: { url: receiverUrl, events: ['channel.disconnected'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const channel = await connected(w, apiKey);
    expect((await rowOf(channel.id)).refreshTokenSealed).not.toBeNull();

    const res = await w.t.request('DELETE', `/v1/channels/${channel.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.body.channel).toMatchObject({ id: channel.id, status: 'revoked', expiresAt: null });

    const row = await rowOf(channel.id);
    expect(row.status).toBe('revoked');
    expect(row.accessTokenSealed).toBeNull();
    expect(row.refreshTokenSealed).toBeNull();
    expect(row.refreshExpiresAt).toBeNull();

    const recorded = await w.t.service.deps.db
      .select()
      .from(events)
      .where(and(eq(events.accountId, accountId), eq(events.type, 'channel.disconnected')));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.payload).toMatchObject({
      channel: { id: channel.id, status: 'revoked' },
      reason: 'disconnected',
    });

    // Again: still 200, still revoked, no second event.
    const again = await w.t.request('DELETE', `/v1/channels/${channel.id}`, { key: apiKey });
    expect(again.status).toBe(200);
    expect(again.body.channel.status).toBe('revoked');
    const after = await w.t.service.deps.db
      .select()
      .from(events)
      .where(and(eq(events.accountId, accountId), eq(events.type, 'channel.disconnected')));
    expect(after).toHaveLength(1);

    // The webhook receiver gets the event, with the channel and no token material.
    await w.t.service.runner!.runOnce();
    const delivery = received.find((r) => r.body.data?.channel?.id === channel.id);
    expect(delivery?.body.type).toBe('channel.disconnected');
    expect(delivery?.body.data?.channel?.status).toBe('revoked');
    expectNoSecrets(JSON.stringify(delivery), issuedSecrets(w.sandbox));

    // A revoked channel is still readable and listed; refresh is a no-op on it.
    expect(
      (await w.t.request('GET', `/v1/channels/${channel.id}`, { key: apiKey })).body.channel.status,
    ).toBe('revoked');
    const refresh = await w.t.request('POST', `/v1/channels/${channel.id}/refresh`, { key: apiKey });
    expect(refresh.status).toBe(200);
    expect(refresh.body.channel.status).toBe('revoked');
  });
});
