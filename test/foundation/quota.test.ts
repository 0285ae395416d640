import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../../src/context.ts';
import {
  consumeModelOperation,
  modelOperationsUsed,
  refundModelOperation,
} from '../../src/features/account/quota.ts';
import { AppError, toAppError } from '../../src/http/errors.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_MODEL_QUOTA: '5' });
});
afterAll(async () => {
  await t?.close();
});

const ctxFor = (accountId: string, keyId: string, now = Date.now()): Ctx => ({
  deps: { ...t.service.deps, clock: { now: () => now } },
  caller: {
    accountId,
    keyId,
    plan: 'free',
    memberId: 'test',
    role: 'owner',
    scopes: ['read', 'write', 'publish'],
  },
  requestId: 'test',
  log: t.service.deps.log,
});

describe('monthly model quota', () => {
  it('admits exactly the quota under concurrency, then 402 quota_exceeded', async () => {
    const { accountId, keyId } = await t.signup();
    const ctx = ctxFor(accountId, keyId);
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => consumeModelOperation(ctx)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(7);
    for (const r of rejected) {
      const answer = toAppError(r.reason);
      expect(answer).toBeInstanceOf(AppError);
      expect(answer?.status).toBe(402);
      expect(answer?.code).toBe('quota_exceeded');
    }
    expect(await modelOperationsUsed(ctx)).toBe(5);
  });

  it('gives a refunded operation back and starts afresh each calendar month (UTC)', async () => {
    const { accountId, keyId } = await t.signup();
    const november = ctxFor(accountId, keyId, Date.UTC(2026, 10, 30, 23, 59));
    for (let i = 0; i < 5; i++) await consumeModelOperation(november);
    await expect(
      consumeModelOperation(november).catch((e: unknown) => Promise.reject(toAppError(e))),
    ).rejects.toMatchObject({
      status: 402,
    });
    await refundModelOperation(november);
    await consumeModelOperation(november);
    const december = ctxFor(accountId, keyId, Date.UTC(2026, 11, 1, 0, 0));
    await consumeModelOperation(december);
    expect(await modelOperationsUsed(december)).toBe(1);
  });
});
