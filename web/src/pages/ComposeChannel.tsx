import { useEffect, useState } from 'react';
import type { PlatformId } from '../api.ts';
import { channelName } from '../lib/channels.ts';
import { useChannels, useMeta } from '../lib/hooks.ts';
import { Link } from '../router.tsx';
import type { ComposeSource } from './compose-source.ts';

export type { PlatformId } from '../api.ts';

/**
 * The channel Compose posts to: the first connected one for a new post, the loaded post's own
 * (set by the caller) when editing or copying; a copy whose channel is gone (revoked, removed)
 * starts with none rather than a dead one.
 */
export function useComposeChannel(source: ComposeSource) {
  const channels = useChannels();
  const connected = (channels.data?.channels ?? []).filter((c) => c.status === 'connected');
  const [channelId, setChannelId] = useState('');
  useEffect(() => {
    if (!channelId && !source.id && connected[0]) setChannelId(connected[0].id);
  }, [connected, channelId, source.id]);
  useEffect(() => {
    if (source.copy && channels.isSuccess && channelId && !connected.some((c) => c.id === channelId))
      setChannelId('');
  }, [source.copy, channels.isSuccess, connected, channelId]);
  const channel = connected.find((c) => c.id === channelId);
  return { channels, connected, channel, channelId, setChannelId };
}

/** The channel picker, and the platform picker while no channel is chosen. */
export function ChannelFields({
  compose,
  platform,
  onPlatform,
  taken = [],
  locked = false,
}: {
  compose: ReturnType<typeof useComposeChannel>;
  platform: PlatformId;
  onPlatform: (platform: PlatformId) => void;
  /** Channels other tabs of this post write for (not offered here; a post goes once to each). */
  taken?: string[];
  /** The post went out (scheduled or published): its channel is what it is. */
  locked?: boolean;
}) {
  const meta = useMeta();
  const { channels, connected, channel, channelId, setChannelId } = compose;
  return (
    <>
      <div className="row wrap">
        <label>
          Channel{' '}
          <select value={channelId} disabled={locked} onChange={(e) => setChannelId(e.target.value)}>
            {taken.length === 0 && <option value="">No channel (draft only)</option>}
            {connected
              .filter((c) => !taken.includes(c.id))
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {channelName(c)}
                </option>
              ))}
          </select>
        </label>
        {!channel && (
          <label>
            Platform{' '}
            <select
              value={platform}
              disabled={locked}
              onChange={(e) => onPlatform(e.target.value as PlatformId)}
            >
              {(meta.data?.platforms ?? [{ id: platform, displayName: platform }]).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.displayName}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {connected.length === 0 && channels.isSuccess && (
        <p className="hint">
          No connected channel yet: <Link to="/channels">connect one</Link> to schedule or publish. You can
          still write, score and save drafts.
        </p>
      )}
    </>
  );
}
