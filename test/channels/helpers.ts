import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { expect } from 'vitest';
import { channels } from '../../src/db/schema/index.ts';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/sandbox.ts';
import { createVault, type Vault } from '../../src/vault/vault.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/** A clock tests can move forward. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** A loopback port that was free a moment ago, so the redirect URI can name the app's own callback. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ChannelWorld {
  t: TestApp;
  sandbox: Sandbox;
  clock: TestClock;
  vaultKey: string;
  /** A vault with the app's key, to inspect rows. */
  vault: Vault;
  redirectUri: string;
  close(): Promise<void>;
}

/** The service and the sandbox platform, both on loopback, the service configured to use it. */
export async function startChannelWorld(
  options: {
    sandbox?: SandboxOptions;
    env?: Record<string, string | undefined>;
    log?: FastifyBaseLogger;
    /** Base64 vault key (default: a fresh one). */
    vaultKey?: string;
    /** Reuse a running sandbox (and its clock); it is left running on close. */
    shared?: { sandbox: Sandbox; clock: TestClock };
  } = {},
): Promise<ChannelWorld> {
  // One clock for the service, its adapter and the sandbox: moving it ages tokens everywhere.
  const clock = options.shared?.clock ?? testClock();
  const sandbox = options.shared?.sandbox ?? (await startSandbox({ now: clock.now, ...options.sandbox }));
  const vaultKey = options.vaultKey ?? randomBytes(32).toString('base64');
  let t: TestApp | undefined;
  let redirectUri = '';
  for (let attempt = 0; !t; attempt++) {
    const port = await freePort();
    redirectUri = `http://127.0.0.1:${port}/v1/channels/platformA/callback`;
    try {
      t = await startTestApp(
        {
          PORT: String(port),
          KIT_VAULT_KEY: vaultKey,
          ...sandbox.platformA.env(redirectUri),
          PLATFORMA_BACKOFF_SCALE: '0.001',
          ...options.env,
        },
        {
          clock,
          platformOverrides: { platformA: { now: clock.now } },
          ...(options.log ? { log: options.log } : {}),
        },
      );
    } catch (err) {
      // Another process took the port between the probe and the listen: pick another.
      if (attempt >= 3 || (err as { code?: string }).code !== 'EADDRINUSE') throw err;
    }
  }
  const app = t;
  return {
    t: app,
    sandbox,
    clock,
    vaultKey,
    vault: createVault({ key: Buffer.from(vaultKey, 'base64') }),
    redirectUri,
    async close() {
      await app.close();
      if (!options.shared) await sandbox.close();
    },
  };
}

/** GET without following redirects; returns the Location (or throws with the body). */
export async function redirectOf(url: string, init: RequestInit = {}): Promise<URL> {
  const res = await fetch(url, { ...init, redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 && res.status !== 303)
    throw new Error(`expected a redirect from ${url}, got ${res.status}: ${await res.text()}`);
  return new URL(location!);
}

/** POST connect, then the "browser" follows the authorization URL to the sandbox, which redirects back. */
export async function authorize(world: ChannelWorld, apiKey: string, body?: unknown) {
  const connect = await world.t.request('POST', '/v1/channels/platformA/connect', { key: apiKey, body });
  expect(connect.status, connect.text).toBe(200);
  const back = await redirectOf(connect.body.url);
  return { connect: connect.body as { url: string; state: string }, back };
}

/** The whole connect flow; returns the callback's response. */
export async function connect(world: ChannelWorld, apiKey: string, body?: unknown) {
  const { connect: started, back } = await authorize(world, apiKey, body);
  expect(back.origin + back.pathname).toBe(world.redirectUri);
  const res = await callback(world, back.search);
  return { ...res, started, back };
}

/** Calls the service's callback with a query string (as the member's browser would). */
export async function callback(world: ChannelWorld, search: string) {
  const res = await fetch(`${world.t.url}/v1/channels/platformA/callback${search}`);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

/** Connects and insists it worked; returns the channel. */
export async function connected(world: ChannelWorld, apiKey: string, body?: unknown) {
  const res = await connect(world, apiKey, body);
  expect(res.status, res.text).toBe(200);
  return res.body.channel as {
    id: string;
    status: string;
    expiresAt: number | null;
    lastRefreshAt: number | null;
    platformUserId: string;
    [k: string]: unknown;
  };
}

/** Every token, refresh token and code the sandbox ever issued: none may leak. */
export function issuedSecrets(sandbox: Sandbox): string[] {
  return [
    ...sandbox.platformA.state.tokens.keys(),
    ...sandbox.platformA.state.refreshTokens.keys(),
    ...sandbox.platformA.state.codes.keys(),
    sandbox.platformA.clientSecret,
    ...sandbox.platformB.state.tokens.keys(),
    ...sandbox.platformB.state.refreshTokens.keys(),
    ...sandbox.platformB.state.codes.keys(),
    sandbox.platformB.clientSecret,
  ];
}

export function expectNoSecrets(text: string, secrets: string[]) {
  for (const secret of secrets) expect(text.includes(secret), `leaked ${secret.slice(0, 10)}…`).toBe(false);
}

/** The channel's stored row, sealed columns included, for assertions on what is kept. */
export async function channelRow(world: ChannelWorld, id: string) {
  const [row] = await world.t.service.deps.db.select().from(channels).where(eq(channels.id, id));
  return row!;
}
