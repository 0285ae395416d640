import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '../../src/features/channels/channel-row.ts';
import {
  type OpenedTokens,
  openAccessToken as openWith,
  sealAccess,
} from '../../src/features/channels/channel-tokens.ts';
import { createVault, type Vault, VaultError } from '../../src/vault/vault.ts';

/**
 * A burst publishes many posts per channel, so an access token is opened once a minute per
 * sealed value instead of once per send (channel-tokens.ts). Remembering must never change the
 * answer: a new sealed value (a refresh, a reconnect) opens afresh, and a value that does not
 * open still fails every time.
 */
function countingVault(): { vault: Vault; opens: () => number } {
  const inner = createVault({ key: randomBytes(32) });
  let opens = 0;
  const vault: Vault = {
    ...inner,
    open(sealed, aad) {
      opens++;
      return inner.open(sealed, aad);
    },
  };
  return { vault, opens: () => opens };
}

/** One process memory per vault, as each process has one vault and one `deps.memory`. */
const memories = new WeakMap<Vault, OpenedTokens>();
const openAccessToken = (vault: Vault, row: ChannelRow) => {
  if (!memories.has(vault)) memories.set(vault, new Map());
  return openWith(memories.get(vault)!, vault, row);
};

const rowWith = (id: string, accessTokenSealed: string | null) => ({ id, accessTokenSealed }) as ChannelRow;

describe('opening a channel’s access token', () => {
  it('opens a sealed value once for many sends, and a new value afresh', () => {
    const { vault, opens } = countingVault();
    const row = rowWith('chn_A', sealAccess(vault, 'chn_A', 'token-1'));
    for (let i = 0; i < 50; i++) expect(openAccessToken(vault, row)).toBe('token-1');
    expect(opens()).toBe(1);

    const refreshed = rowWith('chn_A', sealAccess(vault, 'chn_A', 'token-2'));
    expect(openAccessToken(vault, refreshed)).toBe('token-2');
    expect(openAccessToken(vault, row)).toBe('token-1');
    expect(opens()).toBe(2);
  });

  it('keeps each vault’s and each channel’s answers apart', () => {
    const a = countingVault();
    const b = countingVault();
    const sealed = sealAccess(a.vault, 'chn_A', 'token-A');
    expect(openAccessToken(a.vault, rowWith('chn_A', sealed))).toBe('token-A');
    // The same sealed value under another vault, or moved to another channel, does not open.
    expect(() => openAccessToken(b.vault, rowWith('chn_A', sealed))).toThrow(VaultError);
    expect(() => openAccessToken(a.vault, rowWith('chn_B', sealed))).toThrow(VaultError);
  });

  it('fails every time for a value that does not open, and answers null without a token', () => {
    const { vault, opens } = countingVault();
    const sealed = sealAccess(vault, 'chn_A', 'token-1');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(() => openAccessToken(vault, rowWith('chn_A', tampered))).toThrow(VaultError);
    expect(() => openAccessToken(vault, rowWith('chn_A', tampered))).toThrow(VaultError);
    expect(opens()).toBe(2);
    expect(openAccessToken(vault, rowWith('chn_A', null))).toBeNull();
  });
});
