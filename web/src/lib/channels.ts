import type { Channel } from '../api.ts';

/** A channel as a person knows it: its name at the platform (never its id). */
export function channelHandle(channel: Pick<Channel, 'handle' | 'platformUserId'>): string {
  return channel.handle ?? channel.platformUserId ?? 'Unnamed account';
}

/** "Sandy Sandbox (platformB)": the name and the platform, for pickers and sentences. */
export function channelName(channel: Pick<Channel, 'handle' | 'platformUserId' | 'platform'>): string {
  return `${channelHandle(channel)} (${channel.platform})`;
}
