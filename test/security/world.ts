import { randomBytes } from 'node:crypto';
import { eq, isNotNull } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  apiKeys,
  channels,
  media,
  members as memberRows,
  oauthStates,
  oauthTokens,
  posts,
  webhooks,
} from '../../src/db/schema/index.ts';
import { insertMember } from '../../src/features/members/member-row.ts';
import { sha256Hex } from '../../src/lib/hash.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { startSandbox } from '../../src/sandbox/sandbox.ts';
import { issuedSecrets, testClock } from '../channels/helpers.ts';
import type { TestApp, TestResponse } from '../helpers/app.ts';
import { connectApp, newClient, pkcePair, startConsent } from '../mcp/oauth-helpers.ts';
import { sampleFile } from '../media/fixtures.ts';
import { B_REDIRECT } from '../platforms/platformB-world.ts';
import { type PostWorld, startPostWorld } from '../posts/world.ts';
import { type Doc, templateOf } from './openapi.ts';

/**
 * Two tenants on one service with the sandbox platform: each with a connected channel, a brand,
 * a voice, media, a webhook, a second key and posts in several states. Every response the
 * service gives during a test is recorded and can be scanned for secret material.
 */

export interface Tenant {
  label: string;
  /** A string planted in the tenant's data; it must never reach another tenant. */
  marker: string;
  apiKey: string;
  accountId: string;
  /** The owner's console password (set with PUT /v1/account/password). */
  password: string;
  /**
   * A member who signs in to the console: an editor whose email nothing changes (PATCH
   * /v1/account moves the owner's), with a password set by a hash written directly.
   */
  signIn: { email: string; password: string };
  keyId: string;
  secondKeyId: string;
  channelId: string;
  brandId: string;
  voiceId: string;
  mediaId: string;
  webhookId: string;
  /** Drafts, one per operation that changes a post, so owner checks do not interfere. */
  drafts: Record<'read' | 'edit' | 'remove' | 'publish' | 'schedule' | 'cancel', string>;
  /** Drafts for the review operations: one never submitted, two submitted for review. */
  reviews: Record<'submit' | 'approve' | 'changes', string>;
  /** Published, with a metric snapshot and a recorded score. */
  publishedId: string;
  /** An imported history entry. */
  historyId: string;
  /** Scheduled (two days out) and left scheduled, for the operations that revise a scheduled post. */
  scheduledId: string;
  /** A recurring series (weekly, three occurrences) on the tenant's channel. */
  seriesId: string;
  /** Post groups of one draft on the tenant's channel, one per group operation. */
  groups: Record<'read' | 'cancel' | 'publish', string>;
  /** Members besides the owner (editors), one per operation that changes a member. */
  members: Record<'change' | 'remove' | 'issue', string>;
  /** Saved plans (brief and items carry the marker), one per operation on a plan. */
  plans: Record<'read' | 'remove' | 'drafts', string>;
  /** A pending invitation, for the operations on one. */
  invitationId: string;
  /** A fresh invitation token each call, from a pool made up front (tokens are single use). */
  nextInvitationToken(): string;
  /** A pending invitation's token that no test accepts: previewing does not use it up. */
  previewToken: string;
  /** The client id of an OAuth app the tenant connected (approved and exchanged). */
  oauthAppId: string;
  /**
   * A fresh, unanswered OAuth consent request each call (one-shot: approve and deny consume it).
   * Drawn from a pool made up front, since request builders are synchronous.
   */
  nextOauthRequest(): string;
}

/** Starts an OAuth authorization for a newly registered app and returns its consent request id. */
export async function pendingOauthRequest(t: TestApp, clientId?: string): Promise<string> {
  return startConsent(t, clientId ?? (await newClient(t, 'Security Agent')), pkcePair().challenge);
}

export interface Recorded {
  method: string;
  path: string;
  /** The documented operation, e.g. `GET /v1/posts/{id}`, or null for undocumented paths. */
  template: string | null;
  status: number;
  contentType: string;
  body: unknown;
  text: string;
}

