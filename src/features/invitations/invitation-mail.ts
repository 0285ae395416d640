import { eq } from 'drizzle-orm';
import type { Ctx } from '../../context.ts';
import { accounts, members } from '../../db/schema/index.ts';
import type { Role } from '../../domain/roles.ts';
import { sendMail } from '../../lib/smtp.ts';

/*
 * Where SMTP is configured (SMTP_URL), an invitation is also mailed to the person invited. The
 * invitation is made first and stands whatever the mail server does: the inviter still gets the
 * link, and `mailed` says whether the mail went out.
 */

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

const EXPIRY = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** The invitation as a person reads it: who invites them, to what, as what, until when, and the link. */
export function invitationMail(input: {
  inviter: string;
  workspace: string;
  role: Role;
  acceptUrl: string;
  expiresAt: number;
}): { subject: string; text: string } {
  const { inviter, workspace, role } = input;
  return {
    subject: `${inviter} invited you to a Postkit workspace`,
    text: [
      `${inviter} invited you to join the Postkit workspace of ${workspace} as ${article(role)} ${role}.`,
      '',
      `Open this link to accept. It works once, until ${EXPIRY.format(input.expiresAt)} UTC:`,
      input.acceptUrl,
      '',
      'If you did not expect this invitation, you can ignore this message.',
      '',
    ].join('\r\n'),
  };
}

/** The sender: SMTP_FROM, else postkit@ the public host. */
function senderOf(ctx: Ctx, baseUrl: string): string {
  if (ctx.deps.config.SMTP_FROM) return ctx.deps.config.SMTP_FROM;
  const host = new URL(ctx.deps.config.PUBLIC_BASE_URL ?? baseUrl).hostname.replace(/^\[|\]$/g, '');
  return `postkit@${host.includes('.') && !/^[\d.:]+$/.test(host) ? host : 'localhost'}`;
}

/** Mails the invitation when SMTP is configured; true when the server accepted it. Never throws. */
export async function mailInvitation(
  ctx: Ctx,
  input: { to: string; role: Role; acceptUrl: string; expiresAt: number; baseUrl: string },
): Promise<boolean> {
  const url = ctx.deps.config.SMTP_URL;
  if (!url) return false;
  try {
    const [who] = await ctx.deps.db
      .select({ name: members.name, email: members.email, workspace: accounts.email })
      .from(members)
      .innerJoin(accounts, eq(accounts.id, members.accountId))
      .where(eq(members.id, ctx.caller.memberId));
    const mail = invitationMail({
      inviter: who?.name ?? who?.email ?? 'A member',
      workspace: who?.workspace ?? 'your team',
      role: input.role,
      acceptUrl: input.acceptUrl,
      expiresAt: input.expiresAt,
    });
    await sendMail(url, { from: senderOf(ctx, input.baseUrl), to: input.to, ...mail });
    return true;
  } catch (err) {
    // The link is in the answer: the inviter can send it by hand. The operator reads why here.
    ctx.log.warn({ err: (err as Error).message }, 'the invitation could not be mailed');
    return false;
  }
}
