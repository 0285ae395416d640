import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** The 14 tools CONTRACT.md section 1 names. */
export const CONTRACT_TOOLS = [
  'score_post',
  'rewrite_post',
  'generate_post',
  'plan_week',
  'build_voice',
  'create_post',
  'schedule_post',
  'cancel_post',
  'list_posts',
  'get_post',
  'get_calendar',
  'list_brands',
  'list_voices',
  'list_channels',
];

/** Tools beyond the contract's 14. */
export const EXTENSION_TOOLS = [
  'import_history',
  'get_insights',
  'set_queue',
  'get_queue',
  'suggest_queue',
  'clear_queue',
  'queue_post',
  'schedule_series',
  'get_series',
  'cancel_series',

  'check_bulk_csv',
  'bulk_schedule_csv',
  'get_metrics_history',
  'get_analytics_trends',
  'create_post_group',
  'get_post_group',
  'cancel_post_group',
  'publish_post_group',
  'submit_post',
  'approve_post',
  'request_post_changes',
  'save_plan',
  'list_plans',
  'get_plan',
  'delete_plan',
  'plan_to_drafts',
];

/** The official MCP client over Streamable HTTP, as an agent would connect, with the bearer key. */
export async function connectClient(baseUrl: string, apiKey: string): Promise<Client> {
  const client = new Client({ name: 'postkit-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  return client;
}

export type ToolResult = CallToolResult;

/** Calls a tool and insists it succeeded; returns its structured content. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError ?? false, `${name}: ${textOf(result)}`).toBe(false);
  expect(result.structuredContent, name).toBeDefined();
  // The MCP spec asks for the JSON in a text block too, for clients that ignore structured content.
  expect(JSON.parse((result.content[1] as { text: string }).text)).toEqual(result.structuredContent);
  return {
    data: result.structuredContent as any,
    summary: (result.content[0] as { text: string }).text,
    result,
  };
}

/** Calls a tool and insists it failed as a tool error; returns the REST-shaped error body. */
export async function callErr(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, `${name} should fail: ${textOf(result)}`).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const body = JSON.parse((result.content[1] as { text: string }).text);
  const line = (result.content[0] as { text: string }).text;
  expect(line.startsWith(`${body.error.code}: ${body.error.message}`)).toBe(true);
  expect(body.error.requestId).toMatch(/\S/);
  return body as {
    error: {
      code: string;
      message: string;
      details?: { path: string; message: string }[];
      requestId: string;
      /** What the error is about (e.g. `post`), as REST puts it inside `error`. */
      [about: string]: any;
    };
    [extra: string]: any;
  };
}

export function textOf(result: ToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** A raw JSON-RPC POST, as the transport spec describes it (no SDK). */
export async function rpc(baseUrl: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}