export interface SecurityWorld {
  w: PostWorld;
  t: TestApp;
  doc: Doc;
  a: Tenant;
  b: Tenant;
  /** Every response so far, in order. */
  recorded: Recorded[];
  /** A request path -> whether any of the tenant's identifiers or its marker appear in it. */
  leaksOf(tenant: Tenant, text: string): string[];
  /** Fails with every secret found in a response recorded since the last call. */
  assertNoLeaks(): Promise<void>;
  close(): Promise<void>;
}

export const hour = 3_600_000;

/** A plan item as POST /v1/plan returns it, for saving plans without spending model quota. */
export const planItem = (words: string, slot = 1) => ({
  slot,
  pillar: 'Releases',
  hook: `${words}: what we shipped this week.`,
  angle: `Tell the story of ${words}, in order.`,
  format: 'none',
  archetype: 'story',
  evidence: null,
  when: null,
});

/** Field names that are storage or bookkeeping and must never be rendered. */
export const FORBIDDEN_FIELDS = [
  'keyHash',
  'secretSealed',
  'accessToken',
  'refreshToken',
  'accessTokenSealed',
  'refreshTokenSealed',
  'refreshExpiresAt',
  'refreshLeaseUntil',
  'lastCheckedAt',
  'storageKey',
  'claimedBy',
  'claimedAt',
  'createSentAt',
  'publishAttempts',
  'retryAt',
  'metricsPolledAt',
  'codeVerifier',
  'codeVerifierSealed',
  'stateHash',
  'emailKey',
  'passwordHash',
  'tokenHash',
];

/** Where a plaintext secret may appear: the one response that issues it, at that field only. */
const ISSUING: Record<string, string[]> = {
  'POST /v1/account': ['apiKey'],
  'POST /v1/keys': ['apiKey'],
  'POST /v1/keys/{id}/rotate': ['apiKey'],
  'POST /v1/members/{id}/keys': ['apiKey'],
  'POST /v1/invitations': ['acceptUrl'],
  'POST /v1/invitations/accept': ['apiKey'],
  'POST /v1/webhooks': ['secret'],
  // The OAuth state is handed to the client to forward to the member's browser.
  'POST /v1/channels/platformA/connect': ['state', 'url'],
  'POST /v1/channels/platformB/connect': ['state', 'url'],
};

const FULL_API_KEY = /kit_sk_[0-9A-Za-z]{38}/;
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9_-]{20,}/;
/** A console session's secret: only ever in its Set-Cookie header, never in a body. */
const SESSION_SECRET = /kit_ses_[0-9A-Za-z]{43}/;
const SEALED = /v1\.[0-9a-f]{12}\.[\w-]+\.[\w-]+\.[\w-]+/;

async function json(res: TestResponse, status: number) {
  expect(res.status, res.text).toBe(status);
  return res.body;
}

