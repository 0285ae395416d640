/*
 * The API's roles and invitation preview, spelled out so the node-side tests need no DOM types
 * (web/src/api.ts). Drift shows in the console's type-check: Join and Team pass the generated
 * types in, which must stay assignable to these.
 */
export type Role = 'viewer' | 'editor' | 'admin' | 'owner';
export type Approvals = 'required' | 'off';
export interface InvitationPreview {
  workspace: string;
  invitedBy: string | null;
  role: Role;
}

/** Lowest first, as the API orders them: each role holds everything before it. */
export const ROLES: Role[] = ['viewer', 'editor', 'admin', 'owner'];

/** What each role may do, in the Team page's list beside the role names. */
export const ROLE_HELP: Record<Role, string> = {
  viewer: 'reads everything',
  editor: 'writes drafts; schedules and publishes unless approvals are required',
  admin: 'manages members, channels, webhooks and settings, and approves posts',
  owner: 'everything, including ownership',
};

/** "a viewer", "an editor", "an admin", "an owner". */
export const withArticle = (role: Role): string => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;

/**
 * What the person joining with `role` will be able to do, as one sentence addressed to them. An
 * editor in a workspace that requires approvals is told that their posts wait for an approver,
 * since that is the first thing they meet after joining.
 */
export function joinRoleWords(role: Role, approvals: Approvals): string {
  switch (role) {
    case 'viewer':
      return 'As a viewer, you can read everything in the workspace but not change it.';
    case 'editor':
      return approvals === 'required'
        ? 'As an editor, you can write drafts and submit them for approval: an owner or admin approves a post before it is scheduled or published.'
        : 'As an editor, you can write drafts and schedule and publish posts.';
    case 'admin':
      return 'As an admin, you can write, schedule and publish posts, approve other members’ posts, and manage members, channels, webhooks and settings.';
    case 'owner':
      return 'As an owner, you can do everything, including changing members’ roles and ownership.';
  }
}

/** "Ada Admin invited you to join the workspace of studio@agency.example as an editor". */
export function invitedLine(invitation: InvitationPreview): string {
  const who = invitation.invitedBy ? `${invitation.invitedBy} invited you` : 'You were invited';
  return `${who} to join the workspace of ${invitation.workspace} as ${withArticle(invitation.role)}`;
}
