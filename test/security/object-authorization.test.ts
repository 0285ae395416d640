import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleFile } from '../media/fixtures.ts';
import { fieldsOf, jsonBodySchema, type Operation, operations, setAt } from './openapi.ts';
import {
  hour,
  pendingOauthRequest,
  planItem,
  type SecurityWorld,
  startSecurityWorld,
  type Tenant,
} from './world.ts';

/**
 * OWASP API1 (broken object level authorization), generic over /v1/openapi.json: every
 * operation with an `{id}` is called by bob with alice's id and must answer exactly what an id
 * that exists nowhere gets (404 not_found), leak nothing of alice's, and change nothing of
 * hers; and every field that references another object refuses alice's ids when bob sends them.
 * A new `{id}` route or reference field without a fixture here fails the suite.
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

interface Call {
  id: string;
  body?: unknown;
  query?: string;
}

/** For every `{id}` operation: whose id to use (alice's, in the tests) and a body that validates. */
const ID_FIXTURES: Record<string, (o: Tenant) => Call> = {
  'POST /v1/keys/{id}/rotate': (o) => ({ id: o.secondKeyId }),
  'DELETE /v1/keys/{id}': (o) => ({ id: o.secondKeyId }),
  'GET /v1/webhooks/{id}': (o) => ({ id: o.webhookId }),
  'DELETE /v1/webhooks/{id}': (o) => ({ id: o.webhookId }),
  'GET /v1/webhooks/{id}/deliveries': (o) => ({ id: o.webhookId, query: '?limit=100' }),
  'GET /v1/posts/{id}/metrics': (o) => ({ id: o.publishedId }),
  'GET /v1/posts/{id}/metrics/history': (o) => ({ id: o.publishedId }),
  'GET /v1/posts/{id}/deliveries': (o) => ({ id: o.publishedId }),
  'POST /v1/posts/{id}/metrics/refresh': (o) => ({ id: o.publishedId }),
  'GET /v1/media/{id}': (o) => ({ id: o.mediaId }),
  'DELETE /v1/media/{id}': (o) => ({ id: o.mediaId }),
  'GET /v1/media/{id}/content': (o) => ({ id: o.mediaId }),
  'GET /v1/posts/{id}': (o) => ({ id: o.drafts.read }),
  'PATCH /v1/posts/{id}': (o) => ({ id: o.drafts.edit, body: { text: 'rewritten by someone else' } }),
  'DELETE /v1/posts/{id}': (o) => ({ id: o.drafts.remove }),
  'POST /v1/posts/{id}/publish': (o) => ({ id: o.drafts.publish }),
  'POST /v1/posts/{id}/schedule': (o) => ({ id: o.drafts.schedule, body: { runAt: Date.now() + hour } }),
  'POST /v1/posts/{id}/cancel': (o) => ({ id: o.drafts.cancel }),
  'POST /v1/posts/{id}/submit': (o) => ({ id: o.reviews.submit, body: {} }),
  'POST /v1/posts/{id}/approve': (o) => ({ id: o.reviews.approve, body: {} }),
  'POST /v1/posts/{id}/request-changes': (o) => ({
    id: o.reviews.changes,
    body: { note: 'Name the release.' },
  }),
  'POST /v1/posts/{id}/score': (o) => ({ id: o.publishedId }),
  'GET /v1/posts/{id}/scores': (o) => ({ id: o.publishedId }),
  'GET /v1/plans/{id}': (o) => ({ id: o.plans.read }),
  'DELETE /v1/plans/{id}': (o) => ({ id: o.plans.remove }),
  'POST /v1/plans/{id}/drafts': (o) => ({ id: o.plans.drafts, body: {} }),
  'GET /v1/channels/{id}': (o) => ({ id: o.channelId }),
  'DELETE /v1/channels/{id}': (o) => ({ id: o.channelId }),
  'POST /v1/channels/{id}/refresh': (o) => ({ id: o.channelId }),
  'GET /v1/brands/{id}': (o) => ({ id: o.brandId }),
  'PATCH /v1/brands/{id}': (o) => ({ id: o.brandId, body: { name: 'renamed by someone else' } }),
  'DELETE /v1/brands/{id}': (o) => ({ id: o.brandId }),
  'GET /v1/voices/{id}': (o) => ({ id: o.voiceId }),
  'PATCH /v1/voices/{id}': (o) => ({ id: o.voiceId, body: { name: 'renamed by someone else' } }),
  'DELETE /v1/voices/{id}': (o) => ({ id: o.voiceId }),
  'DELETE /v1/history/{id}': (o) => ({ id: o.historyId }),
  'POST /v1/webhooks/{id}/test': (o) => ({ id: o.webhookId }),
  'PATCH /v1/posts/{id}/scheduled': (o) => ({
    id: o.scheduledId,
    body: { text: 'rewritten by someone else' },
  }),
  'PUT /v1/channels/{id}/queue': (o) => ({
    id: o.channelId,
    body: { timezone: 'Europe/Paris', slots: [{ day: 2, time: '10:00' }] },
  }),
  'GET /v1/channels/{id}/queue': (o) => ({ id: o.channelId }),
  'DELETE /v1/channels/{id}/queue': (o) => ({ id: o.channelId }),
  'GET /v1/channels/{id}/queue/suggest': (o) => ({ id: o.channelId }),
  'GET /v1/series/{id}': (o) => ({ id: o.seriesId }),
  'DELETE /v1/series/{id}': (o) => ({ id: o.seriesId }),
  'GET /v1/post-groups/{id}': (o) => ({ id: o.groups.read }),
  'POST /v1/post-groups/{id}/cancel': (o) => ({ id: o.groups.cancel }),
  'POST /v1/post-groups/{id}/publish': (o) => ({ id: o.groups.publish }),
  'DELETE /v1/oauth/apps/{id}': (o) => ({ id: o.oauthAppId }),
  'PATCH /v1/members/{id}': (o) => ({ id: o.members.change, body: { role: 'viewer' } }),
  'DELETE /v1/members/{id}': (o) => ({ id: o.members.remove }),
  'POST /v1/members/{id}/keys': (o) => ({ id: o.members.issue, body: { name: 'issued by someone else' } }),
  'GET /v1/invitations/{id}': (o) => ({ id: o.invitationId }),
  'GET /v1/posts/{id}/comments': (o) => ({ id: o.drafts.read }),
  'POST /v1/posts/{id}/comments': (o) => ({
    id: o.drafts.read,
    body: { text: 'a comment from someone else' },
  }),
  'DELETE /v1/invitations/{id}': (o) => ({ id: o.invitationId }),
};