async function makeTenant(w: PostWorld, label: string): Promise<Tenant> {
  const t = w.t;
  const marker = `${label}secret${randomBytes(5).toString('hex')}`;
  const m = await w.member();
  const key = m.apiKey;
  const as = (method: string, path: string, body?: unknown) => t.request(method, path, { key, body });
  const password = `${marker} console password`;
  await json(await as('PUT', '/v1/account/password', { password }), 200);

  const brand = await json(
    await as('POST', '/v1/brands', {
      name: `${marker} brand`,
      description: marker,
      audience: marker,
      themes: [marker],
      linkPolicy: marker,
    }),
    201,
  );
  const voice = await json(
    await as('POST', '/v1/voices', { name: `${marker} voice`, brandId: brand.brand.id, traits: [marker] }),
    201,
  );
  const upload = await t.request('POST', `/v1/media?brandId=${brand.brand.id}`, {
    key,
    raw: sampleFile.png(2048),
    headers: { 'content-type': 'image/png', 'x-filename': `${marker}.png` },
  });
  const mediaId = (await json(upload, 201)).media.id as string;
  const webhook = await json(
    await as('POST', '/v1/webhooks', { url: `https://hooks.example.com/${marker}` }),
    201,
  );
  const second = await json(await as('POST', '/v1/keys', { name: `${marker} key` }), 201);
  const member = async (what: string) => {
    const row = await insertMember(t.service.deps.db, {
      accountId: m.accountId,
      email: `${marker}-${what}@agency.example`,
      name: `${marker} ${what}`,
      role: 'editor',
      now: Date.now(),
    });
    return row!.id;
  };
  const signIn = { email: `${marker}-console@agency.example`, password: `${marker} editor password` };
  const signInId = await member('console');
  await t.service.deps.db
    .update(memberRows)
    .set({ passwordHash: await hashPassword(signIn.password) })
    .where(eq(memberRows.id, signInId));
  const members = {
    change: await member('change'),
    remove: await member('remove'),
    issue: await member('issue'),
  };
  const invite = async (i: number | string) =>
    json(
      await as('POST', '/v1/invitations', { email: `${marker}-invitee${i}@agency.example`, role: 'viewer' }),
      201,
    );
  const invitationId = (await invite('kept')).invitation.id as string;
  const previewToken = decodeURIComponent((await invite('preview')).acceptUrl.split('?token=')[1]!);
  const tokens: string[] = [];
  for (let i = 0; i < 80; i++)
    tokens.push(decodeURIComponent((await invite(i)).acceptUrl.split('?token=')[1]!));

  const draft = async (what: string) =>
    (
      await json(
        await as('POST', '/v1/posts', {
          text: `${marker} ${what}`,
          channelId: m.channelId,
          brandId: brand.brand.id,
          mediaIds: [mediaId],
        }),
        201,
      )
    ).post.id as string;
  const drafts = {
    read: await draft('read'),
    edit: await draft('edit'),
    remove: await draft('remove'),
    publish: await draft('publish'),
    schedule: await draft('schedule'),
    cancel: await draft('cancel'),
  };
  const submitted = async (what: string) => {
    const id = await draft(what);
    await json(await as('POST', `/v1/posts/${id}/submit`, {}), 200);
    return id;
  };
  const reviews = {
    submit: await draft('submit'),
    approve: await submitted('approve'),
    changes: await submitted('changes'),
  };
  const publishedId = await draft('published');
  expect((await json(await as('POST', `/v1/posts/${publishedId}/publish`), 200)).post.status).toBe(
    'published',
  );
  await json(await as('POST', `/v1/posts/${publishedId}/metrics/refresh`), 200);
  await json(await as('POST', `/v1/posts/${publishedId}/score`), 200);
  await json(
    await as('POST', '/v1/history', {
      items: [{ text: `${marker} history`, reactions: 3, publishedAt: '2025-01-02' }],
    }),
    201,
  );
  const history = await json(await as('GET', '/v1/history'), 200);
  const historyId = history.history.find((h: { source: string }) => h.source === 'import').id as string;
  await json(
    await as('PUT', `/v1/channels/${m.channelId}/queue`, {
      timezone: 'UTC',
      slots: [
        { day: 1, time: '09:00' },
        { day: 4, time: '15:30' },
      ],
    }),
    200,
  );
  const scheduledId = await draft('scheduled');
  await json(await as('POST', `/v1/posts/${scheduledId}/schedule`, { runAt: Date.now() + 48 * hour }), 200);
  const series = await json(
    await as('POST', '/v1/posts', {
      text: `${marker} series`,
      channelId: m.channelId,
      runAt: Date.now() + 72 * hour,
      repeat: { every: { unit: 'week', n: 1 }, count: 3 },
    }),
    201,
  );
  const group = async (what: string) =>
    (
      await json(
        await as('POST', '/v1/post-groups', {
          variants: [{ channelId: m.channelId, text: `${marker} group ${what}` }],
        }),
        201,
      )
    ).group.id as string;
  const groups = {
    read: await group('read'),
    cancel: await group('cancel'),
    publish: await group('publish'),
  };
  const plan = async (what: string) =>
    (
      await json(
        await as('POST', '/v1/plans', {
          brief: `${marker} plan ${what}`,
          channelId: m.channelId,
          items: [planItem(`${marker} ${what}`)],
        }),
        201,
      )
    ).plan.id as string;
  const plans = { read: await plan('read'), remove: await plan('remove'), drafts: await plan('drafts') };
  const oauthAppId = (await connectApp(t, key)).clientId;
  const consentClient = await newClient(t, `${label} consent`);
  const pending: string[] = [];
  for (let i = 0; i < 40; i++) pending.push(await pendingOauthRequest(t, consentClient));
  return {
    label,
    marker,
    apiKey: key,
    accountId: m.accountId,
    password,
    signIn,
    keyId: (await json(await as('GET', '/v1/account'), 200)).key.id,
    secondKeyId: second.key.id,
    channelId: m.channelId,
    brandId: brand.brand.id,
    voiceId: voice.voice.id,
    mediaId,
    webhookId: webhook.webhook.id,
    drafts,
    reviews,
    publishedId,
    historyId,
    scheduledId,
    seriesId: series.series.id as string,
    groups,
    plans,
    members,
    invitationId,
    previewToken,
    nextInvitationToken() {
      const token = tokens.shift();
      if (!token) throw new Error(`${label} has no invitation token left; make the pool larger`);
      return token;
    },
    oauthAppId,
    nextOauthRequest() {
      const id = pending.shift();
      if (!id) throw new Error(`${label} has no pending OAuth consent request left; make the pool larger`);
      return id;
    },
  };
}

