import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role, roleNeeded, roleReaches } from '../../src/domain/roles.ts';
import type { RouteAccess } from '../../src/http/route-config.ts';
import { TOOLS } from '../../src/mcp/catalog.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { connectClient } from '../mcp/helpers.ts';
import { connectApp, mcpClientWithToken } from '../mcp/oauth-helpers.ts';
import { startTeam, type Team, type TeamMember } from './team-world.ts';

/**
 * Every protected route and every MCP tool, called by a member of each role: below the role
 * the route declares (the auth hook's table, `app.routeAccess`) the answer is 403 forbidden
 * naming that role; at or above it, anything but that refusal. The cases come from the table,
 * so a new route is in the matrix without being listed here.
 */
let t: TestApp;
let team: Team;
const keys = {} as Record<Role, TeamMember>;
let routes: RouteAccess[];

beforeAll(async () => {
  t = await startTestApp();
  team = await startTeam(t);
  keys.owner = team.owner;
  for (const role of ['admin', 'editor', 'viewer'] as const) keys[role] = await team.add(role);
  routes = t.service.app!.routeAccess.filter((r) => r.method !== 'HEAD');
});
afterAll(async () => {
  await t?.close();
});

/** A path with made-up ids: the role is checked before anything reads them. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'none_00000000000000000000');

/** Routes the table must hold, with the role the issue gives them: the table cannot drift from the issue silently. */
const STATED: Record<string, Role> = {
  'GET /v1/members': 'viewer',
  'PATCH /v1/members/:id': 'admin',
  'DELETE /v1/members/:id': 'admin',
  'POST /v1/members/:id/keys': 'admin',
  'POST /v1/webhooks': 'admin',
  'DELETE /v1/webhooks/:id': 'admin',
  'POST /v1/channels/platformA/connect': 'admin',
  'DELETE /v1/channels/:id': 'admin',
  'POST /v1/posts': 'editor',
  'GET /v1/posts': 'viewer',
  'POST /v1/posts/:id/submit': 'editor',
  'POST /v1/posts/:id/approve': 'admin',
  'POST /v1/posts/:id/request-changes': 'admin',
  'PATCH /v1/account/settings': 'admin',
  'GET /v1/audit': 'admin',
  'DELETE /v1/sessions': 'viewer',
  'PUT /v1/account/password': 'viewer',
  'GET /v1/plans': 'viewer',
  'GET /v1/plans/:id': 'viewer',
  'POST /v1/plans': 'editor',
  'DELETE /v1/plans/:id': 'editor',
};

describe('the role matrix', () => {
  it('the table holds every protected route once, with the roles the issue states', () => {
    const seen = routes.map((r) => `${r.method} ${r.url}`);
    expect(new Set(seen).size).toBe(seen.length);
    expect(routes.length).toBeGreaterThan(60);
    for (const [route, role] of Object.entries(STATED))
      expect(routes.find((r) => `${r.method} ${r.url}` === route)?.role, route).toBe(role);
  });

  it('every REST route answers each role as its declared role says', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const role of ROLES) {
        const body = ['POST', 'PATCH', 'PUT'].includes(route.method) ? {} : undefined;
        const res = await t.request(route.method, concrete(route.url), { key: keys[role].apiKey, body });
        const refused = res.status === 403 && res.body?.error?.code === 'forbidden';
        const want = !roleReaches(role, route.role);
        if (refused !== want || (refused && res.body.error.role !== route.role))
          failures.push(`${route.method} ${route.url} as ${role}: ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it.each([
    ['an API key', (role: Role) => connectClient(t.url, keys[role].apiKey)],
    [
      'an OAuth grant the member approved',
      async (role: Role) => {
        // A member grants what its own key holds: a viewer's grant reads, the others' hold all.
        const grant = await connectApp(t, keys[role].apiKey, role === 'viewer' ? { scope: 'read' } : {});
        return mcpClientWithToken(t.url, grant.access_token);
      },
    ],
  ])(
    'every MCP tool answers each role through %s as its declared role says',
    async (_, connect) => {
      const failures: string[] = [];
      for (const role of ROLES) {
        const client = await connect(role);
        for (const tool of TOOLS) {
          const needed = roleNeeded(tool.scope, tool.role);
          const result = await client.callTool({ name: tool.name, arguments: {} });
          const text = (result.content as { text: string }[])[0]?.text ?? '';
          const refused = result.isError === true && text.startsWith('forbidden');
          if (refused !== !roleReaches(role, needed))
            failures.push(`${tool.name} as ${role}: ${text.slice(0, 160)}`);
          if (refused) expect(text, tool.name).toContain(`needs the ${needed} role`);
        }
        await client.close();
      }
      expect(failures).toEqual([]);
    },
    300_000,
  );
});
