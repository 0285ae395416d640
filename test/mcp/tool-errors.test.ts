import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callErr, connectClient, rpc } from './helpers.ts';

/** What an agent reads when a call goes wrong: the argument it must fix, and the code it will get. */
let t: TestApp;
let apiKey: string;
let client: Client;

beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey } = await t.signup());
  client = await connectClient(t.url, apiKey);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

describe('tools named after REST queries', () => {
  it('refuse a misspelt argument instead of ignoring it (a typo must not list everything)', async () => {
    for (const [name, args, field] of [
      ['list_posts', { stauts: 'draft' }, 'stauts'],
      ['get_calendar', { form: 0 }, 'form'],
      ['get_insights', { timeZone: 'Europe/Paris' }, 'timeZone'],
    ] as const) {
      const err = await callErr(client, name, args);
      expect(err.error.code, name).toBe('invalid_request');
      expect(err.error.details, name).toEqual([{ path: field, message: 'Unknown field; remove it' }]);
    }
  });

  it('name the argument in a verb’s field detail, not the REST query string', async () => {
    const calendar = await callErr(client, 'get_calendar', { from: 10, to: 5 });
    expect(calendar.error.details?.map((d) => d.path)).toEqual(['from']);
    const insights = await callErr(client, 'get_insights', { timezone: 'Mars/Olympus' });
    expect(insights.error.details?.map((d) => d.path)).toEqual(['timezone']);
    // REST keeps its own location prefix.
    const rest = await t.request('GET', '/v1/calendar?from=10&to=5', { key: apiKey });
    expect(rest.body.error.details[0].path).toBe('querystring.from');
  });
});

describe('tool descriptions', () => {
  it('state the code a reference to no brand of the account really gets', async () => {
    const { tools } = await client.listTools();
    for (const [name, args] of [
      ['generate_post', { brief: 'Pricing lessons', brandId: 'brd_nope' }],
      ['build_voice', { name: 'V', brandId: 'brd_nope', samples: ['A sample post about pricing.'] }],
    ] as const) {
      const err = await callErr(client, name, args);
      expect(err.error.details?.map((d) => d.path)).toEqual(['brandId']);
      const description = tools.find((tool) => tool.name === name)!.description!;
      expect(description, name).toContain(`${err.error.code} naming brandId`);
      expect(description, name).not.toContain('not_found');
    }
  });
});

describe('list_channels on a deployment without a publishing platform', () => {
  it('lists (no channels), and its description does not promise not_configured', async () => {
    const result = await client.callTool({ name: 'list_channels', arguments: {} });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ channels: [] });
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'list_channels')!.description).not.toContain('not_configured');
  });
});

describe('JSON-RPC errors', () => {
  it('carry the sentence once, without an "MCP error <code>:" prefix a client would repeat', async () => {
    const unknown = await rpc(
      t.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'delete_post', arguments: {} } },
      { authorization: `Bearer ${apiKey}` },
    );
    expect(unknown.body.error.code).toBe(-32602);
    expect(unknown.body.error.message).toMatch(/^Unknown tool delete_post; call tools\/list/);
    const invalid = await rpc(
      t.url,
      { jsonrpc: '2.0', id: 2, method: 'initialize', params: {} },
      { authorization: `Bearer ${apiKey}` },
    );
    expect(invalid.body.error.message).toBe(invalid.body.error.data.message);
    // What the official client shows an agent: the code once.
    await expect(client.callTool({ name: 'delete_post', arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool delete_post/,
    );
  });
});
