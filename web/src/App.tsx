import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { api, keyStore, ok, type Schemas, sessionStore } from './api.ts';
import { ErrorBox, Working } from './components/ErrorBox.tsx';
import { UnsavedKeyNotice } from './components/KeySafety.tsx';
import { ApiError } from './lib/errors.ts';
import { ApprovalsPage } from './pages/Approvals.tsx';
import { AuthorizePage } from './pages/Authorize.tsx';
import { BrandsPage } from './pages/Brands.tsx';
import { BulkUploadPage } from './pages/BulkUpload.tsx';
import { ChannelsPage } from './pages/Channels.tsx';
import { ComposePage } from './pages/Compose.tsx';
import { ConnectedAppsPage } from './pages/ConnectedApps.tsx';
import { HistoryPage } from './pages/History.tsx';
import { InsightsPage } from './pages/Insights.tsx';
import { JoinPage } from './pages/Join.tsx';
import { KeysPage } from './pages/Keys.tsx';
import { MediaPage } from './pages/Media.tsx';
import { ModelPage } from './pages/Model.tsx';
import { PlanPage } from './pages/Plan.tsx';
import { PostsPage } from './pages/Posts.tsx';
import { QueuePage } from './pages/Queue.tsx';
import { SettingsPage } from './pages/Settings.tsx';
import { SignInPage } from './pages/SignIn.tsx';
import { TeamPage } from './pages/Team.tsx';
import { WebhooksPage } from './pages/Webhooks.tsx';
import { Link, navigate, useRoute } from './router.tsx';

// The calendar and chart libraries are the bulk of the bundle: load them with their pages.
const CalendarPage = lazy(() => import('./pages/Calendar.tsx').then((m) => ({ default: m.CalendarPage })));
const AnalyticsPage = lazy(() => import('./pages/Analytics.tsx').then((m) => ({ default: m.AnalyticsPage })));
const PostPage = lazy(() => import('./pages/Post.tsx').then((m) => ({ default: m.PostPage })));

const PAGES: { path: string; label: string; render: () => React.ReactNode }[] = [
  { path: '/compose', label: 'Compose', render: () => <ComposePage /> },
  { path: '/calendar', label: 'Calendar', render: () => <CalendarPage /> },
  { path: '/posts', label: 'Posts', render: () => <PostsPage /> },
  { path: '/queue', label: 'Queue', render: () => <QueuePage /> },
  { path: '/bulk', label: 'Bulk upload', render: () => <BulkUploadPage /> },
  { path: '/channels', label: 'Channels', render: () => <ChannelsPage /> },
  { path: '/media', label: 'Media', render: () => <MediaPage /> },
  { path: '/analytics', label: 'Analytics', render: () => <AnalyticsPage /> },
  { path: '/plan', label: 'Plan', render: () => <PlanPage /> },
  { path: '/brands', label: 'Brands & voices', render: () => <BrandsPage /> },
  { path: '/webhooks', label: 'Webhooks', render: () => <WebhooksPage /> },
  { path: '/connected-apps', label: 'Connected apps', render: () => <ConnectedAppsPage /> },
  { path: '/history', label: 'History', render: () => <HistoryPage /> },
  { path: '/insights', label: 'Insights', render: () => <InsightsPage /> },
  { path: '/team', label: 'Team', render: () => <TeamPage /> },
  { path: '/approvals', label: 'Approvals', render: () => <ApprovalsPage /> },
  { path: '/keys', label: 'API keys', render: () => <KeysPage /> },
  { path: '/settings', label: 'Settings', render: () => <SettingsPage /> },
];
/** Pages reached by links, not listed in the navigation. */
const LINKED_PAGES: typeof PAGES = [
  { path: '/model', label: 'Language model', render: () => <ModelPage /> },
  { path: '/post', label: 'Post', render: () => <PostPage /> },
];

function notFound(path: string): (typeof PAGES)[number] {
  return {
    path,
    label: 'Not found',
    render: () => (
      <div>
        <h1>No such page</h1>
        <p>
          There is no page at <code>#{path}</code>. Pick one from the list, or{' '}
          <Link to="/compose">write a post</Link>.
        </p>
      </div>
    ),
  };
}

