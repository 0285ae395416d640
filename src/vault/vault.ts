import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The token vault: AES-256-GCM with a fresh 96-bit nonce per seal and caller-supplied
 * additional authenticated data (AAD), so a sealed value only opens in the place it was
 * sealed for (see aad.ts: a channel's token moved to another row does not open).
 *
 * Sealed format: `v1.<kid>.<nonce>.<ciphertext>.<tag>` (base64url parts). `kid` names the
 * key (the first 6 bytes of SHA-256 over a label and the key, hex), so after a rotation the
 * vault still opens values sealed under an old key (KIT_VAULT_OLD_KEYS) and the re-seal
 * command (`npm run vault:reseal`) can find and re-seal them under the current key.
 * The version and kid are authenticated too: editing the header makes the value not open.
 *
 * Errors never carry plaintext, sealed text or key material.
 */

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export class VaultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VaultError';
  }
}

export interface Vault {
  /** The id of the key new values are sealed under. */
  readonly currentKid: string;
  /** Every key id this vault can open (current first). */
  readonly kids: readonly string[];
  seal(plaintext: string, aad: string): string;
  /** Throws VaultError when the value is malformed, tampered with, bound to other AAD or under an unknown key. */
  open(sealed: string, aad: string): string;
  /** The key id a sealed value names, or null when it is not a vault value. */
  kidOf(sealed: string): string | null;
  /** True when the value is sealed under an older key and should be re-sealed. */
  isStale(sealed: string): boolean;
}

/** A key id: stable for a key, reveals nothing useful about it. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('postkit-vault-kid\0').update(key).digest('hex').slice(0, 12);
}

/** Decodes one base64 key; throws VaultError (naming only `what`) unless it is exactly 32 bytes. */
export function decodeKey(base64: string, what: string): Buffer {
  const trimmed = base64.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES)
    throw new VaultError(`${what} must be base64 of exactly 32 bytes (openssl rand -base64 32).`);
  return key;
}

/** Parses the comma-separated KIT_VAULT_OLD_KEYS list (empty entries ignored). */
export function decodeKeyList(list: string | undefined, what: string): Buffer[] {
  if (!list) return [];
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s, i) => decodeKey(s, `${what}[${i}]`));
}

const b64u = (buf: Buffer) => buf.toString('base64url');

function fromB64u(part: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return null;
  return Buffer.from(part, 'base64url');
}

export function createVault(input: { key: Buffer; oldKeys?: Buffer[] }): Vault {
  const keys = new Map<string, Buffer>();
  const currentKid = keyId(input.key);
  keys.set(currentKid, input.key);
  for (const old of input.oldKeys ?? []) {
    const kid = keyId(old);
    if (!keys.has(kid)) keys.set(kid, old);
  }

  const header = (kid: string) => `${VERSION}.${kid}`;
  /** The AAD GCM authenticates: the header plus the caller's binding. */
  const fullAad = (kid: string, aad: string) => Buffer.from(`${header(kid)}|${aad}`, 'utf8');

  function parse(sealed: string) {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) return null;
    const [, kid, nonceB64, ctB64, tagB64] = parts as [string, string, string, string, string];
    const nonce = fromB64u(nonceB64);
    const ct = fromB64u(ctB64);
    const tag = fromB64u(tagB64);
    if (!nonce || !ct || !tag || nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) return null;
    if (!/^[0-9a-f]{12}$/.test(kid)) return null;
    return { kid, nonce, ct, tag };
  }

  return {
    currentKid,
    kids: [...keys.keys()],
    seal(plaintext, aad) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', input.key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(fullAad(currentKid, aad));
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${header(currentKid)}.${b64u(nonce)}.${b64u(ct)}.${b64u(cipher.getAuthTag())}`;
    },
    open(sealed, aad) {
      const parsed = parse(sealed);
      if (!parsed) throw new VaultError('The sealed value is malformed.');
      const key = keys.get(parsed.kid);
      if (!key)
        throw new VaultError(
          `The value is sealed under key ${parsed.kid}, which is neither KIT_VAULT_KEY nor in KIT_VAULT_OLD_KEYS.`,
        );
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, parsed.nonce, { authTagLength: TAG_BYTES });
        decipher.setAAD(fullAad(parsed.kid, aad));
        decipher.setAuthTag(parsed.tag);
        return Buffer.concat([decipher.update(parsed.ct), decipher.final()]).toString('utf8');
      } catch {
        throw new VaultError(
          'The sealed value failed authentication (tampered with, or bound to another record).',
        );
      }
    },
    kidOf(sealed) {
      return parse(sealed)?.kid ?? null;
    },
    isStale(sealed) {
      const kid = parse(sealed)?.kid;
      return kid !== undefined && kid !== currentKid;
    },
  };
}

/** The vault this deployment runs with, or null when KIT_VAULT_KEY is unset (channels answer 503). */
export function vaultFromConfig(config: {
  KIT_VAULT_KEY?: string;
  KIT_VAULT_OLD_KEYS?: string;
}): Vault | null {
  if (!config.KIT_VAULT_KEY) return null;
  return createVault({
    key: decodeKey(config.KIT_VAULT_KEY, 'KIT_VAULT_KEY'),
    oldKeys: decodeKeyList(config.KIT_VAULT_OLD_KEYS, 'KIT_VAULT_OLD_KEYS'),
  });
}
