/*
 * Its own module so that src/http/auth-cache.ts (which stores callers) and src/context.ts
 * (which holds the cache) do not import each other. context.ts re-exports it.
 */

/** The caller of a service verb: an API key's account, or a worker acting for an account. */
export interface Caller {
  accountId: string;
  /** The calling key; null when a worker acts. */
  keyId: string | null;
  plan: string;
  /** The account and key as read when the request was authenticated (whoami needs no second read). */
  snapshot?: {
    account: { id: string; email: string; plan: string };
    key: {
      id: string;
      name: string;
      keyPrefix: string;
      createdAt: number;
      lastUsedAt: number | null;
      revokedAt: number | null;
    };
  };
}
