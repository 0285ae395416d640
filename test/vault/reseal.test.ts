import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { accounts, channels, oauthStates, webhooks } from '../../src/db/schema/index.ts';
import { vaultAad } from '../../src/vault/aad.ts';
import { resealAll } from '../../src/vault/reseal.ts';
import { createVault, keyId, type Vault } from '../../src/vault/vault.ts';
import { freshDatabase } from '../helpers/app.ts';

const run = promisify(execFile);

/** A database of its own: a fresh PostgreSQL database on the server backend, else a PGlite directory. */
async function openScratch() {
  const server = await freshDatabase();
  const dir = server ? null : mkdtempSync(join(tmpdir(), 'postkit-reseal-'));
  const env = server ? { DATABASE_URL: server.url } : { DATA_DIR: dir!, DATABASE_URL: '' };
  const open = () => openDatabase(server ? { url: server.url } : { dataDir: dir! });
  const cleanup = async () => {
    await server?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  return { env, open, cleanup };
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups) await c();
  cleanups = [];
});

/** Writes one row of every sealed column, sealed under `vault`. */
async function seed(database: Database, vault: Vault) {
  const now = Date.now();
  const db = database.db;
  await db
    .insert(accounts)
    .values({ id: 'acc_1', email: 'a@example.com', emailKey: 'a@example.com', createdAt: now });
  for (const id of ['chn_1', 'chn_2']) {
    await db.insert(channels).values({
      id,
      accountId: 'acc_1',
      platform: 'platformA',
      platformUserId: `member-${id}`,
      status: 'connected',
      accessTokenSealed: vault.seal(`access-of-${id}`, vaultAad.channelToken(id, 'access')),
      refreshTokenSealed:
        id === 'chn_1' ? vault.seal(`refresh-of-${id}`, vaultAad.channelToken(id, 'refresh')) : null,
      createdAt: now,
      updatedAt: now,
    });
  }
  await db.insert(oauthStates).values({
    stateHash: 'h1',
    accountId: 'acc_1',
    platform: 'platformA',
    codeVerifierSealed: vault.seal('verifier-1', vaultAad.oauthVerifier('h1')),
    expiresAt: now + 600_000,
    createdAt: now,
  });
  await db.insert(webhooks).values({
    id: 'whk_1',
    accountId: 'acc_1',
    url: 'https://example.com/hook',
    events: ['channel.disconnected'],
    status: 'active',
    secretSealed: vault.seal('whsec-1', vaultAad.webhookSecret('whk_1')),
    createdAt: now,
    updatedAt: now,
  });
}

async function readAll(database: Database) {
  const [c1] = await database.db.select().from(channels).where(eq(channels.id, 'chn_1'));
  const [c2] = await database.db.select().from(channels).where(eq(channels.id, 'chn_2'));
  const [st] = await database.db.select().from(oauthStates);
  const [wh] = await database.db.select().from(webhooks);
  return { c1: c1!, c2: c2!, st: st!, wh: wh! };
}

function expectAllOpenUnderOnly(rows: Awaited<ReturnType<typeof readAll>>, vault: Vault) {
  expect(vault.open(rows.c1.accessTokenSealed!, vaultAad.channelToken('chn_1', 'access'))).toBe(
    'access-of-chn_1',
  );
  expect(vault.open(rows.c1.refreshTokenSealed!, vaultAad.channelToken('chn_1', 'refresh'))).toBe(
    'refresh-of-chn_1',
  );
  expect(vault.open(rows.c2.accessTokenSealed!, vaultAad.channelToken('chn_2', 'access'))).toBe(
    'access-of-chn_2',
  );
  expect(rows.c2.refreshTokenSealed).toBeNull();
  expect(vault.open(rows.st.codeVerifierSealed!, vaultAad.oauthVerifier('h1'))).toBe('verifier-1');
  expect(vault.open(rows.wh.secretSealed, vaultAad.webhookSecret('whk_1'))).toBe('whsec-1');
}

