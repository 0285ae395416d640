import { z } from 'zod';
import { ApiKey, KeyName } from '../keys/keys.schemas.ts';
import { Member } from '../members/members.schemas.ts';

export const Account = z
  .object({ id: z.string(), email: z.string(), plan: z.string().describe('New accounts start on `free`') })
  .meta({ id: 'Account' });
export type Account = z.output<typeof Account>;

export const CreateAccountRequest = z
  .object({
    email: z.email().max(254).describe('Unique per account, compared case-insensitively'),
    name: KeyName.optional().describe('Label for the first key; default `default`'),
  })
  .strict()
  .meta({ id: 'CreateAccountRequest' });
export type CreateAccountRequest = z.output<typeof CreateAccountRequest>;

export const CreateAccountResult = z
  .object({
    account: Account,
    member: Member.describe('The account’s creator: its owner'),
    key: ApiKey,
    apiKey: z.string().describe('The plaintext key, shown exactly once'),
  })
  .meta({ id: 'CreateAccountResult' });
export type CreateAccountResult = z.output<typeof CreateAccountResult>;

/** A console session as whoami tells it, with the CSRF token its unsafe requests must send. */
export const ConsoleSession = z
  .object({
    id: z.string(),
    createdAt: z.number().int(),
    expiresAt: z.number().int().describe('When the session ends; sign in again then'),
    csrfToken: z
      .string()
      .describe(
        'Send it as the `x-csrf-token` header with every POST, PUT, PATCH and DELETE made with the session cookie',
      ),
  })
  .meta({ id: 'ConsoleSession' });

export const WhoamiResult = z
  .object({
    account: Account,
    member: Member.describe('The member the calling key (or console session) belongs to'),
    key: ApiKey.nullable().describe('The calling key; null when signed in to the console with a session'),
    session: ConsoleSession.optional().describe(
      'Present when signed in to the console with email and password (POST /v1/sessions)',
    ),
  })
  .meta({ id: 'WhoamiResult' });
