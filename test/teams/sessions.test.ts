import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { startTeam, type Team, type TeamMember } from './team-world.ts';

/**
 * Console sign-in with email and password, over real HTTP: the cookie's attributes, what a
 * session may do (its member's role, CSRF on unsafe requests), and when it stops (sign-out,
 * a removed member, a changed password).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const PASSWORD = 'a long walk to the harbour';

interface Signed {
  cookie: string;
  csrf: string;
  setCookie: string;
  body: TestResponse['body'];
}

async function setPassword(m: TeamMember, password = PASSWORD) {
  const res = await t.request('PUT', '/v1/account/password', { key: m.apiKey, body: { password } });
  expect(res.status, res.text).toBe(200);
}

async function signIn(email: string, password = PASSWORD, accountId?: string): Promise<Signed> {
  const res = await t.request('POST', '/v1/sessions', { body: { email, password, accountId } });
  expect(res.status, res.text).toBe(201);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0]!;
  return { cookie, csrf: res.body.csrfToken, setCookie, body: res.body };
}

/** A request as the console makes it: the cookie, and the CSRF token on unsafe methods unless told otherwise. */
function asSession(
  s: Signed,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const csrf: Record<string, string> = method === 'GET' ? {} : { 'x-csrf-token': s.csrf };
  return t.request(method, path, { body, headers: { cookie: s.cookie, ...csrf, ...headers } });
}

