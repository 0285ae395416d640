import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.ts';
import { SecretOnce } from '../components/CopyButton.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';

/**
 * Where an invitation link lands (`#/join?token=…`): the person gives a name and, if they want
 * to sign in with it later, a password, and joins the workspace with the invitation's role.
 * Their first API key is shown once, then the console opens with it.
 */
export function JoinPage({ token, onJoined }: { token: string; onJoined: (key: string) => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const join = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/v1/invitations/accept', {
          body: { token, ...(name.trim() ? { name: name.trim() } : {}), ...(password ? { password } : {}) },
        }),
      ),
  });

  if (!token)
    return (
      <div className="signin">
        <h1>Join a workspace</h1>
        <p>This link has no invitation in it. Ask the person who invited you to send the link again.</p>
      </div>
    );

  return (
    <div className="signin">
      <h1>Join a workspace</h1>
      {join.data ? (
        <section className="card" aria-labelledby="joined-title">
          <h2 id="joined-title">
            You joined as{' '}
            {join.data.member.role === 'admin' || join.data.member.role === 'editor' ? 'an' : 'a'}{' '}
            {join.data.member.role}
          </h2>
          <SecretOnce label="Your API key." value={join.data.apiKey} />
          <p>This browser remembers it until you sign out.</p>
          <button type="button" className="primary" onClick={() => onJoined(join.data.apiKey)}>
            Continue to the console
          </button>
        </section>
      ) : (
        <section className="card" aria-labelledby="join-title">
          <h2 id="join-title">You were invited</h2>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              join.mutate();
            }}
          >
            <label htmlFor="join-name">Your name</label>
            <input
              id="join-name"
              autoComplete="name"
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
            />
            <label htmlFor="join-password">Password (optional, at least 10 characters)</label>
            <input
              id="join-password"
              type="password"
              autoComplete="new-password"
              minLength={10}
              maxLength={200}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button type="submit" className="primary" disabled={join.isPending}>
              Join the workspace
            </button>
            {join.isPending && <Working label="Joining…" />}
          </form>
          <ErrorBox error={join.error} />
        </section>
      )}
    </div>
  );
}
