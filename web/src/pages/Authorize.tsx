import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';

type Scope = Schemas['ConnectedApp']['scopes'][number];

const SCOPE_TITLE: Record<Scope, string> = {
  read: 'Read',
  write: 'Write',
  publish: 'Publish',
};

/**
 * The consent page of Postkit's OAuth server: an agent (MCP client) asked to connect to this
 * account. GET /oauth/authorize parked its request and sent the browser here; approving sends
 * the browser back to the app with a single-use code, denying with access_denied.
 */
export function AuthorizePage({ requestId }: { requestId: string }) {
  const request = useQuery({
    queryKey: ['oauth-request', requestId],
    queryFn: () => ok(api.GET('/v1/oauth/requests/{id}', { params: { path: { id: requestId } } })),
    // Opened without a request (typed, bookmarked): there is nothing to ask the API about.
    enabled: requestId !== '',
    retry: false,
  });
  const [unticked, setUnticked] = useState<Scope[]>([]);
  const view = request.data?.request;
  const chosen = (view?.scopes ?? []).map((s) => s.scope).filter((s) => !unticked.includes(s));
  const leave = ({ redirectTo }: { redirectTo: string }) => window.location.assign(redirectTo);
  const approve = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/v1/oauth/requests/{id}/approve', {
          params: { path: { id: requestId } },
          body: { scopes: chosen },
        }),
      ),
    onSuccess: leave,
  });
  const deny = useMutation({
    mutationFn: () => ok(api.POST('/v1/oauth/requests/{id}/deny', { params: { path: { id: requestId } } })),
    onSuccess: leave,
  });
  const answering = approve.isPending || deny.isPending || approve.isSuccess || deny.isSuccess;

  return (
    <div className="consent">
      <h1>Connect an app to Postkit</h1>
      {requestId === '' && (
        <p>
          No app is asking to connect right now. This page opens by itself when an app (an AI agent, for one)
          asks to use your account; the apps you approved are on <a href="#/connected-apps">Connected apps</a>
          .
        </p>
      )}
      {requestId !== '' && request.isPending && <Working label="Reading the request…" />}
      <ErrorBox error={request.error} />
      {view && (
        <section className="card" aria-labelledby="consent-title">
          <h2 id="consent-title">
            <span className="app-name">{view.client.name}</span> wants to use your Postkit account
          </h2>
          <p>
            After you answer, your browser goes back to{' '}
            <strong className="redirect-host">{view.redirectHost}</strong>. Only approve if you started this
            from that app. The name is the one the app gave itself.
          </p>
          <fieldset>
            <legend>It asks to</legend>
            {view.scopes.map(({ scope, description }) => (
              <label key={scope} className="check">
                <input
                  type="checkbox"
                  name={`scope-${scope}`}
                  checked={!unticked.includes(scope)}
                  onChange={(e) =>
                    setUnticked(e.target.checked ? unticked.filter((s) => s !== scope) : [...unticked, scope])
                  }
                />{' '}
                <span>
                  <strong>{SCOPE_TITLE[scope]}</strong>: {description}.
                </span>
              </label>
            ))}
          </fieldset>
          <p className="hint">
            Untick what you do not want to allow. You can disconnect the app at any time on the Connected apps
            page; its access ends at once.
          </p>
          <div className="row wrap">
            <button
              type="button"
              className="primary"
              disabled={answering || chosen.length === 0}
              onClick={() => approve.mutate()}
            >
              Approve
            </button>
            <button type="button" disabled={answering} onClick={() => deny.mutate()}>
              Deny
            </button>
          </div>
          {chosen.length === 0 && <p className="hint">Tick at least one permission to approve, or deny.</p>}
          {answering && !approve.error && !deny.error && <Working label="Returning to the app…" />}
          <ErrorBox error={approve.error ?? deny.error} />
        </section>
      )}
    </div>
  );
}