/**
 * `{id}` operations whose object belongs to no account yet: an OAuth consent request is made by
 * an unauthenticated browser redirect and is a one-shot, unguessable capability that whichever
 * signed-in account answers it binds to itself. There is no owner to check; what must hold
 * instead is checked below ("consent requests"): unknown ids are 404, answering binds the app
 * to the answerer only, and a request can be answered once.
 */
const CAPABILITY_IDS = [
  'GET /v1/oauth/requests/{id}',
  'POST /v1/oauth/requests/{id}/approve',
  'POST /v1/oauth/requests/{id}/deny',
];

const idOperations = () =>
  operations(s.doc).filter((o) => o.path.includes('{id}') && !CAPABILITY_IDS.includes(o.key));
const capabilityOperations = () => operations(s.doc).filter((o) => CAPABILITY_IDS.includes(o.key));
const pathOf = (o: Operation, id: string, query = '') => o.path.replace('{id}', id) + query;
/** An id of the same shape that no account has. */
const ghost = (id: string) => `${id.slice(0, 4)}${randomBytes(8).toString('hex')}`;
/** A response with everything request-specific taken out, to compare two refusals. */
const shapeOf = (res: { status: number; body: any }, ids: string[]) => {
  let text = JSON.stringify(res.body);
  for (const id of ids) text = text.replaceAll(id, '<id>');
  const body = JSON.parse(text);
  if (body?.error) delete body.error.requestId;
  return { status: res.status, body };
};

