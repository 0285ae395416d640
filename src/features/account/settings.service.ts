import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { accounts, apiKeys, members } from '../../db/schema/index.ts';
import { Conflict, Invalid, NotFound } from '../../domain/errors.ts';
import { canonicalZone } from '../../lib/zoned-time.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Account } from './account.schemas.ts';
import type {
  AccountSettings,
  ApprovalsSetting,
  UpdateAccountRequest,
  UpdateSettingsRequest,
} from './settings.schemas.ts';

/** The account's time zone: the default of queues, series and insights where the caller names none. */
export async function accountZone(db: DbOrTx, accountId: string): Promise<string> {
  const [row] = await db
    .select({ timezone: accounts.timezone })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row?.timezone ?? 'UTC';
}

/** The stored setting as the API says it: anything but `required` is `off`. */
export const approvalsOf = (stored: string | null | undefined): ApprovalsSetting =>
  stored === 'required' ? 'required' : 'off';

/** Whether the workspace holds editors' posts for review (approvals/approval-gate.ts asks it). */
export async function approvalsSetting(db: DbOrTx, accountId: string): Promise<ApprovalsSetting> {
  const [row] = await db
    .select({ approvals: accounts.approvals })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return approvalsOf(row?.approvals);
}

export async function getSettings({ ctx }: Call<void>): Promise<AccountSettings> {
  const [row] = await ctx.deps.db
    .select({ timezone: accounts.timezone, approvals: accounts.approvals })
    .from(accounts)
    .where(eq(accounts.id, ctx.caller.accountId));
  return { timezone: row?.timezone ?? 'UTC', approvals: approvalsOf(row?.approvals) };
}

/**
 * Changes the fields present (an owner or admin: the route's role). `approvals: required` holds
 * editors' posts for review from the next request on (approvals/approval-gate.ts). A zone is stored by its
 * canonical IANA name (400 at `timezone` otherwise).
 */
export async function updateSettings({ ctx, input }: Call<UpdateSettingsRequest>): Promise<AccountSettings> {
  const changes: { timezone?: string; approvals?: ApprovalsSetting } = {};
  if (input.timezone !== undefined) {
    const zone = canonicalZone(input.timezone);
    if (!zone)
      throw new Invalid(`Unknown time zone "${input.timezone}"; use an IANA name such as Europe/Paris.`, [
        { path: 'timezone', message: 'Not an IANA time zone' },
      ]);
    changes.timezone = zone;
  }
  if (input.approvals !== undefined) changes.approvals = input.approvals;
  if (Object.keys(changes).length > 0)
    await ctx.deps.db.transaction(async (tx) => {
      const accountId = ctx.caller.accountId;
      await tx.update(accounts).set(changes).where(eq(accounts.id, accountId));
      await recordAudit(tx, ctx.caller, {
        action: 'settings.changed',
        target: accountId,
        at: ctx.deps.clock.now(),
      });
    });
  return getSettings({ ctx, input: undefined });
}

/**
 * Changes the account's email (and its owner member's, where it was the same address); 409
 * email_taken when another account has it (any case). Every
 * key of the account leaves every process's auth cache, so whoami tells the new email at once.
 */
export async function updateAccount({ ctx, input }: Call<UpdateAccountRequest>): Promise<Account> {
  const email = input.email.trim();
  const accountId = ctx.caller.accountId;
  const taken = await ctx.deps.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.emailKey, email.toLowerCase()), ne(accounts.id, accountId)));
  if (taken.length > 0) throw emailTaken();
  const row = await ctx.deps.db
    .transaction(async (tx) => {
      const [before] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for('update');
      if (!before) throw new NotFound('Account');
      // The owner signed up with the account's email: their member record moves with it.
      await tx
        .update(members)
        .set({ email, emailKey: email.toLowerCase() })
        .where(
          and(
            eq(members.accountId, accountId),
            eq(members.role, 'owner'),
            eq(members.emailKey, before.emailKey),
          ),
        );
      const [after] = await tx
        .update(accounts)
        .set({ email, emailKey: email.toLowerCase() })
        .where(eq(accounts.id, accountId))
        .returning();
      await recordAudit(tx, ctx.caller, {
        action: 'settings.changed',
        target: accountId,
        at: ctx.deps.clock.now(),
      });
      return after!;
    })
    // Two accounts racing for one email: the unique index decides, and the loser hears why.
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw emailTaken();
      throw err;
    });
  const keys = await ctx.deps.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  for (const key of keys) await ctx.deps.authCache.announceRevocation(ctx.deps.kv, key.id);
  return { id: row.id, email: row.email, plan: row.plan };
}

/** PostgreSQL's unique_violation, as the driver or Drizzle's wrapper (its `cause`) carries it. */
const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

const emailTaken = () =>
  new Conflict('email_taken', 'Another account already uses that email; choose another one.');
