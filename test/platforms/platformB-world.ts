import { expect } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/sandbox.ts';
import { startSandbox } from '../../src/sandbox/sandbox.ts';
import { type ChannelWorld, redirectOf, startChannelWorld, testClock } from '../channels/helpers.ts';

/** A placeholder: tests read the sandbox's redirect and call the service's callback themselves. */
export const B_REDIRECT = 'http://127.0.0.1:9/v1/channels/platformB/callback';

/** The service configured for both platforms against one sandbox, sharing one clock. */
export async function startWorldB(
  options: { sandbox?: SandboxOptions; env?: Record<string, string | undefined> } = {},
): Promise<ChannelWorld> {
  const clock = testClock();
  const sandbox = await startSandbox({ now: clock.now, ...options.sandbox });
  const world = await startChannelWorld({
    shared: { sandbox, clock },
    env: { ...sandbox.platformB.env(B_REDIRECT), PLATFORMB_BACKOFF_SCALE: '0.001', ...options.env },
  });
  return {
    ...world,
    async close() {
      await world.close();
      await sandbox.close();
    },
  };
}

/** POST connect, follow the consent URL to the sandbox, call the callback with its query. */
export async function connectB(world: ChannelWorld, apiKey: string, body?: unknown) {
  const started = await world.t.request('POST', '/v1/channels/platformB/connect', { key: apiKey, body });
  expect(started.status, started.text).toBe(200);
  const back = await redirectOf(started.body.url);
  expect(back.origin + back.pathname).toBe(B_REDIRECT);
  const res = await fetch(`${world.t.url}/v1/channels/platformB/callback${back.search}`);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text, started: started.body, back };
}

export async function connectedB(world: ChannelWorld, apiKey: string) {
  const res = await connectB(world, apiKey);
  expect(res.status, res.text).toBe(200);
  return res.body.channel as {
    id: string;
    platform: string;
    handle: string | null;
    platformUserId: string;
    status: string;
  };
}
