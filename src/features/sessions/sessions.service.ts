import { and, eq, isNotNull, lte, ne } from 'drizzle-orm';
import { requireScopeSet } from '../../caller.ts';
import type { AppDeps, Call, Caller, PublicCtx } from '../../context.ts';
import { accounts, members, sessions } from '../../db/schema/index.ts';
import { Conflict, Invalid, NotFound, Unauthenticated } from '../../domain/errors.ts';
import { scopesForRole } from '../../domain/roles.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { toMember } from '../members/member-row.ts';
import { csrfTokenOf, newSessionToken, SESSION_TTL_MS, sessionDigest } from './session-token.ts';
import type { SessionResult, SetPasswordRequest, SignInRequest } from './sessions.schemas.ts';

/*
 * Console sign-in with email and password. API keys stay for programs: a session acts as its
 * member with everything the member's role allows, for the console, through an httpOnly cookie
 * and a CSRF token (src/http/auth.ts checks both on every request).
 */

/**
 * Checked when no member has the email, so an unknown email takes as long as a wrong password:
 * the hash of a random password nobody kept, at the cost hashPassword uses.
 */
const DECOY_HASH = 'scrypt$32768$8$1$oPTz6xAaEP5nLWUGHPT+sw==$jsurBlyVcVm20srGD3sqkyLoYJztxi2Wmp5DEagGCT8=';

const badCredentials = () =>
  new Unauthenticated(
    'invalid_credentials',
    'That email and password do not match a member who set a password. Check both, or ask an owner or admin of your workspace for a new invitation.',
  );

/**
 * Signs a member in: the members of any workspace with this email and a password are checked
 * (scrypt, src/lib/password.ts); one match starts a session, several need `accountId`. The route
 * spends the sign-in budgets before this runs.
 */
export async function signIn({
  ctx,
  input,
}: Call<SignInRequest, PublicCtx>): Promise<{ token: string; result: SessionResult }> {
  const { db, clock } = ctx.deps;
  const emailKey = input.email.trim().toLowerCase();
  const found = await db
    .select({ member: members, account: { id: accounts.id, email: accounts.email, plan: accounts.plan } })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(
      and(
        eq(members.emailKey, emailKey),
        isNotNull(members.passwordHash),
        input.accountId === undefined ? undefined : eq(members.accountId, input.accountId),
      ),
    );
  if (found.length === 0) {
    await verifyPassword(input.password, DECOY_HASH);
    throw badCredentials();
  }
  const matches: typeof found = [];
  for (const candidate of found)
    if (await verifyPassword(input.password, candidate.member.passwordHash!)) matches.push(candidate);
  if (matches.length === 0) throw badCredentials();
  if (matches.length > 1)
    throw new Conflict(
      'workspace_required',
      'This email and password sign in to several workspaces; choose one and send its accountId.',
      { about: { workspaces: matches.map((m) => ({ accountId: m.account.id, email: m.account.email })) } },
    );
  const { member, account } = matches[0]!;
  const token = newSessionToken();
  const now = clock.now();
  // The member's expired sessions go as a new one starts, so the table does not only grow.
  await db.delete(sessions).where(and(eq(sessions.memberId, member.id), lte(sessions.expiresAt, now)));
  const [row] = await db
    .insert(sessions)
    .values({
      id: newId('session'),
      accountId: account.id,
      memberId: member.id,
      tokenHash: sessionDigest(token),
      createdAt: now,
      expiresAt: now + SESSION_TTL_MS,
    })
    .returning();
  return {
    token,
    result: {
      session: { id: row!.id, createdAt: row!.createdAt, expiresAt: row!.expiresAt },
      account,
      member: toMember(member),
      csrfToken: csrfTokenOf(token),
    },
  };
}

/**
 * The caller a session cookie stands for, read from the database on every request (no cache):
 * a session ended, expired or whose member was removed stops at once in every process, and a
 * role change applies to the next request. Null when there is no such live session.
 */
export async function callerForSession(deps: AppDeps, token: string): Promise<Caller | null> {
  const [row] = await deps.db
    .select({ session: sessions, member: members, plan: accounts.plan })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(eq(sessions.tokenHash, sessionDigest(token)));
  if (!row || row.session.expiresAt <= deps.clock.now()) return null;
  return {
    accountId: row.session.accountId,
    keyId: null,
    plan: row.plan,
    memberId: row.member.id,
    role: row.member.role,
    scopes: scopesForRole(row.member.role),
    session: {
      id: row.session.id,
      createdAt: row.session.createdAt,
      expiresAt: row.session.expiresAt,
      csrfToken: csrfTokenOf(token),
    },
  };
}

const notASession = () =>
  new NotFound('Session', [
    {
      path: 'cookie',
      message: 'This request is authenticated with an API key, not a console session; keys need no sign-out',
    },
  ]);

/** DELETE /v1/sessions: ends the calling session (the route clears the cookie). */
export async function signOut({ ctx }: Call<void>): Promise<{ deleted: boolean }> {
  const session = ctx.caller.session;
  if (!session) throw notASession();
  await ctx.deps.db
    .delete(sessions)
    .where(and(eq(sessions.id, session.id), eq(sessions.accountId, ctx.caller.accountId)));
  return { deleted: true };
}

/**
 * PUT /v1/account/password: the calling member sets or changes their console password, so an
 * owner (who signed up with an email only) can sign in to the console too. Changing a password
 * needs the current one; the member's other sessions end. A key narrower than its member's
 * role cannot do it: a session would act with the whole role.
 */
export async function setPassword({
  ctx,
  input,
}: Call<SetPasswordRequest>): Promise<{ passwordSet: true; signedOut: number }> {
  const { caller } = ctx;
  requireScopeSet(caller, scopesForRole(caller.role), 'Setting a console password');
  const [member] = await ctx.deps.db
    .select({ passwordHash: members.passwordHash })
    .from(members)
    .where(and(eq(members.id, caller.memberId), eq(members.accountId, caller.accountId)));
  if (!member) throw new NotFound('Member');
  if (member.passwordHash !== null) {
    if (input.currentPassword === undefined)
      throw new Invalid('You already have a password: send it as currentPassword to change it.', [
        { path: 'currentPassword', message: 'Required to change a password' },
      ]);
    if (!(await verifyPassword(input.currentPassword, member.passwordHash)))
      throw new Invalid('The current password is wrong.', [
        { path: 'currentPassword', message: 'Does not match your password' },
      ]);
  }
  const passwordHash = await hashPassword(input.password);
  const ended = await ctx.deps.db.transaction(async (tx) => {
    await tx.update(members).set({ passwordHash }).where(eq(members.id, caller.memberId));
    const keep = caller.session ? ne(sessions.id, caller.session.id) : undefined;
    return tx
      .delete(sessions)
      .where(and(eq(sessions.memberId, caller.memberId), keep))
      .returning({ id: sessions.id });
  });
  return { passwordSet: true, signedOut: ended.length };
}
