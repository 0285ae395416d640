import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, keyStore, ok, type Schemas } from '../api.ts';
import { SecretOnce } from '../components/CopyButton.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { SaveKeyButtons } from '../components/KeySafety.tsx';

type Workspace = { accountId: string; email: string };

/**
 * Signs a member in with email and password (POST /v1/sessions): the browser keeps the session
 * cookie, the page keeps nothing. When the email and password open several workspaces, the
 * person picks one and it is sent again with its accountId.
 */
function PasswordSignIn({ onSession }: { onSession: (session: Schemas['SessionResult']) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const [accountId, setAccountId] = useState('');
  const signIn = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/v1/sessions', {
          body: { email: email.trim(), password, ...(accountId ? { accountId } : {}) },
        }),
      ),
    onSuccess: onSession,
    onError: (err) => {
      const listed = (err as { code?: string; body?: { error?: { workspaces?: Workspace[] } } }).body?.error
        ?.workspaces;
      if ((err as { code?: string }).code === 'workspace_required' && listed) {
        setWorkspaces(listed);
        setAccountId(listed[0]?.accountId ?? '');
      }
    },
  });
  const choosing = workspaces.length > 0;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        signIn.mutate();
      }}
    >
      <label htmlFor="signin-email">Email address</label>
      <input
        id="signin-email"
        type="email"
        required
        autoComplete="username"
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setWorkspaces([]);
          setAccountId('');
        }}
        placeholder="you@agency.example"
      />
      <label htmlFor="signin-password">Password</label>
      <input
        id="signin-password"
        type="password"
        required
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {choosing && (
        <>
          <label htmlFor="signin-workspace">Workspace</label>
          <select id="signin-workspace" value={accountId} onChange={(e) => setAccountId(e.target.value)}>
            {workspaces.map((w) => (
              <option key={w.accountId} value={w.accountId}>
                {w.email}
              </option>
            ))}
          </select>
          <p className="hint">You are a member of several workspaces; each is named by its owner’s email.</p>
        </>
      )}
      <button type="submit" className="primary" disabled={signIn.isPending}>
        {choosing ? 'Sign in to this workspace' : 'Sign in'}
      </button>
      {signIn.isPending && <Working label="Signing in…" />}
      {!(choosing && (signIn.error as { code?: string } | null)?.code === 'workspace_required') && (
        <ErrorBox error={signIn.error} />
      )}
    </form>
  );
}

/**
 * Create an account (the key is shown once), sign in as a member with email and password (a
 * session cookie), or paste an existing key (kept in this browser).
 */
export function SignInPage({
  onSignedIn,
  onSession,
}: {
  onSignedIn: (key: string) => void;
  onSession: (session: Schemas['SessionResult']) => void;
}) {
  const [withPassword, setWithPassword] = useState(false);
  const [email, setEmail] = useState('');
  const [pasted, setPasted] = useState('');
  const signup = useMutation({
    mutationFn: () => ok(api.POST('/v1/account', { body: { email: email.trim() } })),
    onSuccess: (created) => {
      // Kept from the first second, so a reload or a closed tab before Continue loses nothing;
      // marked unsaved until it is copied or downloaded (the console says so on every page).
      keyStore.set(created.apiKey);
      keyStore.markUnsaved(created.account.email);
      // A new account answers any earlier failed sign-in: its error no longer applies.
      check.reset();
    },
  });
  const check = useMutation({
    mutationFn: async (key: string) => {
      const res = await api.GET('/v1/account', { headers: { authorization: `Bearer ${key}` } });
      return ok(Promise.resolve(res)).then(() => key);
    },
    onSuccess: (key) => onSignedIn(key),
  });

  return (
    <div className="signin">
      <h1>Postkit Studio</h1>
      <p className="lead">
        Write a post, see how it will score and look on the platform, then schedule and publish it.
      </p>
      <div className="cards two">
        <section className="card" aria-labelledby="signup-title">
          <h2 id="signup-title">New here? Create an account</h2>
          {signup.data ? (
            <>
              <SecretOnce label="Your API key." value={signup.data.apiKey}>
                <SaveKeyButtons
                  apiKey={signup.data.apiKey}
                  email={signup.data.account.email}
                  onSaved={keyStore.markSaved}
                />
              </SecretOnce>
              <p>
                This browser keeps it already: a reload or a closed tab keeps you signed in here. To sign in
                anywhere else, or after signing out, you need your own copy.
              </p>
              <button type="button" className="primary" onClick={() => onSignedIn(signup.data.apiKey)}>
                Continue to the console
              </button>
            </>
          ) : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                signup.mutate();
              }}
            >
              <label htmlFor="signup-email">Email</label>
              <input
                id="signup-email"
                type="email"
                required
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                placeholder="you@example.com"
              />
              <button type="submit" className="primary" disabled={signup.isPending}>
                Create account
              </button>
              {signup.isPending && <Working label="Creating your account…" />}
              <ErrorBox error={signup.error} />
            </form>
          )}
        </section>
        <section className="card" aria-labelledby="key-title">
          <h2 id="key-title">Have a key? Sign in</h2>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              check.mutate(pasted.trim());
            }}
          >
            <label htmlFor="api-key">API key</label>
            <input
              id="api-key"
              type="password"
              required
              autoComplete="off"
              spellCheck={false}
              value={pasted}
              onChange={(e) => setPasted(e.target.value)}
              placeholder="kit_sk_…"
            />
            <button type="submit" className="primary" disabled={check.isPending}>
              Sign in
            </button>
            {check.isPending && <Working label="Checking the key…" />}
            <ErrorBox error={check.error} />
          </form>
          <p className="hint">The key is kept in this browser's local storage; signing out forgets it.</p>
        </section>
        <section className="card" aria-labelledby="password-title">
          <h2 id="password-title">Set a password? Sign in as yourself</h2>
          {withPassword ? (
            <PasswordSignIn onSession={onSession} />
          ) : (
            <>
              <p>
                Members sign in with the email they were invited with and the password they chose. An owner
                sets one on the Team page.
              </p>
              <button type="button" onClick={() => setWithPassword(true)}>
                Use my email and password
              </button>
            </>
          )}
        </section>
      </div>
    </div>
  );
}
