import type { Ctx } from '../../context.ts';
import { channels } from '../../db/schema/index.ts';
import type { Platform } from '../../domain/enums.ts';
import { Invalid } from '../../domain/errors.ts';
import { DEFAULT_PLATFORM } from '../../platforms/profiles.ts';
import { requireReference } from '../tenancy.ts';

/**
 * The channel a plan is for and the plan's platform, one rule for POST /v1/plan and a saved
 * plan: the channel must be the caller's (400 at `channelId`), the platform defaults to the
 * channel's, and a channel of another platform than the one asked for is a 400 at `channelId`.
 */
export async function planChannel(ctx: Ctx, channelId: string | undefined, asked: Platform | undefined) {
  const channel = channelId
    ? await requireReference(ctx, channels, channelId, { what: 'Channel', path: 'channelId' })
    : null;
  const platform = asked ?? (channel?.platform as Platform | undefined) ?? DEFAULT_PLATFORM;
  if (channel && channel.platform !== platform)
    throw new Invalid(`channelId names a ${channel.platform} channel, and the plan is for ${platform}.`, [
      { path: 'channelId', message: `Not a ${platform} channel` },
    ]);
  return { channel, platform };
}
