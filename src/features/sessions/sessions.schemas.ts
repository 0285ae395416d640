import { z } from 'zod';
import { Account } from '../account/account.schemas.ts';
import { Member } from '../members/members.schemas.ts';

/** A console password: as at invitation accept (invitations.schemas.ts), 10 to 200 characters. */
const Password = z.string().min(10).max(200).describe('10 to 200 characters');

export const SignInRequest = z
  .object({
    email: z.string().trim().min(3).max(254),
    password: z.string().min(1).max(200),
    accountId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('The workspace to sign in to, when this email and password belong to several'),
  })
  .strict()
  .meta({ id: 'SignInRequest' });
export type SignInRequest = z.output<typeof SignInRequest>;

export const Session = z
  .object({
    id: z.string(),
    createdAt: z.number().int(),
    expiresAt: z.number().int().describe('When the session ends; sign in again then'),
  })
  .meta({ id: 'Session' });
export type Session = z.output<typeof Session>;

export const SessionResult = z
  .object({
    session: Session,
    account: Account,
    member: Member,
    csrfToken: z
      .string()
      .describe(
        'Send it as the `x-csrf-token` header with every POST, PUT, PATCH and DELETE made with the session cookie',
      ),
  })
  .meta({ id: 'SessionResult' });
export type SessionResult = z.output<typeof SessionResult>;

export const SetPasswordRequest = z
  .object({
    password: Password,
    currentPassword: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Needed when the member already has a password'),
  })
  .strict()
  .meta({ id: 'SetPasswordRequest' });
export type SetPasswordRequest = z.output<typeof SetPasswordRequest>;

export const SetPasswordResult = z
  .object({
    passwordSet: z.literal(true),
    signedOut: z.number().int().describe('How many of the member’s other sessions were ended'),
  })
  .meta({ id: 'SetPasswordResult' });
