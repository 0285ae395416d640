import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { connectApp, mcpStatus, newClient } from '../mcp/oauth-helpers.ts';
import { startTeam, type Team, type TeamMember } from './team-world.ts';

/*
 * Connected apps in a team: a member who is not an admin sees and disconnects only the apps it
 * connected itself; an owner or admin sees every member's and disconnects them (an owner's
 * only by an owner, as with keys). Another workspace sees none of it and gets 404.
 */
let t: TestApp;
let team: Team;
let admin: TeamMember;
let writer: TeamMember;
let colleague: TeamMember;
let viewer: TeamMember;
beforeAll(async () => {
  t = await startTestApp();
  team = await startTeam(t);
  admin = await team.add('admin');
  writer = await team.add('editor');
  colleague = await team.add('editor');
  viewer = await team.add('viewer');
});
afterAll(async () => {
  await t?.close();
});

const apps = async (m: TeamMember) => {
  const res = await t.request('GET', '/v1/oauth/apps', { key: m.apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body.apps as { clientId: string; connectedBy: { memberId: string; email: string }[] }[];
};
/** Each app the member sees, with the members it says connected it. */
const seen = async (m: TeamMember) =>
  Object.fromEntries(
    (await apps(m)).map((app) => [app.clientId, app.connectedBy.map((by) => by.memberId).sort()]),
  );
const disconnect = (m: TeamMember, clientId: string) =>
  t.request('DELETE', `/v1/oauth/apps/${clientId}`, { key: m.apiKey });

describe('connected apps in a team', () => {
  it('a member sees and disconnects only its own; owner and admin see and disconnect every member’s', async () => {
    // One agent both editors connected, one only the colleague did, one the owner, one the viewer.
    const shared = await newClient(t, 'Shared Agent');
    const writerShared = await connectApp(t, writer.apiKey, { clientId: shared });
    const colleagueShared = await connectApp(t, colleague.apiKey, { clientId: shared });
    const colleagueOwn = await connectApp(t, colleague.apiKey);
    const ownerOwn = await connectApp(t, team.owner.apiKey);
    const viewerOwn = await connectApp(t, viewer.apiKey, { scope: 'read' });

    expect(await seen(writer)).toEqual({ [shared]: [writer.memberId] });
    expect(await seen(colleague)).toEqual({
      [shared]: [colleague.memberId],
      [colleagueOwn.clientId]: [colleague.memberId],
    });
    expect(await seen(viewer)).toEqual({ [viewerOwn.clientId]: [viewer.memberId] });
    const everyone = {
      [shared]: [writer.memberId, colleague.memberId].sort(),
      [colleagueOwn.clientId]: [colleague.memberId],
      [ownerOwn.clientId]: [team.owner.memberId],
      [viewerOwn.clientId]: [viewer.memberId],
    };
    expect(await seen(admin)).toEqual(everyone);
    expect(await seen(team.owner)).toEqual(everyone);
    const [listed] = (await apps(admin)).filter((app) => app.clientId === ownerOwn.clientId);
    expect(listed!.connectedBy[0]!.email).toBe(team.owner.email);

    // Another member's app is not there for the writer: 404, and it keeps working.
    const notMine = await disconnect(writer, colleagueOwn.clientId);
    expect(notMine.status, notMine.text).toBe(404);
    expect(notMine.body.error.code).toBe('not_found');
    expect(await mcpStatus(t, colleagueOwn.access_token)).toBe(200);

    // The writer's disconnect of the shared agent ends the writer's sign-in only.
    expect((await disconnect(writer, shared)).status).toBe(200);
    expect(await mcpStatus(t, writerShared.access_token)).toBe(401);
    expect(await mcpStatus(t, colleagueShared.access_token)).toBe(200);
    expect(await seen(writer)).toEqual({});
    expect((await seen(admin))[shared]).toEqual([colleague.memberId]);

    // A viewer changes nothing, its own connections included (it reads only; the agent can
    // still end its own sign-in with /oauth/revoke).
    const refused = await disconnect(viewer, viewerOwn.clientId);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden', role: 'editor' });
    expect(await mcpStatus(t, viewerOwn.access_token)).toBe(200);

    // An admin ends other members' connections, but not an owner's.
    expect((await disconnect(admin, shared)).status).toBe(200);
    expect(await mcpStatus(t, colleagueShared.access_token)).toBe(401);
    const ownersApp = await disconnect(admin, ownerOwn.clientId);
    expect(ownersApp.status, ownersApp.text).toBe(403);
    expect(ownersApp.body.error).toMatchObject({ code: 'forbidden', role: 'owner' });
    expect(await mcpStatus(t, ownerOwn.access_token)).toBe(200);
    expect((await disconnect(team.owner, ownerOwn.clientId)).status).toBe(200);
    expect(await mcpStatus(t, ownerOwn.access_token)).toBe(401);
    expect((await disconnect(team.owner, viewerOwn.clientId)).status).toBe(200);
    expect(await mcpStatus(t, viewerOwn.access_token)).toBe(401);
    expect(await seen(team.owner)).toEqual({ [colleagueOwn.clientId]: [colleague.memberId] });
  });

  it('another workspace sees none of the apps, and disconnecting one is 404', async () => {
    const mine = await connectApp(t, writer.apiKey);
    const otherTeam = await startTeam(t);
    expect(await apps(otherTeam.owner)).toEqual([]);
    const res = await disconnect(otherTeam.owner, mine.clientId);
    expect(res.status, res.text).toBe(404);
    expect(await mcpStatus(t, mine.access_token)).toBe(200);
  });
});