// Each case opens PGlite (migrating it) up to three times and the last spawns the script twice,
// each a Node start plus a migrated database: on a loaded machine that outruns the default 30 s
// (a full suite beside other work measured more), so the bound is a generous one.
describe('vault re-seal after key rotation', { timeout: 180_000 }, () => {
  it('re-seals every sealed column under the new key, compare-and-set, idempotently', async () => {
    const scratch = await openScratch();
    cleanups.push(scratch.cleanup);
    const database = await scratch.open();
    cleanups.unshift(() => database.close());
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    await seed(database, createVault({ key: oldKey }));

    const rotated = createVault({ key: newKey, oldKeys: [oldKey] });
    const first = await resealAll(database.db, rotated);
    const byColumn = Object.fromEntries(first.map((r) => [r.column, r]));
    expect(byColumn['channels.access_token_sealed']).toMatchObject({ scanned: 2, resealed: 2, failed: 0 });
    expect(byColumn['channels.refresh_token_sealed']).toMatchObject({ scanned: 1, resealed: 1, failed: 0 });
    expect(byColumn['oauth_states.code_verifier_sealed']).toMatchObject({ scanned: 1, resealed: 1 });
    expect(byColumn['webhooks.secret_sealed']).toMatchObject({ scanned: 1, resealed: 1 });

    // Every value now opens with the new key alone.
    const rows = await readAll(database);
    expectAllOpenUnderOnly(rows, createVault({ key: newKey }));
    expect(rotated.kidOf(rows.c1.accessTokenSealed!)).toBe(keyId(newKey));

    const second = await resealAll(database.db, rotated);
    expect(second.reduce((n, r) => n + r.resealed, 0)).toBe(0);
    expect(second.reduce((n, r) => n + r.current, 0)).toBe(5);
  });

  it('reports values that do not open (tampered, or moved to another row) by row id, and leaves them', async () => {
    const scratch = await openScratch();
    cleanups.push(scratch.cleanup);
    const database = await scratch.open();
    cleanups.unshift(() => database.close());
    const oldKey = randomBytes(32);
    await seed(database, createVault({ key: oldKey }));
    // chn_1's access token copied onto chn_2: bound to chn_1, so it must not open as chn_2's.
    const { c1 } = await readAll(database);
    await database.db
      .update(channels)
      .set({ accessTokenSealed: c1.accessTokenSealed })
      .where(eq(channels.id, 'chn_2'));

    const reports = await resealAll(database.db, createVault({ key: randomBytes(32), oldKeys: [oldKey] }));
    const access = reports.find((r) => r.column === 'channels.access_token_sealed')!;
    expect(access).toMatchObject({ resealed: 1, failed: 1, failedIds: ['chn_2'] });
    const { c2 } = await readAll(database);
    expect(c2.accessTokenSealed).toBe(c1.accessTokenSealed);
  });

  it('the vault:reseal script re-seals the configured database and exits 0, then the old key can go', async () => {
    const scratch = await openScratch();
    cleanups.push(scratch.cleanup);
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    let database = await scratch.open();
    await seed(database, createVault({ key: oldKey }));
    await database.close(); // PGlite: one process at a time

    const env = {
      PATH: process.env.PATH,
      ...scratch.env,
      KIT_VAULT_KEY: newKey.toString('base64'),
      KIT_VAULT_OLD_KEYS: oldKey.toString('base64'),
    };
    const { stdout } = await run('./node_modules/.bin/node', ['scripts/reseal-vault.ts'], { env });
    expect(stdout).toContain(`Re-sealing under key ${keyId(newKey)}`);
    expect(stdout).toContain('channels.access_token_sealed: scanned 2, re-sealed 2');
    expect(stdout).not.toContain('access-of-chn_1');
    expect(stdout).not.toContain(newKey.toString('base64'));

    database = await scratch.open();
    cleanups.unshift(() => database.close());
    expectAllOpenUnderOnly(await readAll(database), createVault({ key: newKey }));

    // With no KIT_VAULT_KEY there is nothing to re-seal under: exit 2 with the reason.
    const failed = await run('./node_modules/.bin/node', ['scripts/reseal-vault.ts'], {
      env: { PATH: process.env.PATH, ...scratch.env, KIT_VAULT_KEY: '' },
    }).catch((err: { code: number; stderr: string }) => err);
    expect((failed as { code: number }).code).toBe(2);
    expect((failed as { stderr: string }).stderr).toContain('KIT_VAULT_KEY is not set');
  });
});
