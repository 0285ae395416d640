import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { formatWhen } from '../lib/time.ts';

type ConnectedApp = Schemas['ConnectedApp'];

/** Apps (AI agents over MCP) this account connected through OAuth, with what they may do. */
export function ConnectedAppsPage() {
  const apps = useQuery({ queryKey: ['connected-apps'], queryFn: () => ok(api.GET('/v1/oauth/apps')) });
  const me = useQuery({ queryKey: ['whoami-key'], queryFn: () => ok(api.GET('/v1/account')) });
  return (
    <div>
      <h1>Connected apps</h1>
      <p className="muted">
        Agents connected to Postkit by signing in from them (for example by adding Postkit as a connector by
        its URL). You see the ones you connected; owners and admins see everyone's. Disconnecting one ends its
        access at once.
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
          <AppRow key={app.clientId} app={app} myMemberId={me.data?.member.id} />
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

/** `you`, `ana@example.com` and `you and 2 others`, for who connected an app. */
function connectedByWords(app: ConnectedApp, myMemberId: string | undefined): string {
  const names = app.connectedBy.map((m) => (m.memberId === myMemberId ? 'you' : (m.name ?? m.email)));
  if (names.length <= 2) return names.join(' and ');
  return `${names[0]} and ${names.length - 1} others`;
}

function AppRow({ app, myMemberId }: { app: ConnectedApp; myMemberId: string | undefined }) {
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
        Connected {formatWhen(app.connectedAt)} by {connectedByWords(app, myMemberId)};{' '}
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
