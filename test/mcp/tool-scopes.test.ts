import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/catalog.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callErr, connectClient } from './helpers.ts';
import { connectApp, mcpClientWithToken } from './oauth-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The scopes the issue assigns: read looks, write drafts and calls the model, publish reaches the audience. */
const EXPECTED: Record<string, string> = {
  score_post: 'write',
  rewrite_post: 'write',
  generate_post: 'write',
  plan_week: 'write',
  build_voice: 'write',
  create_post: 'write',
  import_history: 'write',
  schedule_post: 'publish',
  cancel_post: 'publish',
  list_posts: 'read',
  get_post: 'read',
  get_calendar: 'read',
  list_brands: 'read',
  list_voices: 'read',
  list_channels: 'read',
  get_insights: 'read',
  set_queue: 'publish',
  get_queue: 'read',
  suggest_queue: 'read',
  clear_queue: 'publish',
  queue_post: 'publish',
  schedule_series: 'publish',
  get_series: 'read',
  cancel_series: 'publish',
  check_bulk_csv: 'write',
  bulk_schedule_csv: 'publish',
  get_metrics_history: 'read',
  get_analytics_trends: 'read',
  create_post_group: 'write',
  get_post_group: 'read',
  cancel_post_group: 'publish',
  publish_post_group: 'publish',
  submit_post: 'write',
  approve_post: 'publish',
  request_post_changes: 'write',
  save_plan: 'write',
  list_plans: 'read',
  get_plan: 'read',
  delete_plan: 'write',
  plan_to_drafts: 'write',
};

describe('MCP tool scopes and hints', () => {
  it('every tool lists its scope, a title and all four hints; public-facing tools say so and take an idempotency key', async () => {
    const { apiKey } = await t.signup();
    const client = await connectClient(t.url, apiKey);
    const { tools } = await client.listTools();
    await client.close();
    expect(Object.fromEntries(tools.map((x) => [x.name, x._meta?.['postkit/scope']]))).toEqual(EXPECTED);
    for (const tool of tools) {
      expect(tool.annotations?.title, tool.name).toBe(tool.title);
      if (tool.annotations?.openWorldHint) {
        expect(tool.description, tool.name).toMatch(/publicly/);
        expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).toContain('idempotencyKey');
      }
    }
    expect(
      tools
        .filter((x) => x.annotations?.openWorldHint)
        .map((x) => x.name)
        .sort(),
    ).toEqual([
      'approve_post',
      'bulk_schedule_csv',
      'create_post_group',
      'plan_to_drafts',
      'publish_post_group',
      'queue_post',
      'schedule_post',
      'schedule_series',
    ]);
  });

  it('a read-only connection gets a tool error naming the missing scope for every tool that needs more', async () => {
    const { apiKey } = await t.signup();
    const { access_token } = await connectApp(t, apiKey, { scope: 'read' });
    const client = await mcpClientWithToken(t.url, access_token);
    for (const tool of TOOLS) {
      const result = await client.callTool({ name: tool.name, arguments: {} });
      const text = (result.content as { text: string }[])[0]!.text;
      if (tool.scope === 'read') {
        expect(text, tool.name).not.toMatch(/^insufficient_scope/);
        continue;
      }
      const body = await callErr(client, tool.name, {});
      expect(body.error, tool.name).toMatchObject({ code: 'insufficient_scope', scope: tool.scope });
      expect(body.error.message).toContain(`${tool.name} needs the \`${tool.scope}\` scope`);
      expect(body.error.message).toMatch(/this connection was not granted it.*approve/);
    }
    await client.close();
  });

  it('a write connection may draft but not schedule; the publish scope is named', async () => {
    const { apiKey } = await t.signup();
    const { access_token } = await connectApp(t, apiKey, { scope: 'read write' });
    const client = await mcpClientWithToken(t.url, access_token);
    const draft = await client.callTool({
      name: 'create_post',
      arguments: { text: 'A draft from an agent' },
    });
    expect(draft.isError ?? false).toBe(false);
    const id = (draft.structuredContent as { post: { id: string } }).post.id;
    const schedule = await callErr(client, 'schedule_post', { id, runAt: Date.now() + 3_600_000 });
    expect(schedule.error).toMatchObject({ code: 'insufficient_scope', scope: 'publish' });
    expect(schedule.error.message).toMatch(/where everyone can see them/);
    // Creating a post already scheduled is publishing too.
    const scheduled = await callErr(client, 'create_post', { text: 'Later', runAt: Date.now() + 3_600_000 });
    expect(scheduled.error).toMatchObject({ code: 'insufficient_scope', scope: 'publish' });
    await client.close();
  });

  it('an API key without publish is refused the same way, with advice for keys', async () => {
    const { apiKey } = await t.signup();
    const key = await t.request('POST', '/v1/keys', { key: apiKey, body: { scopes: ['read', 'write'] } });
    const client = await connectClient(t.url, key.body.apiKey);
    const body = await callErr(client, 'cancel_post', { id: 'pst_x' });
    expect(body.error).toMatchObject({ code: 'insufficient_scope', scope: 'publish' });
    expect(body.error.message).toMatch(/this API key does not have it.*POST \/v1\/keys/);
    await client.close();
  });
});
