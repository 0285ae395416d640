import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.ts';
import { SecretOnce } from '../components/CopyButton.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { ApiError } from '../lib/errors.ts';
import { invitedLine, joinRoleWords, withArticle } from '../lib/roles.ts';
import { formatWhen } from '../lib/time.ts';

/**
 * Where an invitation link lands (`#/join?token=…`): the page first says who invites the
 * person, to which workspace and as what (POST /v1/invitations/preview), then takes a name and,
 * if they want to sign in with it later, a password. Their first API key is shown once, then
 * the console opens with it. A link that no longer works says why and what to do, with no form.
 */
export function JoinPage({ token, onJoined }: { token: string; onJoined: (key: string) => void }) {
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
      <Invitation token={token} onJoined={onJoined} />
    </div>
  );
}

function Invitation({ token, onJoined }: { token: string; onJoined: (key: string) => void }) {
  // Read once: the answer does not change while the page is open, and a refetch after joining
  // would only say the link was used.
  const preview = useQuery({
    queryKey: ['invitation-preview', token],
    queryFn: () => ok(api.POST('/v1/invitations/preview', { body: { token } })),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
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

  if (preview.isPending) return <Working label="Reading the invitation…" />;
  if (preview.error) return <LinkProblem error={preview.error} />;
  const invitation = preview.data.invitation;

  if (join.data)
    return (
      <section className="card" aria-labelledby="joined-title">
        <h2 id="joined-title">
          You joined the workspace of {invitation.workspace} as {withArticle(join.data.member.role)}
        </h2>
        <SecretOnce label="Your API key." value={join.data.apiKey} />
        <p>This browser remembers it until you sign out.</p>
        <button type="button" className="primary" onClick={() => onJoined(join.data.apiKey)}>
          Continue to the console
        </button>
      </section>
    );

  return (
    <section className="card" aria-labelledby="join-title">
      <h2 id="join-title">{invitedLine(invitation)}</h2>
      <p>{joinRoleWords(invitation.role, invitation.approvals)}</p>
      <p className="muted">
        You will join as {invitation.email}. The link works once, until {formatWhen(invitation.expiresAt)}.
      </p>
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
      {join.error instanceof ApiError && LINK_GONE.has(join.error.code) ? (
        <LinkProblem error={join.error} />
      ) : (
        <ErrorBox error={join.error} />
      )}
    </section>
  );
}

/** The answers that mean this link will not work again, whatever the person does on this page. */
const LINK_GONE = new Set(['invitation_used', 'invitation_expired', 'not_found']);

/** Why a link no longer works, in the person's terms, with the one thing left to do. */
function LinkProblem({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || !LINK_GONE.has(error.code)) return <ErrorBox error={error} />;
  if (error.code === 'invitation_used')
    return (
      <div className="error" role="alert">
        <strong>This invitation link has already been used.</strong> If you joined with it,{' '}
        <a href="#/signin">sign in</a> with your email and password or your API key; otherwise ask the person
        who invited you for a new link.
      </div>
    );
  if (error.code === 'invitation_expired')
    return (
      <div className="error" role="alert">
        <strong>This invitation link has expired.</strong> Invitation links work for 7 days; ask the person
        who invited you for a new one.
      </div>
    );
  return (
    <div className="error" role="alert">
      <strong>This invitation link does not work.</strong> It may have been withdrawn, replaced by a newer
      invitation, or copied only in part; ask the person who invited you to send it again.
    </div>
  );
}
