import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { formatWhen } from '../lib/time.ts';

type ConnectedApp = Schemas['ConnectedApp'];

/** Apps (AI agents over MCP) this account connected through OAuth, with what they may do. */
export function ConnectedAppsPage() {
  const apps = useQuery({ queryKey: ['connected-apps'], queryFn: () => ok(api.GET('/v1/oauth/apps')) });
  return (
    <div>
      <h1>Connected apps</h1>
      <p className="muted">
        Agents you connected to Postkit by signing in from them (for example by adding Postkit as a connector
        by its URL). Disconnecting one ends its access at once.
      </p>
      {apps.isPending && <Working label="Loading the apps…" />}
      <ErrorBox error={apps.error} />
      {apps.data?.apps.length === 0 && (
        <p className="muted">
          No connected apps. Add {`${window.location.origin}/mcp`} to an agent to connect one.
        </p>
      )}
      <ul className="cards">
        {apps.data?.apps.map((app) => (
          <AppRow key={app.clientId} app={app} />
        ))}
      </ul>
    </div>
  );
}

const SCOPE_WORDS: Record<ConnectedApp['scopes'][number], string> = {
  read: 'read',
  write: 'write drafts and use the model',
  publish: 'publish',
};

function AppRow({ app }: { app: ConnectedApp }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => ok(api.DELETE('/v1/oauth/apps/{id}', { params: { path: { id: app.clientId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['connected-apps'] }),
  });
  return (
    <li className="card connected-app">
      <h2>{app.name}</h2>
      <p>
        May {app.scopes.map((s) => SCOPE_WORDS[s]).join(', ')}. Returns to {app.redirectHosts.join(', ')}.
      </p>
      <p className="muted">
        Connected {formatWhen(app.connectedAt)};{' '}
        {app.lastUsedAt === null ? 'not used yet' : `last used ${formatWhen(app.lastUsedAt)}`}.
      </p>
      <button
        type="button"
        className="danger"
        disabled={revoke.isPending}
        onClick={() => window.confirm(`Disconnect ${app.name}? Its access ends at once.`) && revoke.mutate()}
      >
        Disconnect
      </button>
      <ErrorBox error={revoke.error} />
    </li>
  );
}
