import type { AppDeps } from '../../context.ts';
import { notConfigured } from '../../http/errors.ts';
import type { Platform } from '../../platforms/platform.ts';
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

/** Both tools, or null when the vault key or the platform's app credentials are missing. */
export function channelTools(deps: AppDeps, platformId = 'platformA'): ChannelTools | null {
  const platform = platformFor(deps, platformId);
  if (!deps.vault || !platform) return null;
  return { vault: deps.vault, platform };
}

/** Both tools, or 503 not_configured naming what is missing (never its value). */
export function requireChannelTools(deps: AppDeps, platformId = 'platformA'): ChannelTools {
  const tools = channelTools(deps, platformId);
  if (tools) return tools;
  const missing: string[] = [];
  if (!deps.vault) missing.push('the token-vault key (KIT_VAULT_KEY)');
  if (!platformFor(deps, platformId))
    missing.push(
      `${platformId} app credentials (${platformId.toUpperCase()}_CLIENT_ID, _CLIENT_SECRET, _REDIRECT_URI)`,
    );
  throw notConfigured(`Channels are not configured on this deployment: set ${missing.join(' and ')}.`);
}
