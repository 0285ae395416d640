import { eq } from 'drizzle-orm';
import type { Ctx } from '../../context.ts';
import { channels } from '../../db/schema/index.ts';

/**
 * A CSV row names its channel as a person knows it: its name at the platform as the console
 * shows it (`@sandy`, `Sandy Sandbox`, with or without the `@`, any case), optionally followed by
 * its platform in brackets (`@sandy (platformB)`, the console's own spelling), or its id. Only the
 * caller's channels are looked at, so another account's channel is simply not found, and the
 * answer lists the caller's own names to choose from.
 */

interface Named {
  id: string;
  platform: string;
  names: string[];
  label: string;
}

export type Resolved = { id: string } | { error: string };

export interface ChannelNames {
  /** The channel `value` names, on `platform` when the row gives one. */
  resolve(value: string, platform?: string): Resolved;
}

const IDS = /^chn_/;
const SUFFIX = /^(.*\S)\s*\(([A-Za-z0-9_-]+)\)$/;
const fold = (s: string) => s.trim().replace(/^@/, '').toLowerCase();

/** How many of the caller's names an answer lists before "and N more". */
const LISTED = 5;

export async function channelNames(ctx: Ctx): Promise<ChannelNames> {
  const rows = await ctx.deps.db
    .select({
      id: channels.id,
      platform: channels.platform,
      handle: channels.handle,
      platformUserId: channels.platformUserId,
    })
    .from(channels)
    .where(eq(channels.accountId, ctx.caller.accountId))
    .orderBy(channels.createdAt);
  const named: Named[] = rows.map((c) => {
    const shown = c.handle ?? c.platformUserId ?? '';
    return {
      id: c.id,
      platform: c.platform,
      names: [c.handle, c.platformUserId].flatMap((n) => (n ? [fold(n)] : [])),
      label: `${shown} (${c.platform})`,
    };
  });
  const choices = () => {
    const labels = named.map((c) => `"${c.label}"`);
    const more = labels.length - LISTED;
    return more > 0 ? `${labels.slice(0, LISTED).join(', ')} and ${more} more` : labels.join(', ');
  };

  return {
    resolve(value, rowPlatform) {
      const raw = value.trim();
      // An id goes on as given: the batch's own checks say whether it is the caller's.
      if (IDS.test(raw)) return { id: raw };
      const suffix = SUFFIX.exec(raw);
      const inBrackets = suffix && named.some((c) => c.platform === suffix[2]) ? suffix[2] : undefined;
      const name = fold(inBrackets ? suffix![1]! : raw);
      const platform = inBrackets ?? rowPlatform;
      const found = named.filter(
        (c) => c.names.includes(name) && (platform === undefined || c.platform === platform),
      );
      if (found.length === 1) return { id: found[0]!.id };
      if (found.length > 1)
        return {
          error: `"${raw}" names ${found.length} of your channels (${found.map((c) => c.platform).join(' and ')}): add the platform in brackets, e.g. "${raw} (${found[0]!.platform})"`,
        };
      const which = platform && !inBrackets ? `${platform} channel` : 'channel';
      if (named.length === 0)
        return { error: `No ${which} of yours is called "${raw}": connect one on the Channels page first` };
      return {
        error: `No ${which} of yours is called "${raw}"; write one of your channels: ${choices()}`,
      };
    },
  };
}
