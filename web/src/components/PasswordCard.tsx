import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.ts';
import { ErrorBox, Working } from './ErrorBox.tsx';

/**
 * The calling member's console password (PUT /v1/account/password): set one to sign in with
 * email and password, or change it (which needs the current one and signs out other sessions).
 */
export function PasswordCard() {
  const [password, setPassword] = useState('');
  const [current, setCurrent] = useState('');
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PUT('/v1/account/password', {
          body: { password, ...(current ? { currentPassword: current } : {}) },
        }),
      ),
    onSuccess: () => {
      setPassword('');
      setCurrent('');
    },
  });
  const ended = save.data?.signedOut ?? 0;
  return (
    <section className="card" aria-labelledby="password-card-title">
      <h2 id="password-card-title">Your console password</h2>
      <p>With a password you sign in to the console with your email instead of an API key.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <label htmlFor="new-password">New password (at least 10 characters)</label>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          maxLength={200}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <label htmlFor="current-password">Current password (only to change one you have)</label>
        <input
          id="current-password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <button type="submit" className="primary" disabled={save.isPending}>
          Save password
        </button>
        {save.isPending && <Working label="Saving the password…" />}
        <ErrorBox error={save.error} />
        {save.isSuccess && (
          <p role="status">
            Password saved.
            {ended > 0
              ? ` Your other ${ended === 1 ? 'session was' : `${ended} sessions were`} signed out.`
              : ''}
          </p>
        )}
      </form>
    </section>
  );
}
