import type { Scope } from './scopes.ts';

/**
 * What a member of a workspace may do, lowest first: each role holds everything the roles
 * before it hold. A credential acts with its member's role, narrowed by its scopes (a key's or
 * an OAuth grant's scopes can take away, never add). The role each REST route and MCP tool
 * needs is stated once, with the route or tool (`roleNeeded`), and checked before it runs.
 */
export const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** True when `role` holds everything `needed` holds. */
export const roleReaches = (role: Role, needed: Role): boolean =>
  ROLES.indexOf(role) >= ROLES.indexOf(needed);

/**
 * The role a route or tool needs when it states none: reading needs a viewer; changing
 * Postkit's own data and publishing need an editor. Routes for people, keys of others,
 * channels, webhooks, settings and approving state `admin` or `owner` themselves.
 */
const ROLE_FOR_SCOPE: Record<Scope | 'any', Role> = {
  any: 'viewer',
  read: 'viewer',
  write: 'editor',
  publish: 'editor',
};

/** The one rule for what role a route or tool needs: its own `role`, else its scope's. */
export const roleNeeded = (scope: Scope | 'any', role?: Role): Role => role ?? ROLE_FOR_SCOPE[scope];

/** What each role may do, in the words errors and the console use. */
export const ROLE_WORDS: Record<Role, string> = {
  viewer: 'read everything in the workspace',
  editor:
    'create and edit brands, voices, media and drafts, and schedule and publish unless approvals are required',
  admin: 'manage members below owner, keys, channels, webhooks and settings, and approve posts',
  owner: "do everything, including changing members' roles and ownership",
};

/** The scopes a new key of a member of `role` holds: a viewer's key reads; everyone else's holds all. */
export const scopesForRole = (role: Role): Scope[] =>
  role === 'viewer' ? ['read'] : ['read', 'write', 'publish'];
