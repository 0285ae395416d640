import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostWorld } from '../posts/world.ts';
import { startReviewWorld } from './review-world.ts';
import { startTeam, type Team, type TeamMember } from './team-world.ts';

/**
 * The audit trail on a real workspace: an owner, a lead (admin) and a writer (editor), a
 * platformA channel on the sandbox; each action goes through the API as a member would take it,
 * and GET /v1/audit must then tell exactly who did what, newest first.
 */
let w: PostWorld;
let team: Team;
let lead: TeamMember;
let writer: TeamMember;
let channelId: string;

beforeAll(async () => {
  ({ w, team, lead, writer, channelId } = await startReviewWorld());
});
afterAll(async () => {
  await w?.close();
});

const call = async (m: TeamMember, method: string, url: string, body?: unknown) => {
  const res = await w.t.request(method, url, { key: m.apiKey, body });
  expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
  return res;
};

interface Event {
  id: string;
  memberId: string | null;
  action: string;
  target: string;
  at: number;
}

async function trail(m: TeamMember, query = 'limit=100'): Promise<Event[]> {
  const res = await call(m, 'GET', `/v1/audit?${query}`);
  return res.body.events;
}

/** The events after `seen`, oldest first, as [who, action, target]. */
async function since(seen: number): Promise<[string | null, string, string][]> {
  const all = await trail(team.owner);
  return all
    .slice(0, all.length - seen)
    .reverse()
    .map((e) => [e.memberId, e.action, e.target]);
}

