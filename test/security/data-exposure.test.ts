import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema/index.ts';
import { authorize, issuedSecrets, redirectOf } from '../channels/helpers.ts';
import { sampleFile } from '../media/fixtures.ts';
import { operations } from './openapi.ts';
import {
  FORBIDDEN_FIELDS,
  hour,
  pendingOauthRequest,
  planItem,
  type SecurityWorld,
  startSecurityWorld,
} from './world.ts';

/**
 * OWASP API3 (excessive data exposure), the read half: every operation is driven to a 2xx at
 * least once, and every response the service gave (2xx and errors alike) is scanned for secret
 * material: API keys and their digests, vault-sealed values, the platform's tokens and codes,
 * webhook signing secrets outside their create response, storage keys, OAuth state digests and
 * claim bookkeeping. The scan runs after every test (world.ts); this file makes sure it sees
 * every operation.
 */

let s: SecurityWorld;
beforeAll(async () => {
  s = await startSecurityWorld();
});
afterEach(async () => {
  await s.assertNoLeaks();
});
afterAll(async () => {
  await s?.close();
});

/** Operations that never answer 2xx by design. */
const NEVER_2XX = ['GET /mcp', 'DELETE /mcp'];

async function ok(method: string, path: string, options: Parameters<typeof s.t.request>[2] = {}) {
  const res = await s.t.request(method, path, options);
  expect(res.status, `${method} ${path}: ${res.text}`).toBeGreaterThanOrEqual(200);
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res;
}

