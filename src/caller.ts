/*
 * Its own module so that src/api/auth-cache.ts (which stores callers) and src/context.ts
 * (which holds the cache) do not import each other. context.ts re-exports it.
 */
import { InsufficientScope, RoleRequired } from './domain/errors.ts';
import { ROLE_WORDS, type Role, roleReaches } from './domain/roles.ts';
import { SCOPE_WORDS, type Scope } from './domain/scopes.ts';

/** The caller of a service verb: an API key's account, or a worker acting for an account. */
export interface Caller {
  accountId: string;
  /** The calling key; null when a worker or an OAuth-connected app acts. */
  keyId: string | null;
  plan: string;
  /** The member of the account the key or OAuth grant belongs to. */
  memberId: string;
  /** That member's role, as read when the request was authenticated (src/domain/roles.ts). */
  role: Role;
  /** What the key or the OAuth grant allows (src/domain/scopes.ts); a worker holds all. */
  scopes: readonly Scope[];
  /**
   * The console session a cookie stands for (src/features/sessions); absent for keys and grants.
   * Its CSRF token is what unsafe requests must echo in `x-csrf-token`.
   */
  session?: { id: string; createdAt: number; expiresAt: number; csrfToken: string };
  /** The OAuth grant an MCP access token belongs to (src/features/oauth); absent for keys. */
  grantId?: string;
  /** The account and key as read when the request was authenticated (whoami needs no second read). */
  snapshot?: {
    account: { id: string; email: string; plan: string };
    member: {
      id: string;
      email: string;
      name: string | null;
      role: Role;
      createdAt: number;
      lastActiveAt: number | null;
    };
    key: {
      id: string;
      memberId: string;
      name: string;
      keyPrefix: string;
      scopes: Scope[];
      createdAt: number;
      lastUsedAt: number | null;
      revokedAt: number | null;
    };
  };
}

/**
 * Refuses a caller without `scope` (403 insufficient_scope over REST, a tool error over MCP),
 * saying what the scope allows and how to get it for this kind of credential.
 */
export function requireScope(caller: Caller, scope: Scope, action?: string): void {
  if (caller.scopes.includes(scope)) return;
  const needs = action ? `${action} needs the \`${scope}\` scope` : `This needs the \`${scope}\` scope`;
  const lets = `(it lets you ${SCOPE_WORDS[scope]})`;
  throw new InsufficientScope(
    scope,
    caller.grantId
      ? `${needs} ${lets}, and this connection was not granted it. Remove the connection in Postkit's Connected apps page or your agent, connect again and approve \`${scope}\`.`
      : `${needs} ${lets}, and this API key does not have it. Use a key that has it, or create one with POST /v1/keys and \`scopes\` including \`${scope}\`.`,
  );
}

/** requireScope for each of `scopes`: a credential cannot hand out (to a key or an app) more than it holds. */
export function requireScopeSet(caller: Caller, scopes: readonly Scope[], action: string): void {
  for (const scope of scopes) requireScope(caller, scope, action);
}

/** The idempotency and budget owner of a call: the key, the OAuth grant, the session, or the worker. */
export const principalOf = (caller: Caller): string =>
  caller.keyId ??
  (caller.grantId ? `grant:${caller.grantId}` : caller.session ? `session:${caller.session.id}` : 'worker');

/**
 * Refuses a caller whose member's role does not reach `role` (403 forbidden over REST, a tool
 * error over MCP), naming the role needed and what it allows.
 */
export function requireRole(caller: Caller, role: Role, action?: string): void {
  if (roleReaches(caller.role, role)) return;
  const needs = action ? `${action} needs` : 'This needs';
  throw new RoleRequired(
    role,
    `${needs} the ${role} role (${article(role)} ${role} may ${ROLE_WORDS[role]}); you are ${article(caller.role)} ${caller.role} in this workspace. Ask an owner or admin of the workspace to change your role.`,
  );
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');