describe('console sessions', () => {
  let team: Team;
  let s: Signed;
  beforeAll(async () => {
    team = await startTeam(t);
    await setPassword(team.owner);
    s = await signIn(team.owner.email.toUpperCase());
  });

  it('an owner sets a password with their key and signs in: an httpOnly, SameSite=Strict cookie, never in the body', async () => {
    expect(s.setCookie).toMatch(/^postkit_session=kit_ses_[0-9A-Za-z]+; /);
    expect(s.setCookie).toContain('HttpOnly');
    expect(s.setCookie).toContain('SameSite=Strict');
    expect(s.setCookie).toContain('Path=/');
    expect(s.setCookie).toMatch(/Max-Age=1209600/);
    // Plain http on loopback: Secure would stop the browser from sending it back.
    expect(s.setCookie).not.toContain('Secure');
    const secret = s.cookie.split('=')[1]!;
    expect(JSON.stringify(s.body)).not.toContain(secret);
    expect(s.body.member).toMatchObject({ id: team.owner.memberId, role: 'owner' });
    expect(s.body.account.id).toBe(team.accountId);
    expect(s.body.session.id).toMatch(/^ses_/);
    expect(s.body.csrfToken).toMatch(/^[0-9a-f]{64}$/);
  });

  it('acts as its member: whoami has no key but the session, with its CSRF token for a page loaded again', async () => {
    const me = await asSession(s, 'GET', '/v1/account');
    expect(me.status, me.text).toBe(200);
    expect(me.body.member.id).toBe(team.owner.memberId);
    expect(me.body.key).toBeNull();
    expect(me.body.session).toEqual({
      id: s.body.session.id,
      createdAt: s.body.session.createdAt,
      expiresAt: s.body.session.expiresAt,
      csrfToken: s.csrf,
    });
    expect((await asSession(s, 'GET', '/v1/posts')).status).toBe(200);
    // With a key there is no session to tell or end.
    const withKey = await t.request('GET', '/v1/account', { key: team.owner.apiKey });
    expect(withKey.body.session).toBeUndefined();
    const endKey = await t.request('DELETE', '/v1/sessions', { key: team.owner.apiKey });
    expect(endKey.status).toBe(404);
    expect(endKey.body.error.code).toBe('not_found');
  });

  it('refuses an unsafe request without the CSRF token, with a wrong one, or from another origin', async () => {
    const body = { text: 'Written in the console.' };
    const without = await t.request('POST', '/v1/posts', { body, headers: { cookie: s.cookie } });
    expect(without.status).toBe(403);
    expect(without.body.error.code).toBe('csrf_failed');
    expect(without.body.error.message).toContain('x-csrf-token');
    const wrong = await asSession(s, 'POST', '/v1/posts', body, { 'x-csrf-token': 'f'.repeat(64) });
    expect(wrong.status).toBe(403);
    const elsewhere = await asSession(s, 'POST', '/v1/posts', body, { origin: 'https://evil.example' });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.code).toBe('csrf_failed');
    const posts = await t.request('GET', '/v1/posts', { key: team.owner.apiKey });
    expect(posts.body.posts).toEqual([]);
    const made = await asSession(s, 'POST', '/v1/posts', body, { origin: t.url });
    expect(made.status, made.text).toBe(201);
    expect(made.body.post.text).toBe(body.text);
  });

  it('answers a wrong password and an unknown email alike (401 invalid_credentials), and bad input with 400', async () => {
    const wrong = await t.request('POST', '/v1/sessions', {
      body: { email: team.owner.email, password: 'not the password' },
    });
    const unknown = await t.request('POST', '/v1/sessions', {
      body: { email: 'nobody@agency.example', password: PASSWORD },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_credentials');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    for (const body of [
      { email: team.owner.email },
      { email: team.owner.email, password: PASSWORD, role: 'owner' },
    ]) {
      const res = await t.request('POST', '/v1/sessions', { body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    // A garbage cookie is a 401 that clears it, never a 500.
    const garbage = await t.request('GET', '/v1/account', {
      headers: { cookie: 'postkit_session=nonsense' },
    });
    expect(garbage.status).toBe(401);
    expect(garbage.headers.get('set-cookie')).toContain('Max-Age=0');
  });

  it('a viewer who set a password at invitation signs in with the viewer’s rights only', async () => {
    const invited = await t.request('POST', '/v1/invitations', {
      key: team.owner.apiKey,
      body: { email: 'client@brand.example', role: 'viewer' },
    });
    const token = decodeURIComponent(invited.body.acceptUrl.split('?token=')[1]);
    const joined = await t.request('POST', '/v1/invitations/accept', {
      body: { token, password: 'the client’s own password' },
    });
    expect(joined.status, joined.text).toBe(201);
    const viewer = await signIn('client@brand.example', 'the client’s own password');
    expect(viewer.body.member.role).toBe('viewer');
    expect((await asSession(viewer, 'GET', '/v1/posts')).status).toBe(200);
    const draft = await asSession(viewer, 'POST', '/v1/posts', { text: 'Not mine to write.' });
    expect(draft.status).toBe(403);
    expect(draft.body.error).toMatchObject({ code: 'forbidden', role: 'editor' });
    const audit = await asSession(viewer, 'GET', '/v1/audit');
    expect(audit.status).toBe(403);
  });

  it('a removed member’s session stops on its next request; a role change applies at once', async () => {
    const editor = await team.add('editor');
    await setPassword(editor);
    const es = await signIn(editor.email);
    expect((await asSession(es, 'POST', '/v1/posts', { text: 'An editor’s draft.' })).status).toBe(201);
    await t.request('PATCH', `/v1/members/${editor.memberId}`, {
      key: team.owner.apiKey,
      body: { role: 'viewer' },
    });
    const demoted = await asSession(es, 'POST', '/v1/posts', { text: 'Another draft.' });
    expect(demoted.status).toBe(403);
    expect(demoted.body.error.role).toBe('editor');
    const removed = await t.request('DELETE', `/v1/members/${editor.memberId}`, { key: team.owner.apiKey });
    expect(removed.status, removed.text).toBe(200);
    const gone = await asSession(es, 'GET', '/v1/account');
    expect(gone.status).toBe(401);
    expect(gone.body.error.message).toContain('sign in again');
  });

  it('changing a password needs the current one and ends the member’s other sessions', async () => {
    const editor = await team.add('editor');
    await setPassword(editor);
    const first = await signIn(editor.email);
    const second = await signIn(editor.email);
    const missing = await asSession(second, 'PUT', '/v1/account/password', {
      password: 'a brand new passphrase',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toBe('currentPassword');
    const wrongCurrent = await asSession(second, 'PUT', '/v1/account/password', {
      password: 'a brand new passphrase',
      currentPassword: 'not it at all',
    });
    expect(wrongCurrent.status).toBe(400);
    const short = await asSession(second, 'PUT', '/v1/account/password', {
      password: 'short',
      currentPassword: PASSWORD,
    });
    expect(short.status).toBe(400);
    const changed = await asSession(second, 'PUT', '/v1/account/password', {
      password: 'a brand new passphrase',
      currentPassword: PASSWORD,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({ passwordSet: true, signedOut: 1 });
    expect((await asSession(first, 'GET', '/v1/account')).status).toBe(401);
    expect((await asSession(second, 'GET', '/v1/account')).status).toBe(200);
    expect(
      (await t.request('POST', '/v1/sessions', { body: { email: editor.email, password: PASSWORD } })).status,
    ).toBe(401);
    await signIn(editor.email, 'a brand new passphrase');
  });

  it('a key narrower than its member’s role cannot set a password (a session would act with the whole role)', async () => {
    const narrow = await t.request('POST', '/v1/keys', {
      key: team.owner.apiKey,
      body: { scopes: ['read'] },
    });
    const res = await t.request('PUT', '/v1/account/password', {
      key: narrow.body.apiKey,
      body: { password: 'widen me through a session' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
  });

  it('signs out: the cookie is cleared and the session stops', async () => {
    const mine = await signIn(team.owner.email);
    const noCsrf = await t.request('DELETE', '/v1/sessions', { headers: { cookie: mine.cookie } });
    expect(noCsrf.status).toBe(403);
    const out = await asSession(mine, 'DELETE', '/v1/sessions');
    expect(out.status, out.text).toBe(200);
    expect(out.body).toEqual({ deleted: true });
    expect(out.headers.get('set-cookie')).toMatch(/^postkit_session=; .*Max-Age=0/);
    expect((await asSession(mine, 'GET', '/v1/account')).status).toBe(401);
    // The owner's other session and keys are untouched.
    expect((await asSession(s, 'GET', '/v1/account')).status).toBe(200);
    expect((await t.request('GET', '/v1/account', { key: team.owner.apiKey })).status).toBe(200);
  });

  it('a key always wins over a cookie, and /mcp never takes the cookie', async () => {
    const viewer = await team.add('viewer');
    const both = await t.request('GET', '/v1/account', { key: viewer.apiKey, headers: { cookie: s.cookie } });
    expect(both.body.member.id).toBe(viewer.memberId);
    const mcp = await t.request('POST', '/mcp', {
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.status).toBe(401);
  });
});

describe('sessions across workspaces', () => {
  it('one email in two workspaces: 409 workspace_required naming both, then accountId chooses; another workspace’s posts stay 404', async () => {
    const a = await startTeam(t);
    const b = await startTeam(t);
    // The same person is a member of b too, with the same password.
    const also = await b.add('editor', a.owner.email);
    await setPassword(a.owner);
    await setPassword(also);
    const both = await t.request('POST', '/v1/sessions', {
      body: { email: a.owner.email, password: PASSWORD },
    });
    expect(both.status).toBe(409);
    expect(both.body.error.code).toBe('workspace_required');
    expect(both.body.error.workspaces.map((w: { accountId: string }) => w.accountId).sort()).toEqual(
      [a.accountId, b.accountId].sort(),
    );
    const inB = await signIn(a.owner.email, PASSWORD, b.accountId);
    expect(inB.body.member).toMatchObject({ id: also.memberId, role: 'editor' });
    const aPost = await t.request('POST', '/v1/posts', {
      key: a.owner.apiKey,
      body: { text: 'Only for a.' },
    });
    const read = await asSession(inB, 'GET', `/v1/posts/${aPost.body.post.id}`);
    expect(read.status).toBe(404);
    const edit = await asSession(inB, 'PATCH', `/v1/posts/${aPost.body.post.id}`, { text: 'Taken over' });
    expect(edit.status).toBe(404);
    // A workspace where the email is no member: as a wrong password.
    const c = await startTeam(t);
    const none = await t.request('POST', '/v1/sessions', {
      body: { email: a.owner.email, password: PASSWORD, accountId: c.accountId },
    });
    expect(none.status).toBe(401);
  });
});

describe('sign-in throttling', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_SIGNINS_PER_HOUR: '3' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('answers 429 with Retry-After past the hourly attempts, even for the right password', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (
          await limited.request('POST', '/v1/sessions', {
            body: { email: 'x@agency.example', password: `guess ${i}` },
          })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401]);
    const over = await limited.request('POST', '/v1/sessions', {
      body: { email: 'x@agency.example', password: PASSWORD },
    });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.body.error.message).toContain('sign-in');
  });
});