describe('every operation, as its owner', () => {
  it('reads everything there is to read', async () => {
    const { b } = s;
    const key = b.apiKey;
    await ok('POST', '/v1/account', { body: { email: 'exposure@example.com' } });
    for (const path of [
      '/healthz',
      '/v1/health',
      '/v1/meta',
      '/v1/account',
      '/v1/keys',
      '/v1/members',
      '/v1/audit',
      '/v1/webhooks',
      `/v1/webhooks/${b.webhookId}`,
      `/v1/webhooks/${b.webhookId}/deliveries`,
      `/v1/posts/${b.publishedId}/metrics`,
      `/v1/posts/${b.publishedId}/metrics/history`,
      `/v1/posts/${b.publishedId}/deliveries`,
      '/v1/analytics',
      '/v1/analytics/trends',
      '/v1/posts/export',
      '/v1/posts/export?format=json',
      '/v1/calibration',
      '/v1/media',
      `/v1/media/${b.mediaId}`,
      `/v1/media/${b.mediaId}/content`,
      '/v1/posts',
      `/v1/posts/${b.publishedId}`,
      '/v1/calendar',
      `/v1/posts/${b.publishedId}/scores`,
      '/v1/channels',
      `/v1/channels/${b.channelId}`,
      '/mcp/tools/list',
      '/v1/brands',
      `/v1/brands/${b.brandId}`,
      '/v1/voices',
      `/v1/voices/${b.voiceId}`,
      '/v1/history',
      '/v1/insights',
      '/v1/plans',
      `/v1/plans/${b.plans.read}`,
    ]) {
      await ok('GET', path, { key });
    }
  });

  it('never shows a key or a signing secret again after it was issued', async () => {
    const { b } = s;
    const created = await ok('POST', '/v1/keys', { key: b.apiKey, body: { name: 'shown once' } });
    const hook = await ok('POST', '/v1/webhooks', {
      key: b.apiKey,
      body: { url: 'https://hooks.example.com/shown-once' },
    });
    const rotated = await ok('POST', `/v1/keys/${created.body.key.id}/rotate`, { key: b.apiKey });
    const later = [
      await ok('GET', '/v1/keys', { key: b.apiKey }),
      await ok('GET', '/v1/webhooks', { key: b.apiKey }),
      await ok('GET', `/v1/webhooks/${hook.body.webhook.id}`, { key: b.apiKey }),
      await ok('GET', '/v1/account', { key: rotated.body.apiKey }),
    ];
    for (const res of later) {
      for (const secret of [created.body.apiKey, rotated.body.apiKey, hook.body.secret]) {
        expect(res.text).not.toContain(secret);
      }
    }
    await ok('DELETE', `/v1/keys/${rotated.body.key.id}`, { key: b.apiKey });
    await ok('DELETE', `/v1/webhooks/${hook.body.webhook.id}`, { key: b.apiKey });
  });

  it('connects a channel through the OAuth callback without showing a token or code', async () => {
    const { b } = s;
    const member = s.w.sandbox.platformA.state.addMember().sub;
    s.w.sandbox.platformA.state.useMember(member);
    const { back } = await authorize(s.w, b.apiKey);
    const done = await ok('GET', `/v1/channels/platformA/callback${back.search}`);
    const channelId = done.body.channel.id;
    await ok('POST', `/v1/channels/${channelId}/refresh`, { key: b.apiKey });
    // An expired access token makes refresh really talk to the platform.
    s.w.clock.advance(70 * 24 * hour);
    const refreshed = await s.t.request('POST', `/v1/channels/${channelId}/refresh`, { key: b.apiKey });
    expect([200, 502]).toContain(refreshed.status);
    s.w.clock.advance(-70 * 24 * hour);
    await ok('DELETE', `/v1/channels/${channelId}`, { key: b.apiKey });
  });

  it('connects a platformB channel through its callback without showing a token or code', async () => {
    const { b } = s;
    const started = await ok('POST', '/v1/channels/platformB/connect', { key: b.apiKey, body: {} });
    const back = await redirectOf(started.body.url);
    const done = await ok('GET', `/v1/channels/platformB/callback${back.search}`);
    expect(done.body.channel.platform).toBe('platformB');
    await ok('DELETE', `/v1/channels/${done.body.channel.id}`, { key: b.apiKey });
  });

  it('writes, schedules, publishes, fails and deletes posts', async () => {
    const { b } = s;
    const key = b.apiKey;
    await ok('PATCH', `/v1/posts/${b.drafts.edit}`, { key, body: { text: 'edited' } });
    await ok('POST', `/v1/posts/${b.drafts.schedule}/schedule`, { key, body: { runAt: Date.now() + hour } });
    await ok('POST', `/v1/posts/${b.drafts.cancel}/cancel`, { key });
    await ok('POST', '/v1/posts/bulk-schedule', {
      key,
      body: { items: [{ text: 'bulk', runAt: Date.now() + hour, channelId: b.channelId }] },
    });
    await ok('POST', '/v1/posts/validate', { key, body: { post: 'validate me', mediaIds: [b.mediaId] } });
    await ok('POST', `/v1/posts/${b.publishedId}/metrics/refresh`, { key });
    await ok('DELETE', `/v1/posts/${b.drafts.remove}`, { key });
    // A platform refusal lands in the post's `error` and in the error response: no token in either.
    s.w.sandbox.platformA.faults.failNext('createPost', 401, {
      code: 'REVOKED_ACCESS_TOKEN',
      serviceErrorCode: 65601,
    });
    const failed = await s.t.request('POST', `/v1/posts/${b.drafts.publish}/publish`, { key });
    expect(failed.status, failed.text).toBeGreaterThanOrEqual(400);
    s.w.sandbox.platformA.faults.clear();
  });

  it('scores, rewrites, generates, plans and distils, including an idempotent replay', async () => {
    const { b } = s;
    const key = b.apiKey;
    const headers = { 'idempotency-key': 'exposure-replay' };
    await ok('POST', '/v1/score', { key, body: { post: 'We cut our p99 by 40% last week.' }, headers });
    const replay = await ok('POST', '/v1/score', {
      key,
      body: { post: 'We cut our p99 by 40% last week.' },
      headers,
    });
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    await ok('POST', '/v1/rewrite', { key, body: { post: 'We cut our p99 by 40% last week.' } });
    await ok('POST', '/v1/generate', {
      key,
      body: { brief: 'p99 latency', brandId: b.brandId, voiceId: b.voiceId },
    });
    await ok('POST', '/v1/plan', { key, body: { brief: 'p99 latency', brandId: b.brandId, count: 2 } });
    await ok('POST', '/v1/voices/build', { key, body: { name: 'built', samples: ['One sample post.'] } });
    await ok('POST', `/v1/posts/${b.publishedId}/score`, { key });
  });

  it('speaks MCP', async () => {
    const { b } = s;
    const headers = { accept: 'application/json, text/event-stream' };
    const rpc = (id: number, method: string, params: unknown) =>
      ok('POST', '/mcp', { key: b.apiKey, headers, body: { jsonrpc: '2.0', id, method, params } });
    await rpc(1, 'tools/list', {});
    for (const [i, name] of [
      'list_posts',
      'list_channels',
      'list_brands',
      'list_voices',
      'get_calendar',
    ].entries()) {
      const res = await rpc(10 + i, 'tools/call', { name, arguments: {} });
      expect(res.body.result.isError ?? false, name).toBe(false);
    }
  });

  it('edits and deletes the rest', async () => {
    const { b } = s;
    const key = b.apiKey;
    await ok('PATCH', `/v1/brands/${b.brandId}`, { key, body: { audience: 'engineers' } });
    await ok('PATCH', `/v1/voices/${b.voiceId}`, { key, body: { traits: ['plain'] } });
    const upload = await ok('POST', '/v1/media', {
      key,
      raw: sampleFile.pdf(512),
      headers: { 'content-type': 'application/pdf' },
    });
    await ok('DELETE', `/v1/media/${upload.body.media.id}`, { key });
    await ok('DELETE', `/v1/history/${b.historyId}`, { key });
    await ok('DELETE', '/v1/history', { key });
    await ok('DELETE', `/v1/voices/${b.voiceId}`, { key });
    await ok('DELETE', `/v1/brands/${b.brandId}`, { key });
    const saved = await ok('POST', '/v1/plans', {
      key,
      body: { brief: 'p99 latency', items: [planItem('p99')] },
    });
    await ok('POST', `/v1/plans/${saved.body.plan.id}/drafts`, { key, body: {} });
    await ok('DELETE', `/v1/plans/${saved.body.plan.id}`, { key });
  });

  it('queues, repeats, revises scheduled posts, tests webhooks and answers OAuth apps', async () => {
    const { b } = s;
    const key = b.apiKey;
    const queue = `/v1/channels/${b.channelId}/queue`;
    await ok('PUT', queue, { key, body: { timezone: 'Europe/Paris', slots: [{ day: 2, time: '08:15' }] } });
    await ok('GET', queue, { key });
    await ok('GET', `${queue}/suggest`, { key });
    const queued = await ok('POST', '/v1/posts', {
      key,
      body: { text: 'queued exposure', channelId: b.channelId, queue: true },
    });
    await ok('PATCH', `/v1/posts/${queued.body.post.id}/scheduled`, {
      key,
      body: { text: 'queued exposure, revised', firstComment: 'and a comment' },
    });
    await ok('DELETE', queue, { key });
    await ok('GET', '/v1/series', { key });
    await ok('GET', `/v1/series/${b.seriesId}`, { key });
    await ok('DELETE', `/v1/series/${b.seriesId}`, { key });
    await ok('POST', `/v1/webhooks/${b.webhookId}/test`, { key });
    await ok('POST', '/v1/history?dryRun=true', {
      key,
      body: { items: [{ text: 'dry run history', reactions: 2 }] },
    });
    await ok('GET', `/v1/oauth/requests/${b.nextOauthRequest()}`, { key });
    await ok('POST', `/v1/oauth/requests/${b.nextOauthRequest()}/deny`, { key });
    const approved = await ok('POST', `/v1/oauth/requests/${await pendingOauthRequest(s.t)}/approve`, {
      key,
      body: { scopes: ['read'] },
    });
    expect(new URL(approved.body.redirectTo).searchParams.get('code')).toBeTruthy();
    const apps = await ok('GET', '/v1/oauth/apps', { key });
    expect(apps.body.apps.length).toBeGreaterThanOrEqual(2);
    await ok('DELETE', `/v1/oauth/apps/${b.oauthAppId}`, { key });
  });

  it('composes post groups for several channels, reads, publishes and cancels them', async () => {
    const { b } = s;
    const key = b.apiKey;
    const made = await ok('POST', '/v1/post-groups', {
      key,
      body: { variants: [{ channelId: b.channelId, text: 'group exposure', firstComment: 'a comment' }] },
    });
    const id = made.body.group.id;
    await ok('GET', `/v1/post-groups/${id}`, { key });
    await ok('GET', `/v1/posts?groupId=${id}`, { key });
    await ok('POST', `/v1/post-groups/${id}/publish`, { key });
    const later = await ok('POST', '/v1/post-groups', {
      key,
      body: {
        variants: [{ channelId: b.channelId, text: 'group exposure later' }],
        runAt: Date.now() + hour,
      },
    });
    await ok('POST', `/v1/post-groups/${later.body.group.id}/cancel`, { key });
  });

  it('reads and changes the account settings and email', async () => {
    const { b } = s;
    const key = b.apiKey;
    await ok('GET', '/v1/account/settings', { key });
    await ok('PATCH', '/v1/account/settings', { key, body: { timezone: 'Europe/Paris' } });
    const email = (await ok('GET', '/v1/account', { key })).body.account.email;
    await ok('PATCH', '/v1/account', { key, body: { email } });
  });

  it('changes, issues a key for and removes members', async () => {
    const { b } = s;
    const key = b.apiKey;
    await ok('PATCH', `/v1/members/${b.members.change}`, { key, body: { role: 'viewer' } });
    const issued = await ok('POST', `/v1/members/${b.members.issue}/keys`, { key, body: { name: 'issued' } });
    const members = await ok('GET', '/v1/members', { key });
    expect(members.text).not.toContain(issued.body.apiKey);
    await ok('DELETE', `/v1/members/${b.members.remove}`, { key });
  });

  it('invites, lists, previews, accepts and withdraws invitations without showing a token again', async () => {
    const { b } = s;
    const key = b.apiKey;
    const made = await ok('POST', '/v1/invitations', {
      key,
      body: { email: 'exposure@agency.example', role: 'editor' },
    });
    const token = decodeURIComponent(made.body.acceptUrl.split('?token=')[1]!);
    const later = [
      await ok('GET', '/v1/invitations', { key }),
      await ok('GET', `/v1/invitations/${made.body.invitation.id}`, { key }),
      // The link's holder reads the invitation with the token; the answer does not repeat it.
      await ok('POST', '/v1/invitations/preview', { body: { token } }),
    ];
    for (const res of later) expect(res.text).not.toContain(token);
    const joined = await ok('POST', '/v1/invitations/accept', {
      body: { token, password: 'a long enough password' },
    });
    expect(joined.text).not.toContain('a long enough password');
    await ok('DELETE', `/v1/invitations/${b.invitationId}`, { key });
  });

  it('signs in, reads the session, sets the password and signs out without a session secret in any body', async () => {
    const { b } = s;
    const signed = await ok('POST', '/v1/sessions', { body: b.signIn });
    const cookie = (signed.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/^postkit_session=kit_ses_/);
    const headers = { cookie, 'x-csrf-token': signed.body.csrfToken };
    const me = await ok('GET', '/v1/account', { headers });
    expect(me.body.session.csrfToken).toBe(signed.body.csrfToken);
    await ok('PUT', '/v1/account/password', {
      headers,
      body: { password: b.signIn.password, currentPassword: b.signIn.password },
    });
    await ok('DELETE', '/v1/sessions', { headers });
  });

  it('comments on a post and reads the comments', async () => {
    const { b } = s;
    await ok('POST', `/v1/posts/${b.drafts.read}/comments`, { key: b.apiKey, body: { text: 'a note' } });
    await ok('GET', `/v1/posts/${b.drafts.read}/comments`, { key: b.apiKey });
  });

  it('submits a post for review, sends it back and approves it', async () => {
    const { b } = s;
    const id = b.drafts.read;
    await ok('POST', `/v1/posts/${id}/submit`, { key: b.apiKey, body: {} });
    await ok('POST', `/v1/posts/${id}/request-changes`, { key: b.apiKey, body: { note: 'Shorter' } });
    await ok('POST', `/v1/posts/${id}/submit`, { key: b.apiKey, body: {} });
    const approved = await ok('POST', `/v1/posts/${id}/approve`, { key: b.apiKey, body: {} });
    expect(approved.body.post.approval.state).toBe('approved');
  });

  it('has now answered every documented operation with a 2xx', () => {
    const answered = new Set(
      s.recorded.filter((r) => r.status < 300).map((r) => `${r.method} ${r.template}`),
    );
    const missing = operations(s.doc)
      .map((o) => o.key)
      .filter((k) => !answered.has(k) && !NEVER_2XX.includes(k));
    expect(missing).toEqual([]);
    expect(s.recorded.length).toBeGreaterThan(100);
  });
});

describe('what webhook receivers are sent', () => {
  it('event payloads carry no secret material either', async () => {
    const rows = await s.t.service.deps.db.select().from(events);
    expect(rows.length).toBeGreaterThan(5);
    const text = JSON.stringify(rows.map((r) => r.payload));
    for (const secret of issuedSecrets(s.w.sandbox)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/kit_sk_[0-9A-Za-z]{38}|whsec_|v1\.[0-9a-f]{12}\./);
    for (const field of FORBIDDEN_FIELDS) expect(text).not.toContain(`"${field}"`);
  });
});
