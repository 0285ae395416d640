import { z } from 'zod';
import { ROLES } from '../../domain/roles.ts';

export const RoleName = z
  .enum(ROLES)
  .describe(
    '`owner` (everything), `admin` (members below owner, keys, channels, webhooks, settings, approving), `editor` (brands, voices, media, drafts; schedules and publishes unless approvals are required), `viewer` (reads)',
  );

export const Member = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: RoleName,
    createdAt: z.number().int(),
    lastActiveAt: z
      .number()
      .int()
      .nullable()
      .describe('When one of the member’s keys was last used (to the minute)'),
  })
  .meta({ id: 'Member' });
export type Member = z.output<typeof Member>;

export const MemberListResult = z.object({ members: z.array(Member) }).meta({ id: 'MemberListResult' });

export const ChangeRoleRequest = z.object({ role: RoleName }).strict().meta({ id: 'ChangeRoleRequest' });

export const MemberResult = z.object({ member: Member }).meta({ id: 'MemberResult' });
