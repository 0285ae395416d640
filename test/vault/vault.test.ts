import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import { vaultAad } from '../../src/vault/aad.ts';
import { createVault, decodeKey, keyId, VaultError, vaultFromConfig } from '../../src/vault/vault.ts';

const newKey = () => randomBytes(32);

/** Flips one bit of one base64url character's decoded byte in part `index` of a sealed value. */
function flipByte(sealed: string, index: number, byte = 0): string {
  const parts = sealed.split('.');
  const buf = Buffer.from(parts[index]!, 'base64url');
  buf[byte % buf.length]! ^= 0x01;
  parts[index] = buf.toString('base64url');
  return parts.join('.');
}

describe('vault: AES-256-GCM with AAD and key ids', () => {
  const key = newKey();
  const vault = createVault({ key });
  const aad = vaultAad.channelToken('chn_A', 'access');

  it('seals to v1.<kid>.<nonce>.<ct>.<tag> and opens back', () => {
    const sealed = vault.seal('AQX-access-token', aad);
    const parts = sealed.split('.');
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe('v1');
    expect(parts[1]).toBe(keyId(key));
    expect(Buffer.from(parts[2]!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(parts[4]!, 'base64url')).toHaveLength(16);
    expect(sealed).not.toContain('AQX-access-token');
    expect(vault.open(sealed, aad)).toBe('AQX-access-token');
  });

  it('uses a fresh nonce per seal', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => vault.seal('same', aad).split('.')[2]));
    expect(nonces.size).toBe(200);
  });

  it('does not open when any part is tampered with', () => {
    const sealed = vault.seal('secret-token-value', aad);
    for (const index of [2, 3, 4]) {
      expect(() => vault.open(flipByte(sealed, index), aad)).toThrow(VaultError);
    }
  });

  it('does not open under another AAD: a token moved to another channel row or column', () => {
    const sealed = vault.seal('tok', aad);
    expect(() => vault.open(sealed, vaultAad.channelToken('chn_B', 'access'))).toThrow(VaultError);
    expect(() => vault.open(sealed, vaultAad.channelToken('chn_A', 'refresh'))).toThrow(VaultError);
  });

  it('does not open when the header is edited or the value is malformed', () => {
    const sealed = vault.seal('tok', aad);
    const other = createVault({ key: newKey(), oldKeys: [key] });
    // Re-labelled with a key id the opener also knows: authentication still fails.
    const relabelled = sealed.replace(`.${keyId(key)}.`, `.${other.currentKid}.`);
    expect(() => other.open(relabelled, aad)).toThrow(VaultError);
    for (const bad of ['', 'v1', 'v2.a.b.c.d', `${sealed}.x`, sealed.replace('v1.', 'v0.'), 'v1.zz.a.b.c']) {
      expect(() => vault.open(bad, aad)).toThrow(VaultError);
    }
  });

  it('never puts plaintext or key material in an error message', () => {
    const sealed = vault.seal('PLAINTEXT-SECRET', aad);
    const stranger = createVault({ key: newKey() });
    for (const attempt of [() => stranger.open(sealed, aad), () => vault.open(flipByte(sealed, 3), aad)]) {
      try {
        attempt();
        expect.unreachable();
      } catch (err) {
        const message = (err as Error).message;
        expect(message).not.toContain('PLAINTEXT-SECRET');
        expect(message).not.toContain(key.toString('base64'));
        expect(message).not.toContain(sealed);
      }
    }
  });

  it('round-trips any text under any AAD, and a single flipped bit anywhere in the body fails (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.string({ maxLength: 80 }),
        fc.nat(),
        (text, bind, pos) => {
          const sealed = vault.seal(text, bind);
          expect(vault.open(sealed, bind)).toBe(text);
          const index = 2 + (pos % 3);
          if (index === 3 && text.length === 0) return; // empty ciphertext has no byte to flip
          expect(() => vault.open(flipByte(sealed, index, pos), bind)).toThrow(VaultError);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('vault: rotation', () => {
  it('opens values sealed under KIT_VAULT_OLD_KEYS, seals under the new key, and reports staleness', () => {
    const oldKey = newKey();
    const newerKey = newKey();
    const before = createVault({ key: oldKey });
    const sealedOld = before.seal('token-1', 'bind');
    const after = createVault({ key: newerKey, oldKeys: [oldKey] });
    expect(after.open(sealedOld, 'bind')).toBe('token-1');
    expect(after.isStale(sealedOld)).toBe(true);
    const sealedNew = after.seal('token-1', 'bind');
    expect(after.kidOf(sealedNew)).toBe(keyId(newerKey));
    expect(after.isStale(sealedNew)).toBe(false);
    expect(after.kids).toEqual([keyId(newerKey), keyId(oldKey)]);
    // Once the old key is dropped, old values name a key the vault does not have.
    const dropped = createVault({ key: newerKey });
    expect(() => dropped.open(sealedOld, 'bind')).toThrow(/neither KIT_VAULT_KEY nor in KIT_VAULT_OLD_KEYS/);
    expect(dropped.open(sealedNew, 'bind')).toBe('token-1');
  });

  it('is built from configuration, null without KIT_VAULT_KEY, and rejects bad keys clearly', () => {
    expect(vaultFromConfig(configWith({}))).toBeNull();
    const k1 = newKey().toString('base64');
    const k2 = newKey().toString('base64');
    const v = vaultFromConfig(configWith({ KIT_VAULT_KEY: k2, KIT_VAULT_OLD_KEYS: ` ${k1}, ` }))!;
    expect(v.kids).toHaveLength(2);
    expect(() => configWith({ KIT_VAULT_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/KIT_VAULT_KEY/);
    expect(() => configWith({ KIT_VAULT_KEY: k1, KIT_VAULT_OLD_KEYS: `${k2},short` })).toThrow(
      /KIT_VAULT_OLD_KEYS/,
    );
    expect(() => decodeKey('not base64 at all!', 'KIT_VAULT_KEY')).toThrow(/KIT_VAULT_KEY must be base64/);
  });
});
