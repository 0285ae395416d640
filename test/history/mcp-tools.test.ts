import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callErr, callOk, connectClient } from '../mcp/helpers.ts';

let t: TestApp;
let a: { apiKey: string; client: Client };
let b: { apiKey: string; client: Client };

beforeAll(async () => {
  t = await startTestApp();
  const setup = async () => {
    const { apiKey } = await t.signup();
    return { apiKey, client: await connectClient(t.url, apiKey) };
  };
  a = await setup();
  b = await setup();
});
afterAll(async () => {
  await a?.client.close();
  await b?.client.close();
  await t?.close();
});

describe('history tools call the same verbs as REST', () => {
  it('import_history imports, updates on the same text, and fails a bad batch whole', async () => {
    const items = [
      { text: 'First post from the export', reactions: 10, publishedAt: '2025-02-03T09:00:00Z' },
      { text: 'Second post', comments: 3 },
    ];
    const { data, summary } = await callOk(a.client, 'import_history', { items });
    expect(data).toEqual({ imported: 2, duplicates: 0, total: 2 });
    expect(summary).toBe('Imported 2 new posts; 0 already in the history were updated. History now holds 2.');
    expect((await callOk(a.client, 'import_history', { items })).data).toEqual({
      imported: 0,
      duplicates: 2,
      total: 2,
    });

    const err = await callErr(a.client, 'import_history', {
      items: [{ text: 'ok' }, { text: 'bad', shares: 1.5 }],
    });
    expect(err.error.code).toBe('invalid_request');
    expect(err.error.details?.map((d) => d.path)).toContain('items[1].shares');
    const listed = await t.request('GET', '/v1/history', { key: a.apiKey });
    expect(listed.body.history).toHaveLength(2);
    // Another account's tools see none of it.
    expect((await callOk(b.client, 'get_insights', {})).data.basedOn.posts).toBe(0);
  });

  it('get_insights answers what GET /v1/insights answers', async () => {
    const { data, summary } = await callOk(a.client, 'get_insights', { timezone: 'Europe/Paris' });
    const rest = await t.request('GET', '/v1/insights?timezone=Europe/Paris', { key: a.apiKey });
    expect(rest.status).toBe(200);
    expect(data).toEqual(rest.body);
    expect(summary).toMatch(
      /^From 2 posts with engagement\. Factors: Not enough history for a personal score.* Days: Not enough history/,
    );
    expect((await callErr(a.client, 'get_insights', { timezone: 'Nowhere/Else' })).error.code).toBe(
      'invalid_request',
    );
  });

  it('declares every hint', async () => {
    const { tools } = await a.client.listTools();
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(hints.import_history).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(hints.get_insights).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});
