import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { CONTRACT_TOOLS, connectClient, EXTENSION_TOOLS } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

describe('MCP tool annotations', () => {
  it('every tool states all four hints, as booleans, over the wire', async () => {
    const { apiKey } = await t.signup();
    const client = await connectClient(t.url, apiKey);
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.map((x) => x.name).sort()).toEqual([...CONTRACT_TOOLS, ...EXTENSION_TOOLS].sort());
    for (const tool of tools) {
      for (const hint of HINTS)
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
      // A read-only tool is never destructive.
      if (tool.annotations!.readOnlyHint) expect(tool.annotations!.destructiveHint, tool.name).toBe(false);
    }
    const byName = new Map(tools.map((x) => [x.name, x.annotations!]));
    expect(byName.get('cancel_post')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName.get('schedule_post')).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(byName.get('create_post')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byName.get('get_post')).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
  });
});