/** Everything alice can see of her own data, with fields that move by themselves taken out. */
async function everythingOf(o: Tenant) {
  const get = async (path: string) => {
    const res = await s.t.request('GET', path, { key: o.apiKey });
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.body;
  };
  const keys = (await get('/v1/keys')).keys.map(({ lastUsedAt: _, ...k }: any) => k);
  return {
    keys,
    webhooks: await get('/v1/webhooks'),
    deliveries: await get(`/v1/webhooks/${o.webhookId}/deliveries?limit=100`),
    posts: await get('/v1/posts?limit=100'),
    media: await get('/v1/media?limit=100'),
    channels: await get('/v1/channels'),
    brands: await get('/v1/brands'),
    voices: await get('/v1/voices'),
    metrics: await get(`/v1/posts/${o.publishedId}/metrics`),
    scores: await get(`/v1/posts/${o.publishedId}/scores`),
    calendar: await get('/v1/calendar'),
    history: await get('/v1/history?limit=100'),
    queue: await get(`/v1/channels/${o.channelId}/queue`),
    series: await get('/v1/series'),
    seriesDetail: await get(`/v1/series/${o.seriesId}`),
    plans: await get('/v1/plans?limit=100'),
    groups: await Promise.all(Object.values(o.groups).map((id) => get(`/v1/post-groups/${id}`))),
    apps: await get('/v1/oauth/apps'),
    members: await get('/v1/members'),
    invitations: await get('/v1/invitations'),
    comments: await get(`/v1/posts/${o.drafts.read}/comments`),
    platformPosts: s.w.sandbox.platformA.state.listPosts({ includeDeleted: true }).length,
  };
}

describe('every {id} operation', () => {
  it('has a fixture (coverage cannot shrink silently)', () => {
    const ops = idOperations().map((o) => o.key);
    expect(ops.length).toBeGreaterThanOrEqual(37);
    expect(ops.filter((k) => !(k in ID_FIXTURES))).toEqual([]);
    expect(Object.keys(ID_FIXTURES).filter((k) => !ops.includes(k))).toEqual([]);
    // The exemptions are exactly the documented consent-request operations, no more.
    expect(capabilityOperations().map((o) => o.key)).toEqual(CAPABILITY_IDS);
  });

  it("answers 404 not_found to another account's id, exactly as to an id nobody has, and changes nothing", async () => {
    const { a, b } = s;
    const before = await everythingOf(a);
    for (const o of idOperations()) {
      const call = ID_FIXTURES[o.key]!(a);
      const theirs = await s.t.request(o.method, pathOf(o, call.id, call.query), {
        key: b.apiKey,
        body: call.body,
      });
      expect(theirs.status, `${o.key}: ${theirs.text}`).toBe(404);
      expect(theirs.body.error.code, o.key).toBe('not_found');
      expect(s.leaksOf(a, theirs.text), o.key).toEqual([]);
      const nobodys = ghost(call.id);
      const none = await s.t.request(o.method, pathOf(o, nobodys, call.query), {
        key: b.apiKey,
        body: call.body,
      });
      expect(shapeOf(theirs, [call.id]), o.key).toEqual(shapeOf(none, [nobodys]));
    }
    expect(await everythingOf(a)).toEqual(before);
  });
});