/** Identifiers and the marker of a tenant, to look for in another tenant's responses. */
export function identifiersOf(tenant: Tenant): string[] {
  return [
    tenant.marker,
    tenant.accountId,
    tenant.keyId,
    tenant.secondKeyId,
    tenant.channelId,
    tenant.brandId,
    tenant.voiceId,
    tenant.mediaId,
    tenant.webhookId,
    tenant.publishedId,
    tenant.historyId,
    tenant.scheduledId,
    tenant.seriesId,
    ...Object.values(tenant.plans),
    tenant.oauthAppId,
    ...Object.values(tenant.drafts),
    ...Object.values(tenant.reviews),
    ...Object.values(tenant.groups),
    ...Object.values(tenant.members),
    tenant.invitationId,
  ];
}

/** Removes the fields a response is allowed to carry secrets in, so the rest can be scanned. */
function scannable(r: Recorded): string {
  const allowed = r.template ? ISSUING[`${r.method} ${r.template}`] : undefined;
  if (!allowed || r.status >= 300 || typeof r.body !== 'object' || r.body === null) return r.text;
  const copy = { ...(r.body as Record<string, unknown>) };
  for (const field of allowed) delete copy[field];
  return JSON.stringify(copy);
}

function forbiddenFieldsIn(value: unknown, found: Set<string>) {
  if (Array.isArray(value)) for (const v of value) forbiddenFieldsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (FORBIDDEN_FIELDS.includes(k)) found.add(k);
      forbiddenFieldsIn(v, found);
    }
  }
}