export function App() {
  const [key, setKey] = useState(keyStore.get);
  // Whether this browser started a console session (email and password); its cookie is httpOnly,
  // so the page asks GET /v1/account for it (and its CSRF token) rather than reading it.
  const [sessionStarted, setSessionStarted] = useState(sessionStore.started);
  const route = useRoute();
  const queryClient = useQueryClient();
  const session = useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      const me = await ok(api.GET('/v1/account'));
      sessionStore.csrf = me.session?.csrfToken ?? null;
      return me.session ?? null;
    },
    enabled: !key && sessionStarted,
    retry: false,
  });
  const signedIn = Boolean(key) || Boolean(session.data);
  const whoami = useQuery({
    queryKey: ['account', key ?? session.data?.id],
    queryFn: () => ok(api.GET('/v1/account')),
    enabled: signedIn,
  });

  const enter = () => {
    // Signing in on the consent page stays on it: the person came to answer an app.
    if (route.path !== '/authorize') navigate('/compose');
  };
  const signIn = (apiKey: string) => {
    sessionStore.forget();
    setSessionStarted(false);
    keyStore.set(apiKey);
    queryClient.clear();
    setKey(apiKey);
    enter();
  };
  const startSession = (started: Schemas['SessionResult']) => {
    keyStore.clear();
    sessionStore.start(started.csrfToken);
    queryClient.clear();
    queryClient.setQueryData(['session'], { ...started.session, csrfToken: started.csrfToken });
    setKey(null);
    setSessionStarted(true);
    enter();
  };
  const signOut = async () => {
    // A session ends on the server too (its cookie is cleared there); a key is only forgotten here.
    if (!key && session.data) await api.DELETE('/v1/sessions').catch(() => undefined);
    sessionStore.forget();
    setSessionStarted(false);
    keyStore.clear();
    queryClient.clear();
    setKey(null);
    // On the consent page, signing out keeps the request open for another account.
    if (route.path !== '/authorize') navigate('/signin');
  };

  // An invitation link joins whoever opens it, signed in here or not: the token is the credential.
  if (route.path === '/join')
    return (
      <main id="main" className="auth">
        <JoinPage token={route.params.get('token') ?? ''} onJoined={signIn} />
      </main>
    );

  if (!key && sessionStarted && session.isPending)
    return (
      <main id="main" className="auth">
        <Working label="Signing you in…" />
      </main>
    );

  const ended = whoami.error instanceof ApiError && whoami.error.status === 401;
  if (!signedIn || ended) {
    return (
      <main id="main" className="auth">
        {key && <ErrorBox error={whoami.error} />}
        {!key && sessionStarted && (
          <p className="lead">
            Your console session has ended (signed out, expired or removed); sign in again.
          </p>
        )}
        {route.path === '/authorize' && (
          <p className="lead">Sign in to answer an app that asks to connect to your Postkit account.</p>
        )}
        <SignInPage onSignedIn={signIn} onSession={startSession} />
      </main>
    );
  }

  if (route.path === '/authorize')
    return (
      <main id="main" className="auth">
        <p className="who">
          Signed in as {whoami.data ? signedInAs(whoami.data) : '…'}.{' '}
          <button type="button" className="ghost" onClick={signOut}>
            Not you? Sign out
          </button>
        </p>
        <AuthorizePage requestId={route.params.get('request') ?? ''} />
      </main>
    );

  // The bare address opens Compose; an address of no page says so instead of showing another page.
  const page =
    [...PAGES, ...LINKED_PAGES].find((p) => p.path === route.path) ??
    (route.path === '/' || route.path === '/signin' ? PAGES[0]! : notFound(route.path));
  return (
    <div className="shell">
      <button type="button" className="skip" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header className="top">
        <span className="brand">Postkit Studio</span>
        <span className="who">{whoami.data ? signedInAs(whoami.data) : ''}</span>
        <button type="button" className="ghost" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav className="side" aria-label="Pages">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <Link to={p.path} current={p.path === page.path}>
                {p.label}
              </Link>
            </li>
          ))}
          <li>
            <a href="/docs">API reference ↗</a>
          </li>
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <UnsavedKeyNotice />
        <Suspense fallback={<Working label="Loading the page…" />}>{page.render()}</Suspense>
      </main>
    </div>
  );
}

/**
 * Who is signed in, in the top bar: the member (a workspace has several), and the workspace by
 * its email when that is not the member's own.
 */
function signedInAs(me: Schemas['WhoamiResult']): string {
  const who = me.member.name ?? me.member.email;
  return me.member.email === me.account.email ? who : `${who}, in the workspace of ${me.account.email}`;
}
