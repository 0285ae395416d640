import { and, eq, isNull } from 'drizzle-orm';
import type { Call, PublicCtx } from '../../context.ts';
import { accounts, invitations, members } from '../../db/schema/index.ts';
import { Conflict, NotFound } from '../../domain/errors.ts';
import { type Role, scopesForRole } from '../../domain/roles.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { newId, randomBase62 } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/password.ts';
import { approvalsOf } from '../account/settings.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { issueKey } from '../keys/keys.service.ts';
import { insertMember, toMember } from '../members/member-row.ts';
import { requireManageable } from '../members/members.service.ts';
import { listOwned, requireOwned } from '../tenancy.ts';
import { mailInvitation } from './invitation-mail.ts';
import type {
  AcceptInvitationRequest,
  AcceptInvitationResult,
  CreateInvitationResult,
  Invitation,
  InvitationPreview,
} from './invitations.schemas.ts';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
const TOKEN_PREFIX = 'kit_inv_';

type InvitationRow = typeof invitations.$inferSelect;

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  expiresAt: row.expiresAt,
  acceptedAt: row.acceptedAt,
});

/** The console page that accepts an invitation (web/src/pages/Join.tsx, a hash route), with the token. */
export const acceptUrlOf = (baseUrl: string, token: string) =>
  `${baseUrl}/#/join?token=${encodeURIComponent(token)}`;

/**
 * Invites a person by email with a role; only an owner invites an owner. A second invitation
 * for the same email replaces the pending one, so one link at a time works for a person.
 */
export async function createInvitation({
  ctx,
  input,
}: Call<{ email: string; role: Role; baseUrl: string }>): Promise<CreateInvitationResult> {
  requireManageable(ctx.caller, { role: 'viewer' }, input.role);
  const { accountId } = ctx.caller;
  const email = input.email.trim();
  const emailKey = email.toLowerCase();
  const now = ctx.deps.clock.now();
  const token = `${TOKEN_PREFIX}${randomBase62(32)}`;
  const row = await ctx.deps.db.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.accountId, accountId), eq(members.emailKey, emailKey)));
    if (member)
      throw new Conflict(
        'already_member',
        `${email} is already a member of this workspace; change their role instead.`,
      );
    await tx
      .delete(invitations)
      .where(
        and(
          eq(invitations.accountId, accountId),
          eq(invitations.emailKey, emailKey),
          isNull(invitations.acceptedAt),
        ),
      );
    const [created] = await tx
      .insert(invitations)
      .values({
        id: newId('invitation'),
        accountId,
        email,
        emailKey,
        role: input.role,
        tokenHash: sha256Hex(token),
        invitedBy: ctx.caller.memberId,
        createdAt: now,
        expiresAt: now + INVITATION_TTL_MS,
      })
      .returning();
    await recordAudit(tx, ctx.caller, { action: 'member.invited', target: created!.id, at: now });
    return created!;
  });
  const acceptUrl = acceptUrlOf(input.baseUrl, token);
  const mailed = await mailInvitation(ctx, {
    to: row.email,
    role: row.role,
    acceptUrl,
    expiresAt: row.expiresAt,
    baseUrl: input.baseUrl,
  });
  return { invitation: toInvitation(row), acceptUrl, mailed };
}

export async function listInvitations({ ctx }: Call<void>): Promise<Invitation[]> {
  return (await listOwned(ctx, invitations)).map(toInvitation);
}

export async function getInvitation({ ctx, input }: Call<{ id: string }>): Promise<Invitation> {
  return toInvitation(await requireOwned(ctx, invitations, input.id, 'Invitation'));
}

/** Withdraws an invitation: its link stops working. An accepted one is only forgotten; the member stays. */
export async function deleteInvitation({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: boolean }> {
  const row = await requireOwned(ctx, invitations, input.id, 'Invitation');
  await ctx.deps.db.delete(invitations).where(eq(invitations.id, row.id));
  return { deleted: true };
}

const unknownLink = () =>
  new NotFound('Invitation', [
    { path: 'token', message: 'No invitation has this token; it may have been withdrawn' },
  ]);

/**
 * The one rule for whether a link still works, for the preview and the acceptance alike: an
 * unknown or withdrawn token is 404, a used one or an expired one 409. Nothing about the
 * workspace is told for a link that no longer works.
 */
function requireUsable(row: InvitationRow | undefined, now: number): asserts row is InvitationRow {
  if (!row) throw unknownLink();
  if (row.acceptedAt !== null)
    throw new Conflict('invitation_used', 'This invitation has already been accepted; ask for a new one.');
  if (row.expiresAt <= now)
    throw new Conflict(
      'invitation_expired',
      'This invitation expired (they last 7 days); ask for a new one.',
    );
}

/**
 * What the person holding a link may see before joining: the workspace, who invited them, the
 * role and the address they join with (what the invitation mail tells them). The token is the
 * credential, as for accepting it.
 */
export async function previewInvitation({
  ctx,
  input,
}: Call<{ token: string }, PublicCtx>): Promise<InvitationPreview> {
  const [found] = await ctx.deps.db
    .select({
      invitation: invitations,
      workspace: accounts.email,
      approvals: accounts.approvals,
      inviterName: members.name,
      inviterEmail: members.email,
    })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .leftJoin(members, eq(members.id, invitations.invitedBy))
    .where(eq(invitations.tokenHash, sha256Hex(input.token)));
  requireUsable(found?.invitation, ctx.deps.clock.now());
  const { invitation, workspace, approvals, inviterName, inviterEmail } = found!;
  return {
    workspace,
    invitedBy: inviterName ?? inviterEmail,
    role: invitation.role,
    email: invitation.email,
    expiresAt: invitation.expiresAt,
    approvals: approvalsOf(approvals),
  };
}

/**
 * Joins the invitation's account as a new member with its role and a first key (shown once).
 * The token works once: the row is marked accepted by a conditional update in the same
 * transaction that adds the member, so two concurrent accepts cannot both succeed.
 */
export async function acceptInvitation({
  ctx,
  input,
}: Call<AcceptInvitationRequest, PublicCtx>): Promise<AcceptInvitationResult> {
  const now = ctx.deps.clock.now();
  const digest = sha256Hex(input.token);
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  return ctx.deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(invitations).where(eq(invitations.tokenHash, digest));
    requireUsable(row, now);
    const [claimed] = await tx
      .update(invitations)
      .set({ acceptedAt: now })
      .where(and(eq(invitations.id, row.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (!claimed)
      throw new Conflict('invitation_used', 'This invitation has already been accepted; ask for a new one.');
    const member = await insertMember(tx, {
      accountId: row.accountId,
      email: row.email,
      name: input.name ?? null,
      role: row.role,
      now,
    });
    if (!member) throw new Conflict('already_member', `${row.email} is already a member of this workspace.`);
    if (passwordHash) await tx.update(members).set({ passwordHash }).where(eq(members.id, member.id));
    const { key, apiKey } = await issueKey(
      tx,
      { accountId: row.accountId, memberId: member.id },
      'first',
      now,
      scopesForRole(member.role),
    );
    await recordAudit(
      tx,
      { accountId: row.accountId, memberId: member.id },
      { action: 'member.joined', target: member.id, at: now },
    );
    return { member: toMember(member), key, apiKey };
  });
}
