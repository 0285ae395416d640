import type { AppDeps } from '../../context.ts';
import { NotConfigured } from '../../domain/errors.ts';
import type { Platform } from '../../platforms/platform.ts';
import { PLATFORM_IDS } from '../../platforms/profiles.ts';
import type { Vault } from '../../vault/vault.ts';

/** What every channel operation needs: the vault and the platform's adapter. */
export interface ChannelTools {
  vault: Vault;
  platform: Platform;
}

/** The adapter for a platform id, or null when the deployment has no app credentials for it. */
export function platformFor(deps: AppDeps, platformId: string): Platform | null {
  return deps.platforms.get(platformId) ?? null;
}

/**
 * Both tools, or null when the vault key or the platform's app credentials are missing. Without
 * a platform id: whether channels work at all (the vault and any configured platform).
 */
export function channelTools(deps: AppDeps, platformId?: string): ChannelTools | null {
  const platform =
    platformId === undefined ? (deps.platforms.values().next().value ?? null) : platformFor(deps, platformId);
  if (!deps.vault || !platform) return null;
  return { vault: deps.vault, platform };
}

/** Both tools, or 503 not_configured naming what is missing (never its value). */
export function requireChannelTools(deps: AppDeps, platformId?: string): ChannelTools {
  const tools = channelTools(deps, platformId);
  if (tools) return tools;
  const missing: string[] = [];
  if (!deps.vault) missing.push('the token-vault key (KIT_VAULT_KEY)');
  const credentials = (id: string) =>
    `${id} app credentials (${id.toUpperCase()}_CLIENT_ID, _CLIENT_SECRET, _REDIRECT_URI)`;
  if (platformId === undefined ? deps.platforms.size === 0 : !platformFor(deps, platformId))
    missing.push(
      platformId === undefined ? PLATFORM_IDS.map(credentials).join(' or ') : credentials(platformId),
    );
  throw new NotConfigured(`Channels are not configured on this deployment: set ${missing.join(' and ')}.`);
}
