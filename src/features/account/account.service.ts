import { eq } from 'drizzle-orm';
import type { Call, Ctx, PublicCtx } from '../../context.ts';
import { accounts, members } from '../../db/schema/index.ts';
import { Conflict, NotFound } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { ApiKey } from '../keys/keys.schemas.ts';
import { getCallingKey, issueKey } from '../keys/keys.service.ts';
import { insertMember, toMember } from '../members/member-row.ts';
import type { Member } from '../members/members.schemas.ts';
import type { Account, CreateAccountRequest, CreateAccountResult } from './account.schemas.ts';

const toAccount = (row: typeof accounts.$inferSelect): Account => ({
  id: row.id,
  email: row.email,
  plan: row.plan,
});

/**
 * Creates an account, its creator as its owner and the owner's first key in one transaction;
 * 409 when the email (any case) has an account.
 */
export async function createAccount({
  ctx,
  input,
}: Call<CreateAccountRequest, PublicCtx>): Promise<CreateAccountResult> {
  const now = ctx.deps.clock.now();
  const email = input.email.trim();
  return ctx.deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(accounts)
      .values({ id: newId('account'), email, emailKey: email.toLowerCase(), plan: 'free', createdAt: now })
      .onConflictDoNothing({ target: accounts.emailKey })
      .returning();
    if (!row)
      throw new Conflict(
        'email_taken',
        'An account already exists for that email: sign in with a key you saved, or, on a self-hosted Postkit, ask its operator for a new key (npm run key:issue -- --email <your email>).',
      );
    const owner = await insertMember(tx, { accountId: row.id, email, name: null, role: 'owner', now });
    const { key, apiKey } = await issueKey(
      tx,
      { accountId: row.id, memberId: owner!.id },
      input.name ?? 'default',
      now,
    );
    return { account: toAccount(row), member: toMember(owner!), key, apiKey };
  });
}

export async function getAccount(ctx: Ctx): Promise<Account> {
  const [row] = await ctx.deps.db.select().from(accounts).where(eq(accounts.id, ctx.caller.accountId));
  if (!row) throw new NotFound('Account');
  return toAccount(row);
}

async function getCallingMember(ctx: Ctx): Promise<Member> {
  const [row] = await ctx.deps.db.select().from(members).where(eq(members.id, ctx.caller.memberId));
  if (!row) throw new NotFound('Member');
  return toMember(row);
}

/** The account, calling member and calling key, as authenticated for this request (one read in all). */
export async function whoami({ ctx }: Call<void>): Promise<{
  account: Account;
  member: Member;
  key: ApiKey | null;
  session?: NonNullable<Ctx['caller']['session']>;
}> {
  if (ctx.caller.snapshot) return ctx.caller.snapshot;
  const { session } = ctx.caller;
  const [account, member, key] = await Promise.all([
    getAccount(ctx),
    getCallingMember(ctx),
    session ? null : getCallingKey(ctx),
  ]);
  return session ? { account, member, key, session } : { account, member, key };
}
