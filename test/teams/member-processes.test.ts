import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProcessWorld, SERVERS, startProcessWorld } from '../hardening/process-world.ts';
import { startTeam } from './team-world.ts';

/**
 * Removing a member in one API process stops its keys and console sessions in every other at once: each process
 * caches keys it has seen, and the removal's broadcast (Redis) evicts them. The caches here
 * live ten minutes, so only the broadcast can make the second process answer 401; sessions are read from the
 * database on every request, so their rows' deletion does it.
 */
let w: ProcessWorld;
beforeAll(async () => {
  if (SERVERS) w = await startProcessWorld({ childEnv: { AUTH_CACHE_TTL_MS: '600000' } });
});
afterAll(async () => {
  await w?.close();
});

describe.runIf(SERVERS)('a removed member across processes', () => {
  it('gets 401 on its next request in both processes, and a demoted one acts with its new role', async () => {
    const [a, b] = await Promise.all([w.spawn('api'), w.spawn('api')]);
    const team = await startTeam(w.t);
    const editor = await team.add('editor');
    const demoted = await team.add('editor');
    // Each process now holds both keys in its cache.
    for (const p of [a, b])
      for (const m of [editor, demoted])
        for (let i = 0; i < 2; i++)
          expect((await p.request('GET', '/v1/account', { key: m.apiKey })).status).toBe(200);
    // The editor is also signed in to the console, through process a; the cookie works in both.
    const password = 'the editor’s console password';
    expect(
      (await a.request('PUT', '/v1/account/password', { key: editor.apiKey, body: { password } })).status,
    ).toBe(200);
    const signedIn = await a.request('POST', '/v1/sessions', { body: { email: editor.email, password } });
    expect(signedIn.status, signedIn.text).toBe(201);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    for (const p of [a, b])
      expect((await p.request('GET', '/v1/account', { headers: { cookie } })).status).toBe(200);

    expect(
      (
        await a.request('PATCH', `/v1/members/${demoted.memberId}`, {
          key: team.owner.apiKey,
          body: { role: 'viewer' },
        })
      ).status,
    ).toBe(200);
    const removed = await a.request('DELETE', `/v1/members/${editor.memberId}`, { key: team.owner.apiKey });
    expect(removed.status, removed.text).toBe(200);

    for (const p of [a, b]) {
      const gone = await p.request('GET', '/v1/account', { key: editor.apiKey });
      expect(gone.status, `${p.pid}: ${gone.text}`).toBe(401);
      const session = await p.request('GET', '/v1/account', { headers: { cookie } });
      expect(session.status, `${p.pid}: ${session.text}`).toBe(401);
      const draft = await p.request('POST', '/v1/posts', { key: demoted.apiKey, body: { text: 'A draft' } });
      expect(draft.status, `${p.pid}: ${draft.text}`).toBe(403);
      expect(draft.body.error).toMatchObject({ code: 'forbidden', role: 'editor' });
    }
  }, 120_000);
});
