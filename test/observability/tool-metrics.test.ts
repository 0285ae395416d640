import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { connectClient } from '../mcp/helpers.ts';

/**
 * Every POST /mcp answers 200, a failed tool call included (it is a result with isError), so
 * the request histogram shows agents only as `/mcp 200`: the tool counter is what tells an
 * operator which tools agents call and how they fail.
 */
let t: TestApp;
let client: Client;
const scrape = async () => (await fetch(`${t.service.metricsUrl}/metrics`)).text();
const toolCalls = (text: string, tool: string, outcome: string) => {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`postkit_mcp_tool_calls_total{tool="${tool}",outcome="${outcome}"} `));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
};

beforeAll(async () => {
  t = await startTestApp({ METRICS_PORT: '0' });
  const { apiKey } = await t.signup();
  client = await connectClient(t.url, apiKey);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

describe('postkit_mcp_tool_calls_total', () => {
  it('counts each tool call by tool and outcome: ok, or the error code it answered', async () => {
    await client.callTool({ name: 'list_posts', arguments: {} });
    await client.callTool({ name: 'list_posts', arguments: { limit: 2 } });
    await client.callTool({ name: 'get_post', arguments: { id: 'pst_nosuchpost0000000' } });
    await client.callTool({ name: 'create_post', arguments: { txt: 'typo' } });
    const text = await scrape();
    expect(toolCalls(text, 'list_posts', 'ok')).toBe(2);
    expect(toolCalls(text, 'get_post', 'not_found')).toBe(1);
    expect(toolCalls(text, 'create_post', 'invalid_request')).toBe(1);
    // The HTTP view: all four are 200s.
    expect(text).toMatch(
      /postkit_http_request_duration_seconds_count\{[^}]*route="\/mcp",status="200"\} [4-9]/,
    );
  });
});
