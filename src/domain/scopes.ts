/**
 * What a credential may do, by risk: `read` looks, `write` changes Postkit's own data (drafts,
 * model calls), `publish` reaches the account's audience. API keys and OAuth grants carry a
 * subset; REST routes (route config `scope`) and MCP tools (ToolDef `scope`) each name the one
 * they need.
 */
export const SCOPES = ['read', 'write', 'publish'] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope lets an app or key do, in the words the consent page and errors use. */
export const SCOPE_WORDS: Record<Scope, string> = {
  read: 'see your posts, calendar, channels, brands, voices, analytics and insights',
  write:
    'create and edit drafts, brands and voices, import post history, and score, rewrite, generate and plan posts (model calls count against your monthly quota)',
  publish:
    'schedule, cancel and publish posts on your connected social accounts, where everyone can see them',
};

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Scopes in their canonical order, without repeats. */
export const normalizeScopes = (scopes: Iterable<string>): Scope[] => {
  const wanted = new Set(scopes);
  return SCOPES.filter((scope) => wanted.has(scope));
};
