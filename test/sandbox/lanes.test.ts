import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_IDS } from '../../src/platforms/profiles.ts';
import { SANDBOX_PLATFORMS, type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';

/**
 * The sandbox treats every platform alike: one lane each, reached the same way in-process
 * (`sandbox.<id>`) and over HTTP (`/_sandbox/<id>/...`), so a new platform is a lane folder and
 * one entry in the sandbox's list, and this file fails until it has both.
 */

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const admin = (path: string, body: unknown = {}) =>
  fetch(`${sandbox.url}/_sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('one sandbox lane per platform', () => {
  it('emulates every platform of the enumeration, in its order', () => {
    expect(SANDBOX_PLATFORMS).toEqual(PLATFORM_IDS);
  });

  it.each(PLATFORM_IDS)('%s: the same controls in-process and under /_sandbox/<id>/', async (id) => {
    const lane = sandbox[id];
    const prefix = `${id.toUpperCase()}_`;
    const env = lane.env(`http://127.0.0.1:9/v1/channels/${id}/callback`);
    expect(Object.keys(env).every((k) => k.startsWith(prefix))).toBe(true);
    expect(env[`${prefix}CLIENT_ID`]).toBe(lane.clientId);
    expect(env[`${prefix}AUTH_URL`]).toBe(lane.authUrl);
    expect(env[`${prefix}API_URL`]).toBe(lane.apiUrl);
    expect(env[`${prefix}POST_URL`]).toBe(`${sandbox.url}/_sandbox/${id}/posts/{id}`);

    // A fault armed over HTTP shows in the lane's state, in-process and as JSON; reset clears it.
    expect((await admin(`${id}/latency`, { ms: 5 })).status).toBe(200);
    expect(lane.faults.describe().latency).toEqual({ '*': 5 });
    const state = (await (await fetch(`${sandbox.url}/_sandbox/${id}/state`)).json()) as {
      latency: Record<string, number>;
      calls: Record<string, number>;
    };
    expect(state.latency).toEqual({ '*': 5 });
    expect((await admin(`${id}/reset`)).status).toBe(200);
    expect(lane.faults.describe().latency).toEqual({});

    const missing = await fetch(`${sandbox.url}/_sandbox/${id}/posts/0`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(`no ${id} post 0`);
  });

  it('envFor gives every lane’s variables with its callback, and the index page every lane’s posts', async () => {
    const env = sandbox.envFor('http://127.0.0.1:8181');
    for (const id of PLATFORM_IDS) {
      expect(env).toMatchObject(sandbox[id].env(`http://127.0.0.1:8181/v1/channels/${id}/callback`));
    }
    const html = await (await fetch(`${sandbox.url}/`)).text();
    for (const id of PLATFORM_IDS) expect(html).toContain(`${id} posts (0)`);
  });
});
