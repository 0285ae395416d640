import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callErr, callOk, connectClient } from '../mcp/helpers.ts';

/**
 * The saved-plan verbs for agents, through the official MCP client: plan_week's result saved with
 * save_plan reads back through get_plan and list_plans exactly as REST returns it, delete_plan
 * removes it, and another account's plan is not found.
 */

let t: TestApp;
let alice: { apiKey: string; client: Client };
let bob: { apiKey: string; client: Client };

const BRIEF =
  'Onboarding emails: our trial-to-paid rate rose from 4% to 11% after we cut the welcome sequence from seven emails to three.';

beforeAll(async () => {
  t = await startTestApp();
  const connect = async () => {
    const { apiKey } = await t.signup();
    return { apiKey, client: await connectClient(t.url, apiKey) };
  };
  alice = await connect();
  bob = await connect();
});
afterAll(async () => {
  await alice?.client.close();
  await bob?.client.close();
  await t?.close();
});

describe('plan tools', () => {
  it('save_plan keeps plan_week items; get_plan and list_plans read what REST reads', async () => {
    const planned = await callOk(alice.client, 'plan_week', { brief: BRIEF, count: 3 });
    const saved = await callOk(alice.client, 'save_plan', { brief: BRIEF, items: planned.data.items });
    const plan = saved.data.plan;
    expect(plan.items).toEqual(planned.data.items.map((i: object) => ({ ...i, postId: null })));
    expect(saved.summary).toContain(plan.id);
    expect(saved.summary).toContain('3 items');

    const got = await callOk(alice.client, 'get_plan', { id: plan.id });
    const rest = await t.request('GET', `/v1/plans/${plan.id}`, { key: alice.apiKey });
    expect(got.data).toEqual(rest.body);
    expect(got.summary).toContain(plan.items[0].hook);

    const listed = await callOk(alice.client, 'list_plans', { limit: 10 });
    expect(listed.data).toEqual((await t.request('GET', '/v1/plans?limit=10', { key: alice.apiKey })).body);
    expect(listed.data.plans.map((p: { id: string }) => p.id)).toEqual([plan.id]);
  });

  it("another account's plan is not found; delete_plan removes the caller's own", async () => {
    const planned = await callOk(alice.client, 'plan_week', { brief: BRIEF, count: 1 });
    const { plan } = (await callOk(alice.client, 'save_plan', { brief: BRIEF, items: planned.data.items }))
      .data;
    for (const name of ['get_plan', 'delete_plan'])
      expect((await callErr(bob.client, name, { id: plan.id })).error.code).toBe('not_found');
    const deleted = await callOk(alice.client, 'delete_plan', { id: plan.id });
    expect(deleted.data).toEqual({ deleted: true });
    expect((await callErr(alice.client, 'get_plan', { id: plan.id })).error.code).toBe('not_found');
  });

  it('plan_to_drafts makes what REST makes, once, and replays an idempotencyKey', async () => {
    const planned = await callOk(alice.client, 'plan_week', { brief: BRIEF, count: 2 });
    const { plan } = (await callOk(alice.client, 'save_plan', { brief: BRIEF, items: planned.data.items }))
      .data;
    const made = await callOk(alice.client, 'plan_to_drafts', { id: plan.id, idempotencyKey: 'drafts-1' });
    expect(made.data.made).toBe(2);
    expect(made.data.posts.map((p: { status: string }) => p.status)).toEqual(['draft', 'draft']);
    expect(made.summary).toContain('2 posts made');
    made.data.posts.forEach((p: { text: string }, k: number) => {
      expect(p.text.startsWith(plan.items[k].hook)).toBe(true);
    });
    const replay = await callOk(alice.client, 'plan_to_drafts', { id: plan.id, idempotencyKey: 'drafts-1' });
    expect(replay.data).toEqual(made.data);
    const again = await callOk(alice.client, 'plan_to_drafts', { id: plan.id });
    expect(again.data.made).toBe(0);
    const rest = await t.request('POST', `/v1/plans/${plan.id}/drafts`, { key: alice.apiKey, body: {} });
    expect(rest.body).toEqual(again.data);
    expect((await callErr(bob.client, 'plan_to_drafts', { id: plan.id })).error.code).toBe('not_found');
  });

  it('save_plan refuses a bad item as REST does, naming the field', async () => {
    const err = await callErr(alice.client, 'save_plan', {
      brief: BRIEF,
      items: [
        {
          slot: 1,
          pillar: '',
          hook: 'h',
          angle: 'a',
          format: 'none',
          archetype: 'story',
          evidence: null,
          when: null,
        },
      ],
    });
    expect(err.error.code).toBe('invalid_request');
    expect(JSON.stringify(err.error.details)).toContain('pillar');
  });
});
