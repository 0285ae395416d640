import { z } from 'zod';
import { SCOPES } from '../../domain/scopes.ts';

export const ScopeName = z.enum(SCOPES);

export const ApiKey = z
  .object({
    id: z.string(),
    memberId: z.string().describe('The member the key belongs to; it acts with that member’s role'),
    name: z.string(),
    keyPrefix: z.string().describe('First characters of the secret; identifies the key'),
    scopes: z
      .array(ScopeName)
      .describe(
        'What the key may do: `read`, `write`, `publish` (docs/security.md); new keys default to all three',
      ),
    createdAt: z.number().int(),
    lastUsedAt: z.number().int().nullable(),
    revokedAt: z.number().int().nullable().describe('null while the key is live'),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.output<typeof ApiKey>;

export const KeyName = z.string().trim().min(1).max(100);

export const CreateKeyRequest = z
  .object({
    name: KeyName.optional().describe('Label for the key; default `default`'),
    scopes: z
      .array(ScopeName)
      .min(1)
      .max(SCOPES.length)
      .optional()
      .describe(
        'What the key may do; default all three (`read`, `write`, `publish`), or `read` alone for a viewer. `["read"]` makes a read-only key for dashboards. A key cannot create a key with a scope it lacks itself, and a key never does more than its member’s role allows.',
      ),
  })
  .strict()
  .meta({ id: 'CreateKeyRequest' });

export const CreateKeyResult = z
  .object({ key: ApiKey, apiKey: z.string().describe('The plaintext key, shown exactly once') })
  .meta({ id: 'CreateKeyResult' });
export type CreateKeyResult = z.output<typeof CreateKeyResult>;

export const KeyListResult = z.object({ keys: z.array(ApiKey) }).meta({ id: 'KeyListResult' });
export const RevokeResult = z.object({ revoked: z.boolean() }).meta({ id: 'RevokeResult' });
