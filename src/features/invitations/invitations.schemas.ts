import { z } from 'zod';
import { ApprovalsSetting } from '../account/settings.schemas.ts';
import { ApiKey } from '../keys/keys.schemas.ts';
import { Member, RoleName } from '../members/members.schemas.ts';

export const Invitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role: RoleName,
    expiresAt: z.number().int().describe('7 days after the invitation was made; the link stops working then'),
    acceptedAt: z.number().int().nullable().describe('null until someone joins with it'),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.output<typeof Invitation>;

export const CreateInvitationRequest = z
  .object({ email: z.email().max(254), role: RoleName })
  .strict()
  .meta({ id: 'CreateInvitationRequest' });

export const CreateInvitationResult = z
  .object({
    invitation: Invitation,
    acceptUrl: z
      .string()
      .describe('The link to send the person, shown only here: it holds the single-use token'),
    mailed: z
      .boolean()
      .describe(
        'Whether the link was also mailed to the person: true only where SMTP_URL is configured and the mail server accepted the message; otherwise send acceptUrl yourself',
      ),
  })
  .meta({ id: 'CreateInvitationResult' });
export type CreateInvitationResult = z.output<typeof CreateInvitationResult>;

export const InvitationResult = z.object({ invitation: Invitation }).meta({ id: 'InvitationResult' });
export const InvitationListResult = z
  .object({ invitations: z.array(Invitation) })
  .meta({ id: 'InvitationListResult' });

/** The console password a member may set; long enough that a guess costs more than a throttle allows. */
export const Password = z
  .string()
  .min(10)
  .max(200)
  .describe('10 to 200 characters, for signing in to the console');

const InvitationToken = z.string().min(1).max(200).describe('The token from the invitation link');

export const AcceptInvitationRequest = z
  .object({
    token: InvitationToken,
    name: z.string().trim().min(1).max(100).optional(),
    password: Password.optional(),
  })
  .strict()
  .meta({ id: 'AcceptInvitationRequest' });
export type AcceptInvitationRequest = z.output<typeof AcceptInvitationRequest>;

export const InvitationTokenRequest = z
  .object({ token: InvitationToken })
  .strict()
  .meta({ id: 'InvitationTokenRequest' });

export const InvitationPreview = z
  .object({
    workspace: z
      .string()
      .describe(
        'The workspace the link joins, named by the email it was created with (workspaces have no other name)',
      ),
    invitedBy: z
      .string()
      .nullable()
      .describe(
        'Who sent the invitation: their name, else their email; null once they have left the workspace',
      ),
    role: RoleName.describe('The role the person joins with'),
    email: z.string().describe('The address invited: the person joins as this member'),
    expiresAt: z.number().int().describe('When the link stops working'),
    approvals: ApprovalsSetting.describe(
      "The workspace's approvals setting: when required, an editor's posts go out once an owner or admin approves them",
    ),
  })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.output<typeof InvitationPreview>;

export const InvitationPreviewResult = z
  .object({ invitation: InvitationPreview })
  .meta({ id: 'InvitationPreviewResult' });

export const AcceptInvitationResult = z
  .object({
    member: Member,
    key: ApiKey,
    apiKey: z.string().describe('The member’s first key in plaintext, shown exactly once'),
  })
  .meta({ id: 'AcceptInvitationResult' });
export type AcceptInvitationResult = z.output<typeof AcceptInvitationResult>;