export async function startSecurityWorld(
  options: { env?: Record<string, string | undefined> } = {},
): Promise<SecurityWorld> {
  // Both platforms are configured against one sandbox, so every channel route is reachable.
  const clock = testClock();
  const sandbox = await startSandbox({ now: clock.now });
  const w = await startPostWorld({
    shared: { sandbox, clock },
    env: {
      FREE_PLAN_MODEL_QUOTA: '100000',
      ...sandbox.platformB.env(B_REDIRECT),
      PLATFORMB_BACKOFF_SCALE: '0.001',
      ...options.env,
    },
  });
  const t = w.t;
  const doc = (await t.request('GET', '/v1/openapi.json')).body;
  const recorded: Recorded[] = [];
  const original = t.request;
  t.request = async (method, path, opts) => {
    const res = await original(method, path, opts);
    recorded.push({
      method,
      path,
      template: templateOf(doc, method, path),
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      body: res.body,
      text: res.text,
    });
    return res;
  };

  const a = await makeTenant(w, 'alice');
  const b = await makeTenant(w, 'bob');
  let scanned = 0;

  /** Every secret the service holds or issued, read from its tables, the sandbox and the config. */
  async function secrets(): Promise<Map<string, string>> {
    const db = t.service.deps.db;
    const found = new Map<string, string>();
    const add = (label: string, value: string | null | undefined) => {
      if (value && value.length >= 8) found.set(value, label);
    };
    for (const k of await db.select({ h: apiKeys.keyHash }).from(apiKeys)) {
      add('api key digest', k.h);
      add('api key digest prefix (rate-limit key)', k.h.slice(0, 32));
    }
    for (const c of await db.select().from(channels)) {
      add('sealed access token', c.accessTokenSealed);
      add('sealed refresh token', c.refreshTokenSealed);
    }
    for (const h of await db.select({ s: webhooks.secretSealed }).from(webhooks))
      add('sealed webhook secret', h.s);
    for (const m of await db.select({ k: media.storageKey }).from(media)) add('storage key', m.k);
    for (const o of await db.select({ h: oauthTokens.tokenHash }).from(oauthTokens))
      add('oauth token or code digest', o.h);
    for (const s of await db.select().from(oauthStates)) {
      add('oauth state digest', s.stateHash);
      add('sealed PKCE verifier', s.codeVerifierSealed);
    }
    for (const p of await db.select({ by: posts.claimedBy }).from(posts).where(isNotNull(posts.claimedBy)))
      add('claim owner', p.by);
    add('claim owner (this process)', t.service.deps.instanceId);
    add('vault key', t.config.KIT_VAULT_KEY);
    add('platform client secret', t.config.PLATFORMA_CLIENT_SECRET);
    add('platformB client secret', t.config.PLATFORMB_CLIENT_SECRET);
    for (const s of issuedSecrets(w.sandbox)) add('sandbox-issued token, refresh token or code', s);
    // Plaintext secrets the service issued: allowed only in the response that issued them.
    for (const r of recorded) {
      const allowed = r.template ? ISSUING[`${r.method} ${r.template}`] : undefined;
      if (!allowed || r.status >= 300) continue;
      const body = r.body as Record<string, unknown>;
      if (typeof body.apiKey === 'string') {
        add('plaintext api key', body.apiKey);
        add('api key digest', sha256Hex(body.apiKey));
      }
      if (typeof body.secret === 'string') add('webhook signing secret', body.secret);
    }
    return found;
  }

  return {
    w,
    t,
    doc,
    a,
    b,
    recorded,
    leaksOf(tenant, text) {
      return identifiersOf(tenant).filter((id) => text.includes(id));
    },
    async assertNoLeaks() {
      const fresh = recorded.slice(scanned);
      scanned = recorded.length;
      const known = await secrets();
      const problems: string[] = [];
      for (const r of fresh) {
        const text = scannable(r);
        const where = `${r.method} ${r.path} -> ${r.status}`;
        for (const [value, label] of known) if (text.includes(value)) problems.push(`${where}: ${label}`);
        if (FULL_API_KEY.test(text)) problems.push(`${where}: a plaintext API key`);
        if (WEBHOOK_SECRET.test(text)) problems.push(`${where}: a webhook signing secret`);
        if (SESSION_SECRET.test(text)) problems.push(`${where}: a session secret`);
        if (SEALED.test(text)) problems.push(`${where}: a vault-sealed value`);
        const fields = new Set<string>();
        forbiddenFieldsIn(r.body, fields);
        for (const f of fields) problems.push(`${where}: field ${f}`);
      }
      expect(problems).toEqual([]);
    },
    async close() {
      t.request = original;
      await w.close();
      await sandbox.close();
    },
  };
}
