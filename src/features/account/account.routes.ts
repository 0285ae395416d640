import type { z } from 'zod';
import { spend } from '../../api/rate-limit.ts';
import { errorResponses } from '../../api/schemas.ts';
import type { Ctx } from '../../context.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { CreateAccountRequest, CreateAccountResult, WhoamiResult } from './account.schemas.ts';
import { createAccount, whoami } from './account.service.ts';
import {
  AccountResult,
  SettingsResult,
  UpdateAccountRequest,
  UpdateSettingsRequest,
} from './settings.schemas.ts';
import { getSettings, updateAccount, updateSettings } from './settings.service.ts';

const tags = ['account'];

/**
 * whoami answers from the caller's snapshot, cached with the key (src/api/auth-cache.ts). It is encoded
 * through the response schema once per snapshot and `lastUsedAt`, not on every request: this is
 * the hot path bench/api measures, and encoding was a tenth of its CPU. A string goes out as is.
 */
declare module '../../context.ts' {
  interface ProcessMemory {
    /** whoami's JSON per cached key snapshot, with the lastUsedAt it was encoded at. */
    whoamiJson: WeakMap<object, { lastUsedAt: number | null; json: string }>;
  }
}

/** The cached answer, when this snapshot was already encoded at its current lastUsedAt. */
function encodedWhoami(ctx: Ctx): string | undefined {
  const snapshot = ctx.caller.snapshot;
  const hit = snapshot && ctx.deps.memory.whoamiJson.get(snapshot);
  return hit && hit.lastUsedAt === snapshot.key.lastUsedAt ? hit.json : undefined;
}

function encodeWhoami(ctx: Ctx, result: z.input<typeof WhoamiResult>): string {
  const json = JSON.stringify(WhoamiResult.encode(result));
  const snapshot = ctx.caller.snapshot;
  if (snapshot) ctx.deps.memory.whoamiJson.set(snapshot, { lastUsedAt: snapshot.key.lastUsedAt, json });
  return json;
}

export const accountRoutes: FeatureRoutes = async (app, { deps }) => {
  app.post(
    '/v1/account',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Create an account',
        description:
          'Returns the account and its first API key; the plaintext key is shown only here. Limited per IP.',
        security: [],
        body: CreateAccountRequest,
        response: { 201: CreateAccountResult, ...errorResponses(400, 409, 429) },
      },
      // The per-IP budget is spent before the body is validated, so garbage also counts.
      onRequest: async (request, reply) => {
        await spend(
          deps.memory.budgetLeases,
          {
            key: `rl:signup:${request.ip}`,
            limit: deps.config.RATE_LIMIT_SIGNUPS_PER_HOUR,
            windowMs: 3_600_000,
            headerPrefix: 'x-ratelimit',
            label: 'account-creation',
          },
          reply,
          request.log,
        );
      },
    },
    async (request, reply) => {
      const ctx = { deps, requestId: request.id, log: request.log };
      return reply.status(201).send(await createAccount({ ctx, input: request.body }));
    },
  );

  app.get(
    '/v1/account',
    {
      config: { scope: 'any' },
      schema: {
        tags,
        summary: 'Who am I',
        description:
          'The account, the calling member (with its role) and the calling key, with the x-ratelimit-* headers.',
        response: { 200: WhoamiResult, ...errorResponses(401, 429) },
      },
    },
    // Not an async handler: the cached answer goes out without a promise.
    (request, reply) => {
      reply.type('application/json; charset=utf-8');
      const { ctx } = request;
      const cached = encodedWhoami(ctx);
      if (cached) {
        reply.send(cached as never);
        return;
      }
      whoami({ ctx, input: undefined }).then(
        (result) => reply.send(encodeWhoami(ctx, result) as never),
        (err) => reply.send(err),
      );
    },
  );

  app.patch(
    '/v1/account',
    {
      config: { scope: 'write', role: 'owner' },
      schema: {
        tags,
        summary: 'Change the account email',
        description:
          'The owner changes the email the account is known by (unique, compared case-insensitively; 409 email_taken when another account has it), and the owner member’s email with it. The keys stay as they are.',
        body: UpdateAccountRequest,
        response: { 200: AccountResult, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => ({ account: await updateAccount({ ctx: request.ctx, input: request.body }) }),
  );

  app.get(
    '/v1/account/settings',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Account settings',
        description:
          "The account's settings: `timezone`, the IANA zone used where a request names none (a new queue, a recurring series without its own zone, insights, queue suggestions), UTC until set; `approvals`, `required` when an editor's posts wait for an owner's or admin's approval before they are scheduled or published, `off` until set.",
        response: { 200: SettingsResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ settings: await getSettings({ ctx: request.ctx, input: undefined }) }),
  );

  app.patch(
    '/v1/account/settings',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Change account settings',
        description:
          'An admin or the owner changes them; only the fields present change. `timezone` must be an IANA name (Europe/Paris), stored by its canonical spelling; 400 at `timezone` otherwise. Queues and series already set keep their own zones. `approvals: required` holds editors’ schedule, publish, queue, series, group and bulk requests for posts not approved (409 approval_required) from the next request on.',
        body: UpdateSettingsRequest,
        response: { 200: SettingsResult, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ settings: await updateSettings({ ctx: request.ctx, input: request.body }) }),
  );
};
