import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configWith } from '../../src/config/config.ts';
import { deliverDue } from '../../src/features/webhooks/delivery.sweep.ts';
import { createWebhookDispatcher } from '../../src/features/webhooks/safe-dispatcher.ts';
import { startSandbox } from '../../src/sandbox/sandbox.ts';
import { authorize, type ChannelWorld, startChannelWorld } from '../channels/helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createWebhook, deliveries, emit } from '../webhooks/helpers.ts';
import { fieldsOf, jsonBodySchema, operations } from './openapi.ts';

/**
 * OWASP API7 (server-side request forgery), the review's cross-checks. The webhook URL policy
 * and the connect-time dispatcher have their own suites (test/webhooks/address-policy.test.ts,
 * test/webhooks/ssrf.test.ts, redirects in test/webhooks/webhooks.test.ts); this file checks
 * that the webhook URL is the only address a caller can give the service, adds the address
 * spellings those suites do not try, and checks that the platform's addresses come from
 * configuration only.
 */

let t: TestApp;
let doc: any;
let key: string;
let accountId: string;

beforeAll(async () => {
  t = await startTestApp({
    KIT_VAULT_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE: 'false',
    WEBHOOK_TIMEOUT_MS: '2000',
  });
  doc = (await t.request('GET', '/v1/openapi.json')).body;
  ({ apiKey: key, accountId } = await t.signup());
});
afterAll(async () => {
  await t?.close();
});

const ADDRESS_WORDS = [
  'url',
  'uri',
  'href',
  'endpoint',
  'host',
  'hostname',
  'callback',
  'redirect',
  'origin',
  'domain',
  'address',
  'target',
];
/** `redirectUri` -> [redirect, uri]; `callback_url` -> [callback, url]. */
const words = (name: string) => name.split(/(?=[A-Z])|[_-]/).map((w) => w.toLowerCase());
const addressLike = (name: string) => words(name).some((w) => ADDRESS_WORDS.includes(w));

describe('inventory of caller-supplied addresses', () => {
  it('the webhook URL is the only request field that names a place for the service to call', () => {
    const found: string[] = [];
    for (const o of operations(doc)) {
      const body = jsonBodySchema(doc, o);
      for (const f of body ? fieldsOf(doc, body) : []) {
        const leaf = f.path.split('.').pop()!.replace('[]', '');
        if (addressLike(leaf) || f.schema.format === 'uri') found.push(`${o.key} body.${f.path}`);
      }
      for (const p of o.op.parameters ?? []) {
        if (addressLike(p.name) && p.in !== 'path') found.push(`${o.key} ${p.in}.${p.name}`);
      }
    }
    expect(found).toEqual(['POST /v1/webhooks body.url']);
  });
});

describe('webhook registration', () => {
  it('refuses the inward spellings the webhook suites do not try', async () => {
    for (const url of [
      'https://localhost./x',
      'https://LOCALHOST/x',
      'https://[::]/x',
      'https://[::ffff:a00:1]/x',
      'https://[64:ff9b::7f00:1]/x', // NAT64 of 127.0.0.1
      'https://[64:ff9b::a9fe:a9fe]/x', // NAT64 of the metadata address
      'https://[2002:7f00:1::]/x', // 6to4 of 127.0.0.1
      'https://[::127.0.0.1]/x', // IPv4-compatible
      'https://[::ffff:0:7f00:1]/x',
      'https://[fec0::1]/x',
      'https://[ff02::1]/x',
      'https://198.18.0.1/x',
      'https://240.0.0.1/x',
      'https://255.255.255.255/x',
      'https://0/x',
      'https://127.000.000.001/x',
      'https://%31%32%37.0.0.1/x',
      'https://１２７.0.0.1/x',
      'https://127.0.0.1:443@hooks.example.com/x',
      'https://hooks.example.com@127.0.0.1/x',
      'https://foo.svc.cluster.local/x',
      'https://instance-data.ec2.internal/x',
      'https://metadata/x',
      'https://[fe80::1%25eth0]/x',
      'file:///etc/passwd',
      'gopher://hooks.example.com/x',
      'javascript:alert(1)',
    ]) {
      const res = await t.request('POST', '/v1/webhooks', { key, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details[0].path, url).toBe('url');
    }
    expect((await t.request('GET', '/v1/webhooks', { key })).body.webhooks).toEqual([]);
  });
});

describe('webhook delivery', () => {
  it('refuses a public-looking name that resolves inward, without telling the account the internal address', async () => {
    const { webhook } = await createWebhook(t, key, 'https://hooks.partner.example/postkit');
    const deps = t.service.deps;
    const real = deps.webhookDispatcher;
    // Split-horizon DNS: the name resolves to an internal address inside the deployment.
    deps.webhookDispatcher = createWebhookDispatcher({
      allowPrivate: false,
      timeoutMs: 2000,
      resolver: async () => [{ address: '10.77.66.55', family: 4 }],
    });
    try {
      await emit(t, accountId);
      await deliverDue(deps);
      const [d] = (await deliveries(t, key, webhook.id)).deliveries;
      expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: null });
      expect(d!.lastError).toMatch(/^Refused: hooks\.partner\.example resolves to a private address/);
      expect(d!.lastError).not.toContain('10.77.66.55');
    } finally {
      await deps.webhookDispatcher.close();
      deps.webhookDispatcher = real;
    }
  });
});

describe('platform addresses come from configuration only', () => {
  let world: ChannelWorld;
  beforeAll(async () => {
    world = await startChannelWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('connect cannot be given another authorization server or redirect URI', async () => {
    const { apiKey } = await world.t.signup();
    for (const extra of [
      { authUrl: 'https://evil.example/oauth' },
      { redirectUri: 'https://evil.example/cb' },
      { redirect_uri: 'https://evil.example/cb' },
    ]) {
      const res = await world.t.request('POST', '/v1/channels/platformA/connect', {
        key: apiKey,
        body: extra,
      });
      expect(res.status, JSON.stringify(extra)).toBe(400);
    }
    const res = await world.t.request(
      'POST',
      '/v1/channels/platformA/connect?redirect_uri=https://evil.example/cb',
      {
        key: apiKey,
      },
    );
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${world.sandbox.platformA.authUrl}/authorization`);
    expect(url.searchParams.get('redirect_uri')).toBe(world.redirectUri);
  });

  it('the callback ignores addresses in its query and exchanges the code with the configured redirect URI', async () => {
    const { apiKey } = await world.t.signup();
    const { back } = await authorize(world, apiKey);
    const search = `${back.search}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&token_url=${encodeURIComponent('http://127.0.0.1:1/')}`;
    // The sandbox refuses an exchange whose redirect_uri differs from the authorization's.
    const res = await world.t.request('GET', `/v1/channels/platformA/callback${search}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.channel.status).toBe('connected');
  });

  it('the platform base addresses must be URLs', () => {
    for (const bad of ['not a url', '/relative/path', '']) {
      expect(() => configWith({ PLATFORMA_API_URL: bad }), bad).toThrow(ConfigError);
      expect(() => configWith({ PLATFORMA_AUTH_URL: bad }), bad).toThrow(ConfigError);
    }
  });
});

describe('the sandbox is a separate server', () => {
  it('its admin surface is not reachable through the API port', async () => {
    const sandbox = await startSandbox({});
    try {
      const admin = await fetch(`${sandbox.url}/_sandbox/state`);
      expect(admin.status).not.toBe(404);
      expect((await t.request('GET', '/_sandbox/state', { key })).status).toBe(404);
    } finally {
      await sandbox.close();
    }
  });
});