describe('consent requests (ids that belong to no account until answered)', () => {
  /** Same prefix and length as a real request id, but no request has it. */
  const unknownLike = (id: string) => `${id.slice(0, -10)}${randomBytes(5).toString('hex')}`;

  it('answer 404 not_found to an id nobody issued, exactly as to one already answered', async () => {
    const { b } = s;
    for (const o of capabilityOperations()) {
      const answered = await pendingOauthRequest(s.t);
      const first = await s.t.request('POST', `/v1/oauth/requests/${answered}/deny`, { key: b.apiKey });
      expect(first.status, first.text).toBe(200);
      const body = o.method === 'POST' ? {} : undefined;
      const gone = await s.t.request(o.method, pathOf(o, answered), { key: b.apiKey, body });
      expect(gone.status, `${o.key}: ${gone.text}`).toBe(404);
      expect(gone.body.error.code, o.key).toBe('not_found');
      const nobodys = unknownLike(answered);
      const none = await s.t.request(o.method, pathOf(o, nobodys), { key: b.apiKey, body });
      expect(none.status, `${o.key}: ${none.text}`).toBe(404);
      expect(none.body.error.code, o.key).toBe('not_found');
    }
  });

  it('bind the app to the account that approves, never to another, and only once', async () => {
    const { a, b } = s;
    const aliceApps = (await s.t.request('GET', '/v1/oauth/apps', { key: a.apiKey })).body;
    const id = await pendingOauthRequest(s.t);
    const view = await s.t.request('GET', `/v1/oauth/requests/${id}`, { key: b.apiKey });
    expect(view.status, view.text).toBe(200);
    const clientId = view.body.request.client.id as string;
    const approved = await s.t.request('POST', `/v1/oauth/requests/${id}/approve`, {
      key: b.apiKey,
      body: {},
    });
    expect(approved.status, approved.text).toBe(200);
    // Alice cannot take over or cancel bob's answer.
    for (const action of ['approve', 'deny']) {
      const late = await s.t.request('POST', `/v1/oauth/requests/${id}/${action}`, {
        key: a.apiKey,
        body: {},
      });
      expect(late.status, `${action}: ${late.text}`).toBe(404);
    }
    const bobApps = (await s.t.request('GET', '/v1/oauth/apps', { key: b.apiKey })).body.apps;
    expect(bobApps.map((x: { clientId: string }) => x.clientId)).toContain(clientId);
    expect((await s.t.request('GET', '/v1/oauth/apps', { key: a.apiKey })).body).toEqual(aliceApps);
    // Bob's app is his: alice cannot revoke it.
    const revoke = await s.t.request('DELETE', `/v1/oauth/apps/${clientId}`, { key: a.apiKey });
    expect(revoke.status, revoke.text).toBe(404);
    expect(s.leaksOf(b, revoke.text)).toEqual([]);
  });
});

/** How bob builds a request that succeeds with his own ids, for each operation with reference fields. */
interface RefCase {
  path: (b: Tenant) => string;
  body?: (b: Tenant) => Record<string, any>;
  /** Raw upload instead of JSON. */
  raw?: boolean;
}

const future = () => Date.now() + 2 * hour;

