import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Channel, DEFAULT_PLATFORM, ok, rememberConsoleConnect } from '../api.ts';
import { ErrorBox, Notice, Working } from '../components/ErrorBox.tsx';
import { Status } from '../components/Status.tsx';
import { useChannels, useMeta } from '../lib/hooks.ts';
import { formatWhen, relative } from '../lib/time.ts';
import { navigate, useRoute } from '../router.tsx';

/** Connect (the platform's consent page, then back here), status with expiry, refresh, disconnect. */
export function ChannelsPage() {
  const route = useRoute();
  const meta = useMeta();
  const channels = useChannels();
  const connectable = (meta.data?.platforms ?? []).filter((p) => p.publishing).map((p) => p.id);
  const connect = useMutation({
    mutationFn: async (platform: string) => {
      const path = `/v1/channels/${platform}/connect` as '/v1/channels/platformA/connect';
      return ok(api.POST(path, { body: {} }));
    },
    onSuccess: ({ url, state }) => {
      rememberConsoleConnect(state);
      window.location.assign(url);
    },
  });
  const connectedId = route.params.get('connected');
  const returnedError = route.params.get('connectError');
  return (
    <div>
      <h1>Channels</h1>
      {connectedId && (
        <Notice kind="success">
          Channel connected. You can now schedule and publish to it.{' '}
          <button type="button" className="link" onClick={() => navigate('/compose')}>
            Write a post
          </button>
        </Notice>
      )}
      {returnedError && (
        <div className="error" role="alert">
          <strong>Connecting the channel failed.</strong> {route.params.get('message')}{' '}
          <span className="action">
            {returnedError === 'authorization_denied'
              ? 'Connect again and press Approve on the consent page.'
              : 'Start connecting again; the link works once, for 10 minutes.'}
          </span>
        </div>
      )}
      <section className="card">
        <h2>Connect a channel</h2>
        <p className="muted">You will be sent to the platform to approve access, then brought back here.</p>
        <div className="row wrap">
          {(connectable.length ? connectable : [DEFAULT_PLATFORM]).map((p) => (
            <button
              key={p}
              type="button"
              className="primary"
              onClick={() => connect.mutate(p)}
              disabled={connect.isPending}
            >
              Connect {p}
            </button>
          ))}
        </div>
        {connect.isPending && <Working label="Opening the consent page…" />}
        <ErrorBox error={connect.error} />
      </section>
      {channels.isPending && <Working label="Loading channels…" />}
      <ErrorBox error={channels.error} />
      {channels.data?.channels.length === 0 && <p className="muted">No channels yet.</p>}
      <ul className="channel-list">
        {channels.data?.channels.map((c) => (
          <ChannelRow key={c.id} channel={c} onReconnect={() => connect.mutate(c.platform)} />
        ))}
      </ul>
    </div>
  );
}

function ChannelRow({ channel, onReconnect }: { channel: Channel; onReconnect: () => void }) {
  const queryClient = useQueryClient();
  const params = { params: { path: { id: channel.id } } };
  const act = useMutation({
    mutationFn: (action: 'refresh' | 'disconnect') =>
      action === 'refresh'
        ? ok(api.POST('/v1/channels/{id}/refresh', params))
        : ok(api.DELETE('/v1/channels/{id}', params)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['channels'] }),
  });
  const live = channel.status === 'connected';
  return (
    <li className="card channel">
      <div className="row wrap">
        <strong>{channel.handle ?? channel.platformUserId ?? channel.id}</strong>
        <span className="muted">{channel.platform}</span>
        <Status value={channel.status} />
      </div>
      <p className="muted">
        {channel.renews && live
          ? 'Stays signed in: Postkit renews the sign-in before it expires.'
          : channel.expiresAt
            ? `Sign-in ${channel.expiresAt > Date.now() ? 'expires' : 'expired'} ${relative(channel.expiresAt)} (${formatWhen(channel.expiresAt)})${channel.expiresAt > Date.now() ? ': connect it again before then to keep publishing' : ''}.`
            : 'No stored sign-in.'}{' '}
        {channel.lastRefreshAt ? `Renewed ${relative(channel.lastRefreshAt)}.` : ''}
      </p>
      {!live && <p className="hint">This channel cannot publish until you connect it again.</p>}
      <div className="row wrap">
        {live ? (
          <>
            <button type="button" onClick={() => act.mutate('refresh')} disabled={act.isPending}>
              Refresh sign-in
            </button>
            <button
              type="button"
              className="danger"
              disabled={act.isPending}
              onClick={() =>
                window.confirm(
                  'Disconnect this channel? Its stored tokens are wiped; scheduled posts to it will fail.',
                ) && act.mutate('disconnect')
              }
            >
              Disconnect
            </button>
          </>
        ) : (
          <button type="button" onClick={onReconnect}>
            Connect again
          </button>
        )}
      </div>
      {act.isPending && <Working label="Talking to the platform…" />}
      {act.isSuccess && act.variables === 'refresh' && (
        <Notice>Sign-in checked; renewed if it was close to expiry.</Notice>
      )}
      <ErrorBox error={act.error} />
    </li>
  );
}
