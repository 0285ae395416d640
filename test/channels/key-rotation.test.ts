import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { channels } from '../../src/db/schema/index.ts';
import { withChannelAccess } from '../../src/features/channels/channel-access.ts';
import { toAppError } from '../../src/http/errors.ts';
import { startSandbox } from '../../src/sandbox/sandbox.ts';
import { resealAll } from '../../src/vault/reseal.ts';
import { keyId } from '../../src/vault/vault.ts';
import { freshDatabase } from '../helpers/app.ts';
import { type ChannelWorld, connected, startChannelWorld, testClock } from './helpers.ts';

const DAY = 86_400_000;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const key = () => randomBytes(32).toString('base64');
const kid = (k: string) => keyId(Buffer.from(k, 'base64'));

describe('vault key rotation across service restarts (one database, one platform)', () => {
  it('old key still opens, reseal moves everything to the new key, then the old key can go', async () => {
    // A database that outlives each service instance.
    const server = await freshDatabase();
    const dir = server ? null : mkdtempSync(join(tmpdir(), 'postkit-rotation-'));
    cleanups.push(async () => {
      await server?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });
    const dbEnv = server ? { DATABASE_URL: server.url } : { DATABASE_URL: '', DATA_DIR: dir! };
    const clock = testClock();
    const sandbox = await startSandbox({ now: clock.now });
    cleanups.push(() => sandbox.close());
    const shared = { sandbox, clock };
    const boot = (vaultKey: string, oldKeys?: string) =>
      startChannelWorld({ shared, vaultKey, env: { ...dbEnv, KIT_VAULT_OLD_KEYS: oldKeys } });
    const publish = (w: ChannelWorld, target: { accountId: string; channelId: string }, text: string) =>
      withChannelAccess(w.t.service.deps, target, (a) =>
        a.platform.publish({ accessToken: a.accessToken, authorRef: a.authorRef, text, media: [] }),
      );
    const sealedKids = async (w: ChannelWorld, id: string) => {
      const [row] = await w.t.service.deps.db.select().from(channels).where(eq(channels.id, id));
      return [w.vault.kidOf(row!.accessTokenSealed!), w.vault.kidOf(row!.refreshTokenSealed!)];
    };

    const k1 = key();
    const k2 = key();

    // 1. Connected under k1.
    let w = await boot(k1);
    const { apiKey, accountId } = await w.t.signup();
    const channel = await connected(w, apiKey);
    const target = { accountId, channelId: channel.id };
    expect(await sealedKids(w, channel.id)).toEqual([kid(k1), kid(k1)]);
    await w.close();

    // 2. Rotated: k2 current, k1 still accepted. The old tokens open.
    w = await boot(k2, k1);
    await publish(w, target, 'after rotation');
    expect(await sealedKids(w, channel.id)).toEqual([kid(k1), kid(k1)]);

    // 3. Re-seal everything under k2.
    const reports = await resealAll(w.t.service.deps.db, w.t.service.deps.vault!);
    for (const column of ['channels.access_token_sealed', 'channels.refresh_token_sealed'])
      expect(reports.find((r) => r.column === column)).toMatchObject({ resealed: 1, failed: 0 });
    expect(await sealedKids(w, channel.id)).toEqual([kid(k2), kid(k2)]);
    await w.close();

    // 4. The old key is gone: publishing and refreshing still work, new tokens under k2.
    w = await boot(k2);
    await publish(w, target, 'old key dropped');
    clock.advance(59.5 * DAY);
    const refreshed = await w.t.request('POST', `/v1/channels/${channel.id}/refresh`, { key: apiKey });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.channel.lastRefreshAt).toBeGreaterThan(channel.lastRefreshAt!);
    expect(await sealedKids(w, channel.id)).toEqual([kid(k2), kid(k2)]);
    await w.close();

    // 5. A key that sealed nothing here: the channel cannot be used, and says why.
    w = await boot(key());
    const err = await publish(w, target, 'wrong key').catch((e: unknown) => toAppError(e) ?? e);
    expect(err).toMatchObject({ status: 409, code: 'channel_error' });
    expect((err as Error).message).toMatch(/vault keys/);
    await w.close();
  });
});