const REF_CASES: Record<string, RefCase> = {
  'POST /v1/media': { path: () => '/v1/media', raw: true },
  'POST /v1/posts': {
    path: () => '/v1/posts',
    body: (b) => ({ text: 'reference check', channelId: b.channelId }),
  },
  'POST /v1/posts/bulk-schedule': {
    path: () => '/v1/posts/bulk-schedule',
    body: (b) => ({ items: [{ text: 'reference check', runAt: future(), channelId: b.channelId }] }),
  },
  'PATCH /v1/posts/{id}': {
    path: (b) => `/v1/posts/${b.drafts.read}`,
    body: () => ({ text: 'reference check' }),
  },
  'POST /v1/channels/platformA/connect': { path: () => '/v1/channels/platformA/connect', body: () => ({}) },
  'POST /v1/channels/platformB/connect': { path: () => '/v1/channels/platformB/connect', body: () => ({}) },
  'POST /v1/generate': { path: () => '/v1/generate', body: () => ({ brief: 'A launch post about our API' }) },
  'POST /v1/plan': { path: () => '/v1/plan', body: () => ({ brief: 'A week about our API', count: 2 }) },
  'POST /v1/plans': {
    path: () => '/v1/plans',
    body: (b) => ({ brief: 'reference check', channelId: b.channelId, items: [planItem('reference check')] }),
  },
  'POST /v1/plans/{id}/drafts': { path: (b) => `/v1/plans/${b.plans.drafts}/drafts`, body: () => ({}) },
  'POST /v1/voices': { path: () => '/v1/voices', body: () => ({ name: 'reference check' }) },
  'POST /v1/voices/build': {
    path: () => '/v1/voices/build',
    body: () => ({
      name: 'reference check',
      samples: ['We shipped a thing today. Here is what we learned.'],
    }),
  },
  'PATCH /v1/voices/{id}': {
    path: (b) => `/v1/voices/${b.voiceId}`,
    body: () => ({ name: 'reference check' }),
  },
  'POST /v1/posts/validate': { path: () => '/v1/posts/validate', body: () => ({ post: 'reference check' }) },
  'PATCH /v1/posts/{id}/scheduled': {
    path: (b) => `/v1/posts/${b.scheduledId}/scheduled`,
    body: () => ({ text: 'reference check' }),
  },
  'POST /v1/post-groups': {
    path: () => '/v1/post-groups',
    body: (b) => ({ variants: [{ text: 'reference check', channelId: b.channelId }] }),
  },
};

const REFERENCE = /^(brand|voice|channel|media|post|webhook|key)Ids?$/;
const kindOfField = (name: string): keyof Pick<Tenant, 'brandId' | 'voiceId' | 'channelId' | 'mediaId'> => {
  const kind = name.replace(/Ids?$/, '');
  if (kind === 'brand' || kind === 'voice' || kind === 'channel' || kind === 'media') return `${kind}Id`;
  throw new Error(`no fixture for references to ${kind}`);
};

/** Every (operation, field) that names another object, from the request bodies and query strings. */
function referenceFields(): { op: Operation; field: string; leaf: string }[] {
  const out: { op: Operation; field: string; leaf: string }[] = [];
  for (const op of operations(s.doc)) {
    const body = jsonBodySchema(s.doc, op);
    for (const f of body ? fieldsOf(s.doc, body) : []) {
      const leaf = f.path.split('.').pop()!.replace('[]', '');
      // An array of ids is checked through its elements.
      if (REFERENCE.test(leaf) && f.kind === 'string') out.push({ op, field: f.path, leaf });
    }
    for (const p of op.op.parameters ?? []) {
      if (p.in === 'query' && REFERENCE.test(p.name))
        out.push({ op, field: `query.${p.name}`, leaf: p.name });
    }
  }
  return out;
}

