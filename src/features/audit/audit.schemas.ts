import { z } from 'zod';
import { Pagination, PaginationQuery } from '../../api/schemas.ts';

/**
 * What the trail records, one name per action a member can take on the workspace
 * (docs/teams.md#audit-trail). Past tense: each names something that happened.
 */
export const AUDIT_ACTIONS = [
  'key.created',
  'key.revoked',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'channel.connected',
  'channel.disconnected',
  'post.scheduled',
  'post.published',
  'post.canceled',
  'post.approved',
  'post.changes_requested',
  'webhook.created',
  'webhook.deleted',
  'settings.changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEvent = z
  .object({
    id: z.string(),
    memberId: z
      .string()
      .nullable()
      .describe('The member who acted (a removed member keeps its id here); null when no member did'),
    action: z.enum(AUDIT_ACTIONS),
    target: z
      .string()
      .describe(
        'The id of what was acted on: a key, member, invitation, channel, post, webhook, or the account for settings',
      ),
    at: z.number().int().describe('When it happened (epoch milliseconds)'),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.output<typeof AuditEvent>;

export const AuditListQuery = PaginationQuery;

export const AuditListResult = z
  .object({ events: z.array(AuditEvent), pagination: Pagination })
  .meta({ id: 'AuditListResult' });
