import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startTeam } from './team-world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('members and roles', () => {
  it('the account’s creator is its owner, and the first key is the owner’s', async () => {
    const team = await startTeam(t);
    const me = await t.request('GET', '/v1/account', { key: team.owner.apiKey });
    expect(me.status, me.text).toBe(200);
    expect(me.body.member).toMatchObject({ id: team.owner.memberId, email: team.owner.email, role: 'owner' });
    expect(me.body.key.memberId).toBe(team.owner.memberId);
    const list = await t.request('GET', '/v1/members', { key: team.owner.apiKey });
    expect(list.body.members).toEqual([
      expect.objectContaining({ id: team.owner.memberId, role: 'owner', name: null }),
    ]);
    expect(Object.keys(list.body.members[0]).sort()).toEqual([
      'createdAt',
      'email',
      'id',
      'lastActiveAt',
      'name',
      'role',
    ]);
  });

  it('every member’s key acts with that member’s role, and whoami says which', async () => {
    const team = await startTeam(t);
    const editor = await team.add('editor');
    const me = await t.request('GET', '/v1/account', { key: editor.apiKey });
    expect(me.body.member).toMatchObject({ id: editor.memberId, role: 'editor' });
    const list = await t.request('GET', '/v1/members', { key: editor.apiKey });
    expect(list.body.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'editor']);
    const hook = await t.request('POST', '/v1/webhooks', {
      key: editor.apiKey,
      body: { url: 'https://example.com/hook', events: ['post.published'] },
    });
    expect(hook.status, hook.text).toBe(403);
    expect(hook.body.error).toMatchObject({ code: 'forbidden', role: 'admin' });
    expect(hook.body.error.message).toBe(
      'This needs the admin role (an admin may manage members below owner, keys, channels, webhooks and settings, and approve posts); you are an editor in this workspace. Ask an owner or admin of the workspace to change your role.',
    );
  });

  it('a key’s scopes narrow its member’s role and never widen it', async () => {
    const team = await startTeam(t);
    const readOnly = await t.request('POST', '/v1/keys', {
      key: team.owner.apiKey,
      body: { scopes: ['read'] },
    });
    const draft = await t.request('POST', '/v1/posts', {
      key: readOnly.body.apiKey,
      body: { text: 'Hello' },
    });
    expect(draft.status).toBe(403);
    expect(draft.body.error.code).toBe('insufficient_scope');
    // A viewer whose key held every scope would still be a viewer.
    const viewer = await team.add('viewer');
    const wide = await t.request('POST', `/v1/members/${viewer.memberId}/keys`, {
      key: team.owner.apiKey,
      body: { scopes: ['read', 'write', 'publish'] },
    });
    expect(wide.status, wide.text).toBe(201);
    const refused = await t.request('POST', '/v1/posts', { key: wide.body.apiKey, body: { text: 'Hello' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden', role: 'editor' });
  });

  it('admins change members below owner; only an owner changes or makes an owner', async () => {
    const team = await startTeam(t);
    const admin = await team.add('admin');
    const editor = await team.add('editor');
    const promoted = await t.request('PATCH', `/v1/members/${editor.memberId}`, {
      key: admin.apiKey,
      body: { role: 'admin' },
    });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body.member).toMatchObject({ id: editor.memberId, role: 'admin' });
    const toOwner = await t.request('PATCH', `/v1/members/${editor.memberId}`, {
      key: admin.apiKey,
      body: { role: 'owner' },
    });
    expect(toOwner.status).toBe(403);
    expect(toOwner.body.error).toMatchObject({ code: 'forbidden', role: 'owner' });
    expect(toOwner.body.error.message).toMatch(/^Making a member an owner needs the owner role/);
    const demoteOwner = await t.request('PATCH', `/v1/members/${team.owner.memberId}`, {
      key: admin.apiKey,
      body: { role: 'viewer' },
    });
    expect(demoteOwner.status).toBe(403);
    expect(demoteOwner.body.error.role).toBe('owner');
    const removeOwner = await t.request('DELETE', `/v1/members/${team.owner.memberId}`, {
      key: admin.apiKey,
    });
    expect(removeOwner.status).toBe(403);
    const bad = await t.request('PATCH', `/v1/members/${editor.memberId}`, {
      key: team.owner.apiKey,
      body: { role: 'superuser' },
    });
    expect(bad.status).toBe(400);
  });

  it('a role change applies to the member’s next request, cached key or not', async () => {
    const team = await startTeam(t);
    const editor = await team.add('editor');
    // Twice, so the key is in this process's cache.
    for (let i = 0; i < 2; i++)
      expect(
        (await t.request('POST', '/v1/posts', { key: editor.apiKey, body: { text: 'Draft' } })).status,
      ).toBe(201);
    await t.request('PATCH', `/v1/members/${editor.memberId}`, {
      key: team.owner.apiKey,
      body: { role: 'viewer' },
    });
    const after = await t.request('POST', '/v1/posts', { key: editor.apiKey, body: { text: 'Draft' } });
    expect(after.status).toBe(403);
    expect(after.body.error).toMatchObject({ code: 'forbidden', role: 'editor' });
  });

  it('the last owner cannot be demoted or removed (409); with a second owner, either may go', async () => {
    const team = await startTeam(t);
    const demote = await t.request('PATCH', `/v1/members/${team.owner.memberId}`, {
      key: team.owner.apiKey,
      body: { role: 'admin' },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('last_owner');
    const leave = await t.request('DELETE', `/v1/members/${team.owner.memberId}`, { key: team.owner.apiKey });
    expect(leave.status).toBe(409);
    expect(leave.body.error.code).toBe('last_owner');
    expect(leave.body.error.message).toMatch(/without an owner/);

    const second = await team.add('admin');
    await t.request('PATCH', `/v1/members/${second.memberId}`, {
      key: team.owner.apiKey,
      body: { role: 'owner' },
    });
    const left = await t.request('DELETE', `/v1/members/${team.owner.memberId}`, { key: team.owner.apiKey });
    expect(left.status, left.text).toBe(200);
    expect(left.body).toEqual({ deleted: true });
    expect((await t.request('GET', '/v1/account', { key: team.owner.apiKey })).status).toBe(401);
    const now = await t.request('DELETE', `/v1/members/${second.memberId}`, { key: second.apiKey });
    expect(now.status).toBe(409);
  });

  it('a removed member’s keys get 401 on the next request, even a key this process cached', async () => {
    const team = await startTeam(t);
    const editor = await team.add('editor');
    for (let i = 0; i < 2; i++)
      expect((await t.request('GET', '/v1/account', { key: editor.apiKey })).status).toBe(200);
    const removed = await t.request('DELETE', `/v1/members/${editor.memberId}`, { key: team.owner.apiKey });
    expect(removed.status, removed.text).toBe(200);
    const after = await t.request('GET', '/v1/account', { key: editor.apiKey });
    expect(after.status).toBe(401);
    const list = await t.request('GET', '/v1/members', { key: team.owner.apiKey });
    expect(list.body.members.map((m: { id: string }) => m.id)).toEqual([team.owner.memberId]);
    const keys = await t.request('GET', '/v1/keys', { key: team.owner.apiKey });
    expect(keys.body.keys.every((k: { memberId: string }) => k.memberId === team.owner.memberId)).toBe(true);
  });
});

describe('keys in a team', () => {
  it('a member sees and manages its own keys; an admin everyone’s below owner', async () => {
    const team = await startTeam(t);
    const admin = await team.add('admin');
    const editor = await team.add('editor');
    const own = await t.request('GET', '/v1/keys', { key: editor.apiKey });
    expect(own.body.keys.map((k: { id: string }) => k.id)).toEqual([editor.keyId]);
    const all = await t.request('GET', '/v1/keys', { key: admin.apiKey });
    expect(all.body.keys.map((k: { id: string }) => k.id).sort()).toEqual(
      [team.owner.keyId, admin.keyId, editor.keyId].sort(),
    );
    // Another member's key is not the editor's to see.
    expect((await t.request('DELETE', `/v1/keys/${admin.keyId}`, { key: editor.apiKey })).status).toBe(404);
    expect((await t.request('POST', `/v1/keys/${admin.keyId}/rotate`, { key: editor.apiKey })).status).toBe(
      404,
    );
    // An admin does not revoke an owner's key.
    const ownerKey = await t.request('DELETE', `/v1/keys/${team.owner.keyId}`, { key: admin.apiKey });
    expect(ownerKey.status).toBe(403);
    expect(ownerKey.body.error.role).toBe('owner');
    const revoked = await t.request('DELETE', `/v1/keys/${editor.keyId}`, { key: admin.apiKey });
    expect(revoked.status).toBe(200);
    expect((await t.request('GET', '/v1/account', { key: editor.apiKey })).status).toBe(401);
  });

  it('an owner or admin issues a new key for a member who lost theirs; it acts as that member', async () => {
    const team = await startTeam(t);
    const admin = await team.add('admin');
    const viewer = await team.add('viewer');
    const issued = await t.request('POST', `/v1/members/${viewer.memberId}/keys`, {
      key: admin.apiKey,
      body: { name: 'replacement' },
    });
    expect(issued.status, issued.text).toBe(201);
    expect(issued.body.key).toMatchObject({
      memberId: viewer.memberId,
      name: 'replacement',
      scopes: ['read'],
    });
    const me = await t.request('GET', '/v1/account', { key: issued.body.apiKey });
    expect(me.body.member).toMatchObject({ id: viewer.memberId, role: 'viewer' });
    const forOwner = await t.request('POST', `/v1/members/${team.owner.memberId}/keys`, {
      key: admin.apiKey,
    });
    expect(forOwner.status).toBe(403);
    const byEditor = await t.request('POST', `/v1/members/${viewer.memberId}/keys`, {
      key: (await team.add('editor')).apiKey,
    });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.role).toBe('admin');
  });
});

describe('members across accounts', () => {
  it('another workspace’s members are 404 to change, remove or issue keys for, and never listed', async () => {
    const mine = await startTeam(t);
    const theirs = await startTeam(t);
    const theirEditor = await theirs.add('editor');
    const key = mine.owner.apiKey;
    for (const [method, path, body] of [
      ['PATCH', `/v1/members/${theirEditor.memberId}`, { role: 'viewer' }],
      ['DELETE', `/v1/members/${theirEditor.memberId}`, undefined],
      ['POST', `/v1/members/${theirEditor.memberId}/keys`, {}],
      ['DELETE', `/v1/keys/${theirEditor.keyId}`, undefined],
      ['POST', `/v1/keys/${theirEditor.keyId}/rotate`, undefined],
    ] as const) {
      const res = await t.request(method, path, { key, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const list = await t.request('GET', '/v1/members', { key });
    expect(list.body.members.map((m: { id: string }) => m.id)).toEqual([mine.owner.memberId]);
    expect((await t.request('GET', '/v1/account', { key: theirEditor.apiKey })).body.member.role).toBe(
      'editor',
    );
  });
});
