import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelWorld } from '../channels/helpers.ts';
import { connected, startChannelWorld } from '../channels/helpers.ts';
import { backend } from '../helpers/app.ts';
import { spawnService } from '../helpers/processes.ts';
import { type ToolResult, textOf } from './helpers.ts';

/*
 * Issue 37 item 5: Streamable HTTP without a session works for every tool. The official SDK
 * client connects to /mcp as an agent does; the server issues no Mcp-Session-Id, so the client
 * sends none, and every tools/call is a request on its own. The tools come from tools/list, and
 * each must have valid arguments below: a tool added to the catalog fails this test until it
 * is given some, so no tool escapes it.
 */

let w: ChannelWorld;
beforeAll(async () => {
  w = await startChannelWorld();
});
afterAll(async () => {
  await w?.close();
});

/** One account with what the tools act on: a platformA channel and a brand. */
interface Workspace {
  apiKey: string;
  channelId: string;
  brandId: string;
  now: number;
  /** A REST call with the account's key that must succeed; returns its body. */
  rest(method: string, path: string, body?: unknown): Promise<any>;
}

async function workspace(world: ChannelWorld): Promise<Workspace> {
  const { apiKey } = await world.t.signup();
  const channel = await connected(world, apiKey);
  const rest = async (method: string, path: string, body?: unknown) => {
    const res = await world.t.request(method, path, { key: apiKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const brand = await rest('POST', '/v1/brands', { name: 'Stateless Co' });
  return { apiKey, channelId: channel.id, brandId: brand.brand.id, now: world.clock.now(), rest };
}

const HOUR = 3_600_000;
const POST =
  'We cut our churn from 7.1% to 3.4% in 90 days.\n\nNo discounts. We called every account that went quiet for 14 days and asked one question: what almost made you leave?\n\nWhat would you ask?';
const SAMPLE = 'Hiring our first AE took 4 months. Here is the scorecard we used, line by line.';

let serial = 0;
/** A fresh draft on the channel (through REST, so the tool under test is the only tool called). */
const draft = async (s: Workspace, extra: Record<string, unknown> = {}) =>
  (
    await s.rest('POST', '/v1/posts', {
      text: `Draft ${++serial}: ${POST}`,
      channelId: s.channelId,
      ...extra,
    })
  ).post.id as string;
const scheduled = (s: Workspace) => draft(s, { runAt: s.now + 2 * HOUR });
const withQueue = (s: Workspace) =>
  s.rest('PUT', `/v1/channels/${s.channelId}/queue`, {
    timezone: 'Europe/Paris',
    slots: [{ day: 2, time: '08:00' }],
  });
const series = async (s: Workspace) =>
  (
    await s.rest('POST', '/v1/posts', {
      text: `Weekly ${++serial}`,
      channelId: s.channelId,
      runAt: s.now + 2 * HOUR,
      repeat: { every: { unit: 'week', n: 1 }, count: 3 },
    })
  ).post.seriesId as string;
const group = async (s: Workspace) =>
  (
    await s.rest('POST', '/v1/post-groups', {
      variants: [{ channelId: s.channelId, text: `Group ${++serial}: the whole story` }],
    })
  ).group.id as string;
const submitted = async (s: Workspace) => {
  const id = await draft(s);
  await s.rest('POST', `/v1/posts/${id}/submit`, {});
  return id;
};
const PLAN_BRIEF = 'A week on retention: we cut churn from 7.1% to 3.4% by calling quiet accounts.';
/** A plan_week result through REST, as save_plan takes it. */
const planned = async (s: Workspace) => ({
  brief: PLAN_BRIEF,
  items: (await s.rest('POST', '/v1/plan', { brief: PLAN_BRIEF, count: 2 })).items,
});
const savedPlan = async (s: Workspace) =>
  (await s.rest('POST', '/v1/plans', await planned(s))).plan.id as string;
const csv = (s: Workspace) =>
  `text,runAt,channelId\nFirst from a file ${++serial},${s.now + 3 * HOUR},${s.channelId}\n`;

/** Valid arguments for each tool, made in the workspace it is called in. */
const VALID: Record<string, (s: Workspace) => Promise<Record<string, unknown>> | Record<string, unknown>> = {
  score_post: () => ({ post: POST }),
  rewrite_post: () => ({ post: 'Some thoughts on churn. #saas #growth #startup #b2b #founders' }),
  generate_post: (s) => ({ brief: 'Why we stopped discounting', count: 1, brandId: s.brandId }),
  plan_week: (s) => ({ brief: 'A week on retention', count: 3, brandId: s.brandId }),
  build_voice: (s) => ({ name: 'Founder voice', brandId: s.brandId, samples: [POST, SAMPLE] }),
  list_brands: () => ({}),
  list_voices: () => ({}),
  create_post: (s) => ({ text: 'A draft from an agent', channelId: s.channelId }),
  schedule_post: async (s) => ({ id: await draft(s), runAt: s.now + 2 * HOUR }),
  cancel_post: async (s) => ({ id: await scheduled(s) }),
  list_posts: () => ({ limit: 5 }),
  get_post: async (s) => ({ id: await draft(s) }),
  get_calendar: (s) => ({ from: s.now, to: s.now + 7 * 24 * HOUR }),
  list_channels: () => ({}),
  import_history: () => ({
    items: [{ text: 'An old post that did well', publishedAt: '2025-01-02', reactions: 10, comments: 2 }],
  }),
  get_insights: () => ({}),
  set_queue: (s) => ({
    channelId: s.channelId,
    timezone: 'Europe/Paris',
    slots: [{ day: 2, time: '08:00' }],
  }),
  get_queue: async (s) => {
    await withQueue(s);
    return { channelId: s.channelId, count: 2 };
  },
  suggest_queue: (s) => ({ channelId: s.channelId }),
  clear_queue: async (s) => {
    await withQueue(s);
    return { channelId: s.channelId };
  },
  queue_post: async (s) => {
    await withQueue(s);
    return { channelId: s.channelId, text: 'Queued by an agent' };
  },
  schedule_series: (s) => ({
    channelId: s.channelId,
    text: 'Monthly update',
    runAt: s.now + 2 * HOUR,
    repeat: { every: { unit: 'month', n: 1 }, count: 3 },
  }),
  get_series: async (s) => ({ id: await series(s) }),
  cancel_series: async (s) => ({ id: await series(s) }),
  check_bulk_csv: (s) => ({ csv: csv(s) }),
  bulk_schedule_csv: (s) => ({ csv: csv(s) }),
  get_metrics_history: async (s) => ({ id: await draft(s) }),
  get_analytics_trends: () => ({}),
  create_post_group: (s) => ({ variants: [{ channelId: s.channelId, text: 'One story, every channel' }] }),
  get_post_group: async (s) => ({ id: await group(s) }),
  cancel_post_group: async (s) => ({ id: await group(s) }),
  publish_post_group: async (s) => ({ id: await group(s) }),
  submit_post: async (s) => ({ id: await draft(s), runAt: s.now + 2 * HOUR }),
  approve_post: async (s) => ({ id: await submitted(s), note: 'Ship it.' }),
  request_post_changes: async (s) => ({ id: await submitted(s), note: 'Name the customer.' }),
  save_plan: (s) => planned(s),
  list_plans: () => ({ limit: 5 }),
  get_plan: async (s) => ({ id: await savedPlan(s) }),
  delete_plan: async (s) => ({ id: await savedPlan(s) }),
  plan_to_drafts: async (s) => ({ id: await savedPlan(s) }),
};

/** What the client sent and what came back, request by request. */
interface Exchange {
  method: string;
  url: string;
  sessionSent: string | null;
  status: number;
  sessionIssued: string | null;
}

/** The fetch the SDK transport uses, recording every exchange; `route` picks the process. */
function recordingFetch(log: Exchange[], route: (n: number) => string = () => '') {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const base = route(log.length);
    const target = base ? new URL(url.pathname + url.search, base) : url;
    const res = await fetch(target, init);
    log.push({
      method: init?.method ?? 'GET',
      url: target.toString(),
      sessionSent: new Headers(init?.headers).get('mcp-session-id'),
      status: res.status,
      sessionIssued: res.headers.get('mcp-session-id'),
    });
    return res;
  };
}

/** Connects the SDK client, lists the tools and calls each with valid arguments; returns the failures. */
async function callEveryTool(s: Workspace, baseUrl: string, log: Exchange[], route?: (n: number) => string) {
  const client = new Client({ name: 'stateless-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${s.apiKey}` } },
    fetch: recordingFetch(log, route),
  });
  await client.connect(transport);
  // No session: the server issued none, so the client has none to send.
  expect(transport.sessionId).toBeUndefined();
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  const missing = names.filter((name) => !(name in VALID));
  expect(missing, 'give these new tools valid arguments in VALID').toEqual([]);
  expect(Object.keys(VALID).filter((name) => !names.includes(name))).toEqual([]);
  const failures: string[] = [];
  for (const name of names) {
    const args = await VALID[name]!(s);
    // The SDK client checks structuredContent against the tool's outputSchema from tools/list.
    const result = (await client.callTool({ name, arguments: args }).catch((err: Error) => ({
      isError: true,
      content: [{ type: 'text', text: `client refused the result: ${err.message}` }],
    }))) as ToolResult;
    if (result.isError || result.structuredContent === undefined)
      failures.push(`${name}: ${textOf(result).slice(0, 300)}`);
  }
  await client.close();
  return { names, failures };
}

describe('Streamable HTTP without a session', () => {
  it('the official SDK client calls every listed tool with valid arguments, and each succeeds', async () => {
    const s = await workspace(w);
    const log: Exchange[] = [];
    const { names, failures } = await callEveryTool(s, w.t.url, log);
    expect(failures).toEqual([]);
    expect(names.length).toBeGreaterThanOrEqual(35);

    // No exchange carried a session id either way; every message was a POST answered on its
    // own (the SDK's optional event-stream GET is refused with 405, which it accepts).
    expect(log.filter((x) => x.sessionSent !== null || x.sessionIssued !== null)).toEqual([]);
    const posts = log.filter((x) => x.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(names.length + 2);
    expect(posts.filter((x) => x.status !== 200 && x.status !== 202)).toEqual([]);
    expect(log.filter((x) => x.method !== 'POST').every((x) => x.status === 405)).toBe(true);
  }, 180_000);

  it.runIf(backend === 'postgres')(
    'each message may land on another API process: every tool succeeds with calls alternating between two',
    async () => {
      const other = await spawnService('api', {
        DATABASE_URL: w.t.config.DATABASE_URL,
        REDIS_URL: w.t.config.REDIS_URL,
        KIT_VAULT_KEY: w.vaultKey,
        PUBLIC_BASE_URL: w.t.url,
        RATE_LIMIT_REQUESTS_PER_MIN: '100000',
        RATE_LIMIT_MODEL_PER_MIN: '100000',
      });
      try {
        const s = await workspace(w);
        const log: Exchange[] = [];
        // The initialize goes to this process, then every other message to the spawned one.
        const { failures } = await callEveryTool(s, w.t.url, log, (n) => (n % 2 ? other.url! : w.t.url));
        expect(failures).toEqual([]);
        const served = new Set(log.filter((x) => x.method === 'POST').map((x) => new URL(x.url).origin));
        expect(served).toEqual(new Set([new URL(w.t.url).origin, new URL(other.url!).origin]));
        expect(log.filter((x) => x.sessionSent !== null || x.sessionIssued !== null)).toEqual([]);
      } finally {
        await other.kill();
      }
    },
    180_000,
  );
});
