import type { apiKeys } from '../../db/schema/index.ts';
import type { ApiKey } from './keys.schemas.ts';

/** The public view of a key row: metadata only, never the digest. */
export const toApiKey = (row: typeof apiKeys.$inferSelect): ApiKey => ({
  id: row.id,
  memberId: row.memberId,
  name: row.name,
  keyPrefix: row.keyPrefix,
  scopes: row.scopes,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
});
