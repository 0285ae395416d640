import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { CONTRACT_TOOLS, callErr, callOk, connectClient, EXTENSION_TOOLS, rpc } from './helpers.ts';

let t: TestApp;
let apiKey: string;
beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey } = await t.signup());
});
afterAll(async () => {
  await t?.close();
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('authentication', () => {
  it('POST /mcp without a key, with a malformed key or with a revoked key is 401 with the error shape', async () => {
    const missing = await rpc(t.url, initialize);
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('unauthorized');
    expect(missing.body.error.requestId).toMatch(/\S/);

    const malformed = await rpc(t.url, initialize, { authorization: 'Bearer not-a-key' });
    expect(malformed.status).toBe(401);
    expect(malformed.body.error.code).toBe('unauthorized');

    const extra = await t.request('POST', '/v1/keys', { key: apiKey, body: { name: 'to revoke' } });
    expect(extra.status).toBe(201);
    expect((await rpc(t.url, initialize, { authorization: `Bearer ${extra.body.apiKey}` })).status).toBe(200);
    expect((await t.request('DELETE', `/v1/keys/${extra.body.key.id}`, { key: apiKey })).status).toBe(200);
    const revoked = await rpc(t.url, initialize, { authorization: `Bearer ${extra.body.apiKey}` });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('unauthorized');
  });

  it('the official client cannot connect without a key', async () => {
    const client = new Client({ name: 'anonymous', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`));
    await expect(client.connect(transport)).rejects.toMatchObject({ code: 401, message: /unauthorized/ });
  });

  it('GET /mcp/tools/list needs the key too', async () => {
    const res = await t.request('GET', '/mcp/tools/list');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });
});

describe('tool listing', () => {
  it('the official client lists the 14 contract tools and the extensions, identical to GET /mcp/tools/list', async () => {
    const client = await connectClient(t.url, apiKey);
    expect(client.getServerVersion()?.name).toBe('postkit');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/quota/);
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...CONTRACT_TOOLS, ...EXTENSION_TOOLS].sort());

    const rest = await t.request('GET', '/mcp/tools/list', { key: apiKey });
    expect(rest.status).toBe(200);
    expect(rest.body.tools).toEqual(tools);
  });

  it('every tool has a description for a model and an inlined JSON Schema object for its input and output', async () => {
    const { body } = await t.request('GET', '/mcp/tools/list', { key: apiKey });
    for (const tool of body.tools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(120);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema.type, tool.name).toBe('object');
      expect(typeof tool.annotations.readOnlyHint, tool.name).toBe('boolean');
      // Agents that do not resolve references still see every field.
      expect(JSON.stringify(tool), tool.name).not.toMatch(/"\$ref"|"\$defs"/);
    }
    const byName = Object.fromEntries(body.tools.map((tool: { name: string }) => [tool.name, tool]));
    // The REST request schema, plus the path id for {id} routes.
    // runAt or queue: true (the next free slot), so only the id is required.
    expect(byName.schedule_post.inputSchema.required).toEqual(['id']);
    expect(Object.keys(byName.schedule_post.inputSchema.properties)).toEqual(
      expect.arrayContaining(['id', 'runAt', 'queue']),
    );
    expect(byName.schedule_post.inputSchema.additionalProperties).toBe(false);
    expect(byName.get_post.inputSchema.required).toEqual(['id']);
    expect(Object.keys(byName.create_post.inputSchema.properties).sort()).toEqual(
      [
        'brandId',
        'channelId',
        'firstComment',
        'idempotencyKey',
        'mediaIds',
        'platform',
        'queue',
        'repeat',
        'runAt',
        'text',
        'thread',
      ].sort(),
    );
    expect(byName.list_posts.inputSchema.properties.status.enum).toContain('scheduled');
    expect(byName.list_channels.inputSchema.properties).toEqual({});
    // Model-backed tools say what they cost.
    for (const name of ['score_post', 'rewrite_post', 'generate_post', 'plan_week', 'build_voice']) {
      expect(byName[name].description, name).toMatch(/quota/i);
      expect(byName[name].inputSchema.properties.idempotencyKey, name).toBeDefined();
    }
  });
});

describe('the reference', () => {
  it("the OpenAPI document lists the MCP endpoint (not the transport's 405 answers to GET and DELETE)", async () => {
    const res = await t.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths['/mcp']).sort()).toEqual(['post']);
    expect(res.body.paths['/mcp/tools/list'].get.responses['200']).toBeDefined();
  });
});

describe('the transport', () => {
  it('is stateless: no session id is issued, and a tools/call needs no prior initialize', async () => {
    const init = await rpc(t.url, initialize, { authorization: `Bearer ${apiKey}` });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect(init.headers.get('content-type')).toMatch(/application\/json/);
    expect(init.body.result.serverInfo.name).toBe('postkit');

    // A brand-new request, as another API process would receive it.
    const call = await rpc(
      t.url,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'list_posts', arguments: { limit: 5 } },
      },
      { authorization: `Bearer ${apiKey}`, 'mcp-protocol-version': '2025-06-18' },
    );
    expect(call.status).toBe(200);
    expect(call.body.id).toBe(7);
    expect(call.body.result.structuredContent).toEqual({
      posts: [],
      pagination: { limit: 5, offset: 0, hasMore: false },
    });
  });

  it('a notification is accepted with 202 and no body', async () => {
    const res = await rpc(
      t.url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { authorization: `Bearer ${apiKey}` },
    );
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  it('GET and DELETE /mcp answer 405: there is no event stream or session on a stateless server', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await t.request(method, '/mcp', { key: apiKey });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.error.code).toBe('method_not_allowed');
    }
  });

  it('rejects a client that does not accept JSON and SSE, and a body that is not JSON-RPC, with 4xx', async () => {
    const wrongAccept = await rpc(t.url, initialize, {
      authorization: `Bearer ${apiKey}`,
      accept: 'text/html',
    });
    expect(wrongAccept.status).toBe(406);
    const notRpc = await rpc(t.url, { hello: 'world' }, { authorization: `Bearer ${apiKey}` });
    expect(notRpc.status).toBe(400);
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'text/plain',
        accept: 'application/json, text/event-stream',
      },
      body: 'hi',
    });
    expect(res.status).toBe(415);
  });

  it('an unknown tool is a JSON-RPC invalid-params error naming tools/list', async () => {
    const res = await rpc(
      t.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'delete_everything', arguments: {} } },
      { authorization: `Bearer ${apiKey}` },
    );
    expect(res.status).toBe(200);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toMatch(/tools\/list/);
  });

  it('bad arguments are a tool error with invalid_request and one detail per field', async () => {
    const client = await connectClient(t.url, apiKey);
    const body = await callErr(client, 'schedule_post', { id: 'pst_x', runAt: 'tomorrow', colour: 'red' });
    await client.close();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details).toEqual(
      expect.arrayContaining([
        { path: 'runAt', message: expect.any(String) },
        { path: 'colour', message: 'Unknown field; remove it' },
      ]),
    );
  });
});

describe('deployment capabilities', () => {
  it('list_channels without a publishing platform configured answers as REST does (200, no channels)', async () => {
    const client = await connectClient(t.url, apiKey);
    const { data } = await callOk(client, 'list_channels');
    await client.close();
    const viaRest = await t.request('GET', '/v1/channels', { key: apiKey });
    expect(viaRest.status).toBe(200);
    expect(data).toEqual(viaRest.body);
  });
});

describe('rate budgets', () => {
  it('every POST counts against the overall budget, and a JSON-RPC batch counts once per message', async () => {
    const small = await startTestApp({ RATE_LIMIT_REQUESTS_PER_MIN: '6' });
    try {
      const { apiKey: key } = await small.signup();
      const auth = { authorization: `Bearer ${key}` };
      const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
      const one = await rpc(small.url, list(1), auth);
      expect(one.status).toBe(200);
      expect(one.headers.get('x-ratelimit-remaining')).toBe('5');
      const batch = await rpc(small.url, [list(2), list(3), list(4)], auth);
      expect(batch.status).toBe(200);
      expect(batch.body).toHaveLength(3);
      expect(batch.headers.get('x-ratelimit-remaining')).toBe('2');
      const over = await rpc(small.url, [list(5), list(6), list(7)], auth);
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('rate_limited');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  });

  it('an oversized batch is refused by the transport and charged no more than its limit', async () => {
    const roomy = await startTestApp({ RATE_LIMIT_REQUESTS_PER_MIN: '1000' });
    try {
      const { apiKey: key } = await roomy.signup();
      const batch = Array.from({ length: 150 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
      const res = await rpc(roomy.url, batch, { authorization: `Bearer ${key}` });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/Batch/);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('900');
    } finally {
      await roomy.close();
    }
  });
});
