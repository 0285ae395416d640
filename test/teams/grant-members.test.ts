import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testClock } from '../channels/helpers.ts';
import { backend, startTestApp, type TestApp } from '../helpers/app.ts';
import { type ServiceProcess, spawnService } from '../helpers/processes.ts';
import { callErr, callOk } from '../mcp/helpers.ts';
import { connectApp, mcpClientWithToken, token } from '../mcp/oauth-helpers.ts';
import { startTeam } from './team-world.ts';

/*
 * Issue 35 item 8: an OAuth grant acts with the role of the member who approved it, as that
 * role is now. Demoting the member narrows the grant on its next request; removing the member
 * ends it (the grant goes with the member) on the next request in every API process, since an
 * access token is read from the database at each use. With PostgreSQL a second API process
 * serves the same resource, and both are checked.
 */
let t: TestApp;
let other: ServiceProcess | undefined;
beforeAll(async () => {
  t = await startTestApp();
  if (backend === 'postgres')
    other = await spawnService('api', {
      DATABASE_URL: t.config.DATABASE_URL,
      REDIS_URL: t.config.REDIS_URL,
      // Tokens are bound to the resource's address: the other process serves the same one.
      PUBLIC_BASE_URL: t.url,
      RATE_LIMIT_REQUESTS_PER_MIN: '100000',
    });
});
afterAll(async () => {
  await other?.kill();
  await t?.close();
});

/** Every API process of the run: this one, and the spawned one with PostgreSQL. */
const processes = () => [t.url, ...(other?.url ? [other.url] : [])];

describe('OAuth grants follow their member', () => {
  it('a demoted member’s grant acts with the new role at once; a removed member’s gets 401 everywhere', async () => {
    const team = await startTeam(t);
    const leaving = await team.add('editor');
    const demoted = await team.add('editor');
    const leavingGrant = await connectApp(t, leaving.apiKey);
    const demotedGrant = await connectApp(t, demoted.apiKey);
    expect(demotedGrant.scope).toBe('read write publish');
    const clients = async (accessToken: string) =>
      Promise.all(processes().map((url) => mcpClientWithToken(url, accessToken)));
    const demotedAgents = await clients(demotedGrant.access_token);
    const leavingAgents = await clients(leavingGrant.access_token);
    for (const agent of [...demotedAgents, ...leavingAgents])
      await callOk(agent, 'create_post', { text: 'A draft from an agent' });

    const demote = await t.request('PATCH', `/v1/members/${demoted.memberId}`, {
      key: team.owner.apiKey,
      body: { role: 'viewer' },
    });
    expect(demote.status, demote.text).toBe(200);
    for (const agent of demotedAgents) {
      const refused = await callErr(agent, 'create_post', { text: 'Not any more' });
      expect(refused.error).toMatchObject({ code: 'forbidden', role: 'editor' });
      expect(refused.error.message).toContain('you are a viewer');
      // Reading is what a viewer may do, and the grant still reads.
      expect((await callOk(agent, 'list_posts')).data.posts.length).toBeGreaterThan(0);
    }

    const removed = await t.request('DELETE', `/v1/members/${leaving.memberId}`, { key: team.owner.apiKey });
    expect(removed.status, removed.text).toBe(200);
    for (const url of processes()) {
      const res = await fetch(`${url}/mcp/tools/list`, {
        headers: { authorization: `Bearer ${leavingGrant.access_token}` },
      });
      expect(res.status, `${url}: ${await res.text()}`).toBe(401);
    }
    // The official client's next call fails too (its refresh token died with the grant).
    for (const agent of leavingAgents)
      await expect(agent.callTool({ name: 'list_posts', arguments: {} })).rejects.toThrow(
        /401|unauthorized/i,
      );
    const refreshed = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: leavingGrant.refresh_token,
      client_id: leavingGrant.clientId,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
    const apps = await t.request('GET', '/v1/oauth/apps', { key: team.owner.apiKey });
    expect(apps.body.apps.map((a: { clientId: string }) => a.clientId)).toEqual([demotedGrant.clientId]);
    for (const agent of [...demotedAgents, ...leavingAgents]) await agent.close();
  }, 120_000);

  it('an agent’s calls count as its member’s activity', async () => {
    const clock = testClock();
    const app = await startTestApp({}, { clock });
    try {
      const team = await startTeam(app);
      const writer = await team.add('editor');
      const grant = await connectApp(app, writer.apiKey);
      // Later, the member works only through the agent.
      clock.advance(5 * 60_000);
      const agentAt = clock.now();
      const agent = await mcpClientWithToken(app.url, grant.access_token);
      await callOk(agent, 'list_posts');
      await agent.close();
      const activity = async () => {
        const res = await app.request('GET', '/v1/members', { key: team.owner.apiKey });
        return res.body.members.find((m: { id: string }) => m.id === writer.memberId).lastActiveAt as number;
      };
      // The write is not awaited by the request: wait for it.
      await vi.waitFor(async () => expect(await activity()).toBeGreaterThanOrEqual(agentAt), {
        timeout: 15_000,
        interval: 100,
      });
    } finally {
      await app.close();
    }
  }, 60_000);
});
