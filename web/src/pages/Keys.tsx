import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, keyStore, ok, type Schemas } from '../api.ts';
import { SecretOnce } from '../components/CopyButton.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { formatWhen, relative } from '../lib/time.ts';

type ApiKey = Schemas['ApiKey'];

/**
 * The account's API keys: create one (its secret shown once), rotate one (a new secret, the old
 * one stops working), revoke one. The key this browser signed in with is marked: rotating it
 * switches this browser to the new secret; revoking it signs this browser out.
 */
export function KeysPage() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => ok(api.GET('/v1/keys')) });
  const whoami = useQuery({ queryKey: ['whoami-key'], queryFn: () => ok(api.GET('/v1/account')) });
  const currentId = whoami.data?.key?.id ?? null;
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['keys'] });
  const create = useMutation({
    mutationFn: () => ok(api.POST('/v1/keys', { body: { name: name.trim() } })),
    onSuccess: (r) => {
      setName('');
      setSecret({ label: `The new key “${r.key.name}”.`, value: r.apiKey });
      refresh();
    },
  });
  const act = useMutation({
    mutationFn: async ({ key, action }: { key: ApiKey; action: 'rotate' | 'revoke' }) => {
      const params = { params: { path: { id: key.id } } };
      if (action === 'revoke') {
        await ok(api.DELETE('/v1/keys/{id}', params));
        return { key, action, replacement: null };
      }
      return { key, action, replacement: await ok(api.POST('/v1/keys/{id}/rotate', params)) };
    },
    onSuccess: ({ key, action, replacement }) => {
      if (key.id === currentId) {
        if (action === 'revoke') {
          // This browser's key is gone: back to the sign-in page, nothing of the old session kept.
          keyStore.clear();
          window.location.hash = '#/signin';
          window.location.reload();
          return;
        }
        // This browser's own key: carry on with the replacement.
        if (replacement) keyStore.set(replacement.apiKey);
        queryClient.invalidateQueries({ queryKey: ['whoami-key'] });
      }
      if (replacement) setSecret({ label: `The replacement for “${key.name}”.`, value: replacement.apiKey });
      refresh();
    },
  });
  const live = (keys.data?.keys ?? []).filter((k) => k.revokedAt === null);
  const revoked = (keys.data?.keys ?? []).filter((k) => k.revokedAt !== null);
  return (
    <div>
      <h1>API keys</h1>
      <p className="muted">
        Each key opens the whole account: give each program its own, so you can rotate or revoke one without
        touching the others.
      </p>
      <form
        className="card form"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h2>Create a key</h2>
        <label>
          Name{' '}
          <input
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. the scheduling script"
          />
        </label>
        <button type="submit" className="primary" disabled={create.isPending || !name.trim()}>
          Create key
        </button>
        {create.isPending && <Working label="Creating the key…" />}
        <ErrorBox error={create.error} />
      </form>
      {secret && <SecretOnce label={secret.label} value={secret.value} />}
      <ErrorBox error={keys.error ?? act.error} />
      {keys.isPending && <Working label="Loading keys…" />}
      <ul className="cards">
        {live.map((k) => (
          <li key={k.id} className="card">
            <div className="row wrap">
              <strong>{k.name}</strong>
              <code>{k.keyPrefix}…</code>
              {k.id === currentId && <span className="chip">This browser signed in with it</span>}
            </div>
            <p className="muted">
              Created {formatWhen(k.createdAt)};{' '}
              {k.lastUsedAt ? `last used ${relative(k.lastUsedAt)}` : 'never used yet'}.
            </p>
            <div className="row wrap">
              <button
                type="button"
                disabled={act.isPending}
                onClick={() =>
                  window.confirm(
                    `Rotate “${k.name}”? Its secret stops working now and a new one is shown once.${k.id === currentId ? ' This browser switches to the new one.' : ''}`,
                  ) && act.mutate({ key: k, action: 'rotate' })
                }
              >
                Rotate
              </button>
              <button
                type="button"
                className="danger"
                disabled={act.isPending}
                onClick={() =>
                  window.confirm(
                    `Revoke “${k.name}”? Programs using it stop working, and this cannot be undone.${k.id === currentId ? ' This browser uses it, so you will be signed out.' : ''}`,
                  ) && act.mutate({ key: k, action: 'revoke' })
                }
              >
                Revoke
              </button>
            </div>
          </li>
        ))}
      </ul>
      {revoked.length > 0 && (
        <>
          <h2>Revoked</h2>
          <ul className="plain">
            {revoked.map((k) => (
              <li key={k.id} className="muted">
                {k.name} (<code>{k.keyPrefix}…</code>), revoked {formatWhen(k.revokedAt!)}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
