import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations, members } from '../../src/db/schema/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startTeam } from './team-world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The token in the link's hash route (`/#/join?token=…`). */
const tokenOf = (acceptUrl: string) => decodeURIComponent(acceptUrl.split('?token=')[1]!);
let n = 0;
const email = () => `invitee${++n}-${Date.now()}@agency.example`;

describe('invitations', () => {
  it('an admin invites; the person accepts with the link and joins with the role and a first key', async () => {
    const team = await startTeam(t);
    const admin = await team.add('admin');
    const to = email();
    const made = await t.request('POST', '/v1/invitations', {
      key: admin.apiKey,
      body: { email: to, role: 'editor' },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.invitation).toMatchObject({ email: to, role: 'editor', acceptedAt: null });
    expect(made.body.invitation.id).toMatch(/^inv_/);
    const week = 7 * 24 * 3_600_000;
    expect(made.body.invitation.expiresAt).toBeGreaterThan(Date.now() + week - 60_000);
    expect(made.body.invitation.expiresAt).toBeLessThanOrEqual(Date.now() + week);
    expect(made.body.acceptUrl).toMatch(new RegExp(`^${t.url}/#/join\\?token=kit_inv_`));

    const listed = await t.request('GET', '/v1/invitations', { key: admin.apiKey });
    expect(listed.body.invitations.map((i: { id: string }) => i.id)).toEqual([made.body.invitation.id]);
    expect(listed.text).not.toContain(tokenOf(made.body.acceptUrl));

    const joined = await t.request('POST', '/v1/invitations/accept', {
      body: { token: tokenOf(made.body.acceptUrl), name: 'Wren Writer', password: 'correct horse battery' },
    });
    expect(joined.status, joined.text).toBe(201);
    expect(joined.body.member).toMatchObject({ email: to, name: 'Wren Writer', role: 'editor' });
    expect(joined.body.key.memberId).toBe(joined.body.member.id);
    const me = await t.request('GET', '/v1/account', { key: joined.body.apiKey });
    expect(me.body.account.id).toBe(team.accountId);
    expect(me.body.member.role).toBe('editor');
    const got = await t.request('GET', `/v1/invitations/${made.body.invitation.id}`, { key: admin.apiKey });
    expect(got.body.invitation.acceptedAt).toEqual(expect.any(Number));
    // The password is kept only as a memory-hard hash.
    const [row] = await t.service.deps.db.select().from(members).where(eq(members.id, joined.body.member.id));
    expect(row!.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row!.passwordHash).not.toContain('correct horse');
  });

  it('a viewer’s first key reads only; an invited owner needs an owner to invite them', async () => {
    const team = await startTeam(t);
    const admin = await team.add('admin');
    const viewer = await t.request('POST', '/v1/invitations', {
      key: admin.apiKey,
      body: { email: email(), role: 'viewer' },
    });
    const joined = await t.request('POST', '/v1/invitations/accept', {
      body: { token: tokenOf(viewer.body.acceptUrl) },
    });
    expect(joined.body.key.scopes).toEqual(['read']);
    const owner = await t.request('POST', '/v1/invitations', {
      key: admin.apiKey,
      body: { email: email(), role: 'owner' },
    });
    expect(owner.status).toBe(403);
    expect(owner.body.error).toMatchObject({ code: 'forbidden', role: 'owner' });
    const byOwner = await t.request('POST', '/v1/invitations', {
      key: team.owner.apiKey,
      body: { email: email(), role: 'owner' },
    });
    expect(byOwner.status).toBe(201);
    const editor = await team.add('editor');
    const byEditor = await t.request('POST', '/v1/invitations', {
      key: editor.apiKey,
      body: { email: email(), role: 'viewer' },
    });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.role).toBe('admin');
  });

  it('a token works once, even when two accepts race', async () => {
    const team = await startTeam(t);
    const made = await t.request('POST', '/v1/invitations', {
      key: team.owner.apiKey,
      body: { email: email(), role: 'editor' },
    });
    const token = tokenOf(made.body.acceptUrl);
    const both = await Promise.all([
      t.request('POST', '/v1/invitations/accept', { body: { token } }),
      t.request('POST', '/v1/invitations/accept', { body: { token } }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const again = await t.request('POST', '/v1/invitations/accept', { body: { token } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invitation_used');
    const list = await t.request('GET', '/v1/members', { key: team.owner.apiKey });
    expect(list.body.members).toHaveLength(2);
  });

  it('a token stops working after 7 days, and when the invitation is withdrawn or replaced', async () => {
    const team = await startTeam(t);
    const key = team.owner.apiKey;
    const old = await t.request('POST', '/v1/invitations', { key, body: { email: email(), role: 'editor' } });
    await t.service.deps.db
      .update(invitations)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(invitations.id, old.body.invitation.id));
    const expired = await t.request('POST', '/v1/invitations/accept', {
      body: { token: tokenOf(old.body.acceptUrl) },
    });
    expect(expired.status).toBe(409);
    expect(expired.body.error.code).toBe('invitation_expired');

    const withdrawn = await t.request('POST', '/v1/invitations', {
      key,
      body: { email: email(), role: 'editor' },
    });
    expect(
      (await t.request('DELETE', `/v1/invitations/${withdrawn.body.invitation.id}`, { key })).body,
    ).toEqual({
      deleted: true,
    });
    const gone = await t.request('POST', '/v1/invitations/accept', {
      body: { token: tokenOf(withdrawn.body.acceptUrl) },
    });
    expect(gone.status).toBe(404);

    const to = email();
    const first = await t.request('POST', '/v1/invitations', { key, body: { email: to, role: 'viewer' } });
    const second = await t.request('POST', '/v1/invitations', {
      key,
      body: { email: to.toUpperCase(), role: 'editor' },
    });
    expect(second.status).toBe(201);
    expect(
      (await t.request('POST', '/v1/invitations/accept', { body: { token: tokenOf(first.body.acceptUrl) } }))
        .status,
    ).toBe(404);
    const joined = await t.request('POST', '/v1/invitations/accept', {
      body: { token: tokenOf(second.body.acceptUrl) },
    });
    expect(joined.body.member.role).toBe('editor');
  });

  it('a token is bound to its invitation: the body cannot choose the role or the workspace', async () => {
    const team = await startTeam(t);
    const made = await t.request('POST', '/v1/invitations', {
      key: team.owner.apiKey,
      body: { email: email(), role: 'viewer' },
    });
    const token = tokenOf(made.body.acceptUrl);
    for (const extra of [{ role: 'owner' }, { accountId: 'acc_other' }, { email: 'someone@else.example' }]) {
      const res = await t.request('POST', '/v1/invitations/accept', { body: { token, ...extra } });
      expect(res.status, res.text).toBe(400);
    }
    const wrong = await t.request('POST', '/v1/invitations/accept', { body: { token: `${token}x` } });
    expect(wrong.status).toBe(404);
    const short = await t.request('POST', '/v1/invitations/accept', { body: { token, password: 'short' } });
    expect(short.status).toBe(400);
    const joined = await t.request('POST', '/v1/invitations/accept', { body: { token } });
    expect(joined.body.member.role).toBe('viewer');
  });

  it('an existing member cannot be invited again (409)', async () => {
    const team = await startTeam(t);
    const res = await t.request('POST', '/v1/invitations', {
      key: team.owner.apiKey,
      body: { email: team.owner.email.toUpperCase(), role: 'viewer' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('already_member');
  });

  it('another workspace’s invitations are 404 and never listed', async () => {
    const mine = await startTeam(t);
    const theirs = await startTeam(t);
    const made = await t.request('POST', '/v1/invitations', {
      key: theirs.owner.apiKey,
      body: { email: email(), role: 'editor' },
    });
    const id = made.body.invitation.id;
    for (const method of ['GET', 'DELETE']) {
      const res = await t.request(method, `/v1/invitations/${id}`, { key: mine.owner.apiKey });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await t.request('GET', '/v1/invitations', { key: mine.owner.apiKey })).body.invitations).toEqual(
      [],
    );
    expect((await t.request('GET', `/v1/invitations/${id}`, { key: theirs.owner.apiKey })).status).toBe(200);
  });

  it('the link shows who invites the person, to which workspace and as what, before they join', async () => {
    const team = await startTeam(t);
    const admin = await team.add('admin');
    await t.service.deps.db.update(members).set({ name: 'Ada Admin' }).where(eq(members.id, admin.memberId));
    await t.request('PATCH', '/v1/account/settings', {
      key: team.owner.apiKey,
      body: { approvals: 'required' },
    });
    const to = email();
    const made = await t.request('POST', '/v1/invitations', {
      key: admin.apiKey,
      body: { email: to, role: 'editor' },
    });
    const token = tokenOf(made.body.acceptUrl);
    const seen = await t.request('POST', '/v1/invitations/preview', { body: { token } });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.invitation).toEqual({
      workspace: team.owner.email,
      invitedBy: 'Ada Admin',
      role: 'editor',
      email: to,
      expiresAt: made.body.invitation.expiresAt,
      approvals: 'required',
    });
    // Nothing more than the person may read: no ids, digests or other members.
    expect(seen.text).not.toMatch(/acc_|mem_|inv_|tokenHash|kit_/);
    // Looking does not use the link up; joining still works, once.
    expect((await t.request('POST', '/v1/invitations/preview', { body: { token } })).status).toBe(200);
    expect((await t.request('POST', '/v1/invitations/accept', { body: { token } })).status).toBe(201);
    const used = await t.request('POST', '/v1/invitations/preview', { body: { token } });
    expect(used.status).toBe(409);
    expect(used.body.error.code).toBe('invitation_used');
    expect(used.text).not.toContain(team.owner.email);
    expect(used.text).not.toContain('Ada Admin');
  });

  it('an inviter without a name is named by their email; one who left is not named', async () => {
    const team = await startTeam(t);
    const admin = await team.add('admin');
    const made = await t.request('POST', '/v1/invitations', {
      key: admin.apiKey,
      body: { email: email(), role: 'viewer' },
    });
    const token = tokenOf(made.body.acceptUrl);
    const named = await t.request('POST', '/v1/invitations/preview', { body: { token } });
    expect(named.body.invitation).toMatchObject({ invitedBy: admin.email, role: 'viewer', approvals: 'off' });
    expect(
      (await t.request('DELETE', `/v1/members/${admin.memberId}`, { key: team.owner.apiKey })).status,
    ).toBe(200);
    const left = await t.request('POST', '/v1/invitations/preview', { body: { token } });
    expect(left.status, left.text).toBe(200);
    expect(left.body.invitation.invitedBy).toBeNull();
  });

  it('an expired, withdrawn, unknown or malformed token shows nothing of the workspace (409, 404, 400)', async () => {
    const team = await startTeam(t);
    const key = team.owner.apiKey;
    const old = await t.request('POST', '/v1/invitations', { key, body: { email: email(), role: 'editor' } });
    await t.service.deps.db
      .update(invitations)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(invitations.id, old.body.invitation.id));
    const expired = await t.request('POST', '/v1/invitations/preview', {
      body: { token: tokenOf(old.body.acceptUrl) },
    });
    expect(expired.status).toBe(409);
    expect(expired.body.error.code).toBe('invitation_expired');
    expect(expired.body.error.message).toBe('This invitation expired (they last 7 days); ask for a new one.');

    const withdrawn = await t.request('POST', '/v1/invitations', {
      key,
      body: { email: email(), role: 'editor' },
    });
    await t.request('DELETE', `/v1/invitations/${withdrawn.body.invitation.id}`, { key });
    const gone = await t.request('POST', '/v1/invitations/preview', {
      body: { token: tokenOf(withdrawn.body.acceptUrl) },
    });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    const unknown = await t.request('POST', '/v1/invitations/preview', {
      body: { token: 'kit_inv_nothing' },
    });
    expect(unknown.status).toBe(404);
    for (const res of [expired, gone, unknown]) expect(res.text).not.toContain(team.owner.email);

    for (const body of [
      {},
      { token: '' },
      { token: 'x'.repeat(201) },
      { token: 'kit_inv_x', role: 'owner' },
    ]) {
      const bad = await t.request('POST', '/v1/invitations/preview', { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
    }
  });

  it('a token shows only its own workspace, whoever else holds a key', async () => {
    const mine = await startTeam(t);
    const theirs = await startTeam(t);
    const made = await t.request('POST', '/v1/invitations', {
      key: theirs.owner.apiKey,
      body: { email: email(), role: 'editor' },
    });
    // A key of another workspace changes nothing: the token alone says which invitation.
    const seen = await t.request('POST', '/v1/invitations/preview', {
      key: mine.owner.apiKey,
      body: { token: tokenOf(made.body.acceptUrl) },
    });
    expect(seen.status).toBe(200);
    expect(seen.body.invitation.workspace).toBe(theirs.owner.email);
    expect(seen.text).not.toContain(mine.owner.email);
  });
});