describe('the audit trail', () => {
  it('already holds the world’s setup: the channel the owner connected, the settings the lead changed', async () => {
    const events = await trail(lead);
    expect(events.map((e) => [e.memberId, e.action, e.target])).toEqual([
      [lead.memberId, 'settings.changed', team.accountId],
      [team.owner.memberId, 'channel.connected', channelId],
    ]);
    expect(Object.keys(events[0]!).sort()).toEqual(['action', 'at', 'id', 'memberId', 'target']);
    expect(events[0]!.id).toMatch(/^aud_[0-9A-Za-z]{20}$/);
    expect(events[0]!.at).toBeGreaterThanOrEqual(events[1]!.at);
  });

  it('records keys created, rotated and revoked, by whoever did it', async () => {
    const seen = (await trail(team.owner)).length;
    const made = await call(team.owner, 'POST', '/v1/keys', { name: 'ci' });
    const rotated = await call(team.owner, 'POST', `/v1/keys/${made.body.key.id}/rotate`);
    await call(team.owner, 'DELETE', `/v1/keys/${rotated.body.key.id}`);
    // Revoking a revoked key answers true and records nothing more.
    await call(team.owner, 'DELETE', `/v1/keys/${rotated.body.key.id}`);
    const issued = await call(lead, 'POST', `/v1/members/${writer.memberId}/keys`, { name: 'lost one' });
    const me = team.owner.memberId;
    expect(await since(seen)).toEqual([
      [me, 'key.created', made.body.key.id],
      [me, 'key.revoked', made.body.key.id],
      [me, 'key.created', rotated.body.key.id],
      [me, 'key.revoked', rotated.body.key.id],
      [lead.memberId, 'key.created', issued.body.key.id],
    ]);
  });

  it('records members invited, joining, changed and removed; a refused change records nothing', async () => {
    const seen = (await trail(team.owner)).length;
    const invited = await call(lead, 'POST', '/v1/invitations', {
      email: 'client@agency.example',
      role: 'viewer',
    });
    const token = new URL(invited.body.acceptUrl.replace('/#/', '/')).searchParams.get('token');
    const joined = await w.t.request('POST', '/v1/invitations/accept', { body: { token } });
    expect(joined.status, joined.text).toBe(201);
    const client = joined.body.member.id;
    await call(lead, 'PATCH', `/v1/members/${client}`, { role: 'editor' });
    // The same role again changes nothing, so nothing is recorded.
    await call(lead, 'PATCH', `/v1/members/${client}`, { role: 'editor' });
    const lastOwner = await w.t.request('DELETE', `/v1/members/${team.owner.memberId}`, {
      key: team.owner.apiKey,
    });
    expect(lastOwner.status).toBe(409);
    await call(lead, 'DELETE', `/v1/members/${client}`);
    expect(await since(seen)).toEqual([
      [lead.memberId, 'member.invited', invited.body.invitation.id],
      [client, 'member.joined', client],
      [lead.memberId, 'member.role_changed', client],
      [lead.memberId, 'member.removed', client],
    ]);
  });

  it('records posts scheduled, published, canceled, approved and sent back', async () => {
    const seen = (await trail(team.owner)).length;
    const draft = async (m: TeamMember, text: string) =>
      (await call(m, 'POST', '/v1/posts', { text, channelId })).body.post.id as string;
    const reviewed = await draft(writer, 'The audit trail shows who approved what, and when.');
    await call(writer, 'POST', `/v1/posts/${reviewed}/submit`, {});
    await call(lead, 'POST', `/v1/posts/${reviewed}/request-changes`, { note: 'Say why it matters.' });
    await call(writer, 'POST', `/v1/posts/${reviewed}/submit`, {});
    await call(lead, 'POST', `/v1/posts/${reviewed}/approve`, {});
    await call(writer, 'POST', `/v1/posts/${reviewed}/publish`);
    const later = await draft(team.owner, 'A post the owner schedules and then calls back.');
    await call(team.owner, 'POST', `/v1/posts/${later}/schedule`, { runAt: Date.now() + 3_600_000 });
    await call(team.owner, 'POST', `/v1/posts/${later}/cancel`);
    // Canceling it again is a no-op and records nothing.
    await call(team.owner, 'POST', `/v1/posts/${later}/cancel`);
    expect(await since(seen)).toEqual([
      [lead.memberId, 'post.changes_requested', reviewed],
      [lead.memberId, 'post.approved', reviewed],
      [writer.memberId, 'post.published', reviewed],
      [team.owner.memberId, 'post.scheduled', later],
      [team.owner.memberId, 'post.canceled', later],
    ]);
  });

  it('records webhooks created and deleted, settings changed and the channel disconnected', async () => {
    const seen = (await trail(team.owner)).length;
    const hook = await call(lead, 'POST', '/v1/webhooks', { url: 'https://hooks.example.com/audit' });
    await call(lead, 'DELETE', `/v1/webhooks/${hook.body.webhook.id}`);
    await call(team.owner, 'PATCH', '/v1/account/settings', { timezone: 'Europe/Paris' });
    await call(lead, 'DELETE', `/v1/channels/${channelId}`);
    expect(await since(seen)).toEqual([
      [lead.memberId, 'webhook.created', hook.body.webhook.id],
      [lead.memberId, 'webhook.deleted', hook.body.webhook.id],
      [team.owner.memberId, 'settings.changed', team.accountId],
      [lead.memberId, 'channel.disconnected', channelId],
    ]);
  });

  it('pages newest first with limit and offset, and refuses a bad page with a 400 naming the field', async () => {
    const all = await trail(team.owner);
    expect(all.length).toBeGreaterThan(5);
    const page = await call(team.owner, 'GET', '/v1/audit?limit=2&offset=1');
    expect(page.body.events.map((e: Event) => e.id)).toEqual(all.slice(1, 3).map((e) => e.id));
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, hasMore: true });
    const last = await call(team.owner, 'GET', `/v1/audit?limit=100&offset=${all.length - 1}`);
    expect(last.body.pagination.hasMore).toBe(false);
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'limit=ten']) {
      const res = await w.t.request('GET', `/v1/audit?${bad}`, { key: team.owner.apiKey });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(JSON.stringify(res.body.error.details)).toContain(bad.split('=')[0]);
    }
  });

  it('is for owners and admins: an editor or viewer gets 403 naming the admin role', async () => {
    const viewer = await team.add('viewer');
    for (const m of [writer, viewer]) {
      const res = await w.t.request('GET', '/v1/audit', { key: m.apiKey });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'forbidden', role: 'admin' });
    }
  });

  it('shows a workspace none of another’s events, and another’s ids stay theirs', async () => {
    const other: Team = await startTeam(w.t);
    const made = await call(other.owner, 'POST', '/v1/keys', { name: 'theirs' });
    const theirs = await trail(other.owner);
    expect(theirs.map((e) => [e.memberId, e.action, e.target])).toEqual([
      [other.owner.memberId, 'key.created', made.body.key.id],
    ]);
    const ours = await trail(team.owner);
    const ourIds = new Set(ours.map((e) => e.id));
    expect(theirs.some((e) => ourIds.has(e.id))).toBe(false);
    expect(ours.some((e) => e.target === made.body.key.id)).toBe(false);
    // Acting on another workspace's objects fails as unknown ids do, and records nothing anywhere.
    const revoke = await w.t.request('DELETE', `/v1/keys/${made.body.key.id}`, { key: team.owner.apiKey });
    expect(revoke.status).toBe(404);
    expect((await trail(other.owner)).length).toBe(1);
    expect((await trail(team.owner)).length).toBe(ours.length);
  });
});