describe('reference fields', () => {
  it('every one is covered by a case', () => {
    const refs = referenceFields();
    expect(refs.length).toBeGreaterThanOrEqual(19);
    expect([...new Set(refs.map((r) => r.op.key))].filter((k) => !(k in REF_CASES))).toEqual([]);
  });

  it("refuse another account's ids exactly like ids nobody has, and accept the caller's own", async () => {
    const { a, b } = s;
    for (const { op, field, leaf } of referenceFields()) {
      const kind = kindOfField(leaf);
      const c = REF_CASES[op.key]!;
      const send = (id: string) => {
        if (c.raw) {
          const query = field.startsWith('query.') ? `?${field.slice(6)}=${id}` : '';
          return s.t.request(op.method, `${c.path(b)}${query}`, {
            key: b.apiKey,
            raw: sampleFile.png(512),
            headers: { 'content-type': 'image/png' },
          });
        }
        const body = c.body!(b);
        // Array-of-id fields inside items reuse the item bob's case starts from.
        setAt(body, field, id, () => ({ ...body.items?.[0] }));
        return s.t.request(op.method, c.path(b), { key: b.apiKey, body });
      };
      const label = `${op.key} ${field}`;
      const own = await send(b[kind]);
      expect(own.status, `${label} with bob's own id: ${own.text}`).toBeLessThan(300);
      expect(own.body?.valid ?? true, `${label}: ${own.text}`).toBe(true);

      const theirs = await send(a[kind]);
      // The id bob sent may be echoed back to him (validate names it); nothing else of alice's may.
      expect(
        s.leaksOf(a, theirs.text).filter((x) => x !== a[kind]),
        label,
      ).toEqual([]);
      if (theirs.status < 300) {
        // A report rather than a refusal (validate): it must say the reference is not usable.
        expect(theirs.body.valid, `${label}: ${theirs.text}`).toBe(false);
      } else {
        expect([400, 404], `${label}: ${theirs.text}`).toContain(theirs.status);
      }
      const nobodys = ghost(a[kind]);
      const none = await send(nobodys);
      expect(shapeOf(theirs, [a[kind]]), label).toEqual(shapeOf(none, [nobodys]));
    }
  });

  it('ignores an accountId (or account_id) in any query string', async () => {
    const { a, b } = s;
    const lists = operations(s.doc).filter((o) => o.method === 'GET' && !/[{]|callback|^\/mcp$/.test(o.path));
    for (const o of lists) {
      const res = await s.t.request('GET', `${o.path}?accountId=${a.accountId}&account_id=${a.accountId}`, {
        key: b.apiKey,
      });
      expect(res.status, `${o.key}: ${res.text}`).toBeLessThan(300);
      expect(s.leaksOf(a, res.text), o.key).toEqual([]);
    }
  });
});

describe('agent tools (MCP) reach objects through the same checks', () => {
  let rpcId = 0;
  const callTool = async (key: string, name: string, args: Record<string, unknown>) => {
    const res = await s.t.request('POST', '/mcp', {
      key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.result as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
  };
  const errorOf = (result: { isError?: boolean; content: { text: string }[] }) => {
    expect(result.isError).toBe(true);
    return JSON.parse(result.content[1]!.text).error as { code: string };
  };

  /** Bob's arguments for each tool, with `{ref}` where an id of the field's kind goes. */
  const TOOL_CASES: Record<string, (b: Tenant) => Record<string, unknown>> = {
    create_post: (b) => ({ text: 'tool reference check', channelId: b.channelId }),
    schedule_post: (b) => ({ id: b.drafts.schedule, runAt: future() }),
    cancel_post: (b) => ({ id: b.drafts.cancel }),
    get_post: (b) => ({ id: b.drafts.read }),
    get_metrics_history: (b) => ({ id: b.publishedId }),
    generate_post: () => ({ brief: 'A launch post about our API' }),
    plan_week: () => ({ brief: 'A week about our API', count: 2 }),
    build_voice: () => ({ name: 'tool reference check', samples: ['We shipped a thing today.'] }),
    set_queue: (b) => ({ channelId: b.channelId, timezone: 'UTC', slots: [{ day: 3, time: '12:00' }] }),
    get_queue: (b) => ({ channelId: b.channelId }),
    suggest_queue: (b) => ({ channelId: b.channelId }),
    clear_queue: (b) => ({ channelId: b.channelId }),
    queue_post: (b) => ({ text: 'tool reference check', channelId: b.channelId }),
    schedule_series: (b) => ({
      text: 'tool reference check',
      channelId: b.channelId,
      runAt: future(),
      repeat: { every: { unit: 'week', n: 1 }, count: 2 },
    }),
    get_series: (b) => ({ id: b.seriesId }),
    cancel_series: (b) => ({ id: b.seriesId }),
    create_post_group: (b) => ({ variants: [{ text: 'tool reference check', channelId: b.channelId }] }),
    get_post_group: (b) => ({ id: b.groups.read }),
    cancel_post_group: (b) => ({ id: b.groups.cancel }),
    publish_post_group: (b) => ({ id: b.groups.publish }),
    submit_post: (b) => ({ id: b.reviews.submit }),
    approve_post: (b) => ({ id: b.reviews.approve }),
    request_post_changes: (b) => ({ id: b.reviews.changes, note: 'Name the release.' }),
    save_plan: (b) => ({ brief: 'tool reference check', channelId: b.channelId, items: [planItem('tool')] }),
    get_plan: (b) => ({ id: b.plans.read }),
    delete_plan: (b) => ({ id: b.plans.remove }),
    plan_to_drafts: (b) => ({ id: b.plans.drafts }),
  };
  /** Tools whose `id` names something other than a post: alice's id of that kind. */
  const ID_OF: Record<string, (a: Tenant) => string> = {
    get_series: (a) => a.seriesId,
    cancel_series: (a) => a.seriesId,
    get_post_group: (a) => a.groups.read,
    cancel_post_group: (a) => a.groups.cancel,
    publish_post_group: (a) => a.groups.publish,
    get_plan: (a) => a.plans.read,
    delete_plan: (a) => a.plans.remove,
    plan_to_drafts: (a) => a.plans.drafts,
  };

  it("refuse another account's ids in every id argument of every tool", async () => {
    const { a, b } = s;
    const list = await s.t.request('GET', '/mcp/tools/list', { key: b.apiKey });
    const idArgs: { tool: string; arg: string }[] = [];
    for (const tool of list.body.tools) {
      for (const arg of Object.keys(tool.inputSchema.properties ?? {})) {
        if (arg === 'id' || REFERENCE.test(arg)) idArgs.push({ tool: tool.name, arg });
      }
    }
    expect(idArgs.length).toBeGreaterThanOrEqual(9);
    expect([...new Set(idArgs.map((x) => x.tool))].filter((n) => !(n in TOOL_CASES))).toEqual([]);
    for (const { tool, arg } of idArgs) {
      const args = TOOL_CASES[tool]!(b);
      const aliceId = arg === 'id' ? (ID_OF[tool]?.(a) ?? a.drafts.read) : a[kindOfField(arg)];
      const value = arg.endsWith('Ids') ? [aliceId] : aliceId;
      const result = await callTool(b.apiKey, tool, { ...args, [arg]: value });
      const code = errorOf(result).code;
      expect(['not_found', 'invalid_request'], `${tool}.${arg}`).toContain(code);
      expect(s.leaksOf(a, JSON.stringify(result)), `${tool}.${arg}`).toEqual([]);
    }
  });
});

// Last: these calls delete the owner's objects, which the checks above still need.
describe('the owner', () => {
  it('succeeds with the same fixtures, so the 404s above are about ownership', async () => {
    const { a } = s;
    // Deletions last, so every other operation still finds its object.
    // The channel goes very last: its queue operations need it.
    const rank = (o: Operation) => (o.key === 'DELETE /v1/channels/{id}' ? 2 : Number(o.method === 'DELETE'));
    const ordered = [...idOperations()].sort((x, y) => rank(x) - rank(y));
    for (const o of ordered) {
      const call = ID_FIXTURES[o.key]!(a);
      const res = await s.t.request(o.method, pathOf(o, call.id, call.query), {
        key: a.apiKey,
        body: call.body,
      });
      expect(res.status, `${o.key}: ${res.text}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${o.key}: ${res.text}`).toBeLessThan(300);
    }
    // Consent requests are one-shot: each operation gets its own.
    for (const o of capabilityOperations()) {
      const id = await pendingOauthRequest(s.t);
      const res = await s.t.request(o.method, pathOf(o, id), {
        key: a.apiKey,
        body: o.method === 'POST' ? {} : undefined,
      });
      expect(res.status, `${o.key}: ${res.text}`).toBe(200);
    }
  });
});
