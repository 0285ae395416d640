import { z } from 'zod';
import { Account } from './account.schemas.ts';

/** The workspace setting: `required` holds an editor's posts for an owner's or admin's approval. */
export const ApprovalsSetting = z.enum(['required', 'off']).meta({ id: 'ApprovalsSetting' });
export type ApprovalsSetting = z.output<typeof ApprovalsSetting>;

/** Wire shapes of the account's settings (GET/PATCH /v1/account/settings) and PATCH /v1/account. */

const TimeZone = z.string().min(1).max(64);

export const AccountSettings = z
  .object({
    timezone: TimeZone.describe(
      'IANA time zone, e.g. Europe/Paris: the default zone of new queues, series and insights (UTC until set)',
    ),
    approvals: ApprovalsSetting.describe(
      '`required`: an editor’s post is scheduled or published only once an owner or admin approved it (`off` until set)',
    ),
  })
  .meta({ id: 'AccountSettings' });
export type AccountSettings = z.output<typeof AccountSettings>;

export const SettingsResult = z.object({ settings: AccountSettings }).meta({ id: 'SettingsResult' });
export type SettingsResult = z.output<typeof SettingsResult>;

export const UpdateSettingsRequest = z
  .object({
    timezone: TimeZone.optional().describe('IANA time zone, e.g. Europe/Paris'),
    approvals: ApprovalsSetting.optional().describe('`required` or `off`'),
  })
  .strict()
  .meta({ id: 'UpdateSettingsRequest' });
export type UpdateSettingsRequest = z.output<typeof UpdateSettingsRequest>;

export const UpdateAccountRequest = z
  .object({ email: z.email().max(254).describe('Unique per account, compared case-insensitively') })
  .strict()
  .meta({ id: 'UpdateAccountRequest' });
export type UpdateAccountRequest = z.output<typeof UpdateAccountRequest>;

export const AccountResult = z.object({ account: Account }).meta({ id: 'AccountResult' });
