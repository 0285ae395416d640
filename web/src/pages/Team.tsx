import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.ts';
import { CopyButton } from '../components/CopyButton.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { PasswordCard } from '../components/PasswordCard.tsx';
import { ROLE_HELP, ROLES, type Role } from '../lib/roles.ts';
import { formatWhen } from '../lib/time.ts';

/**
 * The team: members with their roles (an admin or owner changes a role or removes a member),
 * invitations (the accept link shown once, to copy and send), and the approvals setting.
 */
export function TeamPage() {
  const queryClient = useQueryClient();
  const me = useQuery({ queryKey: ['whoami-key'], queryFn: () => ok(api.GET('/v1/account')) });
  const members = useQuery({ queryKey: ['members'], queryFn: () => ok(api.GET('/v1/members')) });
  const role = me.data?.member.role;
  const manager = role === 'owner' || role === 'admin';
  const invitations = useQuery({
    queryKey: ['invitations'],
    queryFn: () => ok(api.GET('/v1/invitations')),
    enabled: manager,
  });
  // Accepted invitations are members now (listed above); the open ones are the rest.
  const open = invitations.data?.invitations.filter((i) => i.acceptedAt === null);
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => ok(api.GET('/v1/account/settings')) });
  const refresh = (key: string) => queryClient.invalidateQueries({ queryKey: [key] });
  const change = useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) =>
      ok(api.PATCH('/v1/members/{id}', { params: { path: { id } }, body: { role } })),
    onSuccess: () => refresh('members'),
  });
  const remove = useMutation({
    mutationFn: (id: string) => ok(api.DELETE('/v1/members/{id}', { params: { path: { id } } })),
    onSuccess: () => refresh('members'),
  });
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<Role>('editor');
  const [link, setLink] = useState<{ email: string; url: string; mailed: boolean } | null>(null);
  const invite = useMutation({
    mutationFn: () => ok(api.POST('/v1/invitations', { body: { email: email.trim(), role: inviteRole } })),
    onSuccess: (r) => {
      setLink({ email: r.invitation.email, url: r.acceptUrl, mailed: r.mailed });
      setEmail('');
      refresh('invitations');
    },
  });
  const withdraw = useMutation({
    mutationFn: (id: string) => ok(api.DELETE('/v1/invitations/{id}', { params: { path: { id } } })),
    onSuccess: () => refresh('invitations'),
  });
  const approvals = useMutation({
    mutationFn: (value: 'required' | 'off') =>
      ok(api.PATCH('/v1/account/settings', { body: { approvals: value } })),
    onSuccess: () => refresh('settings'),
  });
  if (members.isPending || me.isPending) return <Working label="Loading the team" />;
  return (
    <div>
      <h1>Team</h1>
      {members.error ? <ErrorBox error={members.error} /> : null}
      <section className="card">
        <h2>Members</h2>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Member</th>
                <th>Role</th>
                <th>Last active</th>
                {manager ? <th>Remove</th> : null}
              </tr>
            </thead>
            <tbody>
              {(members.data?.members ?? []).map((m) => (
                <tr key={m.id}>
                  <td>
                    {m.name ?? m.email}
                    {m.name ? <span className="muted"> {m.email}</span> : null}
                    {m.id === me.data?.member.id ? <span className="muted"> (you)</span> : null}
                  </td>
                  <td>
                    {manager ? (
                      <select
                        aria-label={`Role of ${m.name ?? m.email}`}
                        value={m.role}
                        onChange={(e) => change.mutate({ id: m.id, role: e.target.value as Role })}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td>{m.lastActiveAt === null ? 'never' : formatWhen(m.lastActiveAt)}</td>
                  {manager ? (
                    <td>
                      <button
                        type="button"
                        disabled={m.id === me.data?.member.id}
                        onClick={() => remove.mutate(m.id)}
                      >
                        Remove {m.name ?? m.email}
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {change.error ? <ErrorBox error={change.error} /> : null}
        {remove.error ? <ErrorBox error={remove.error} /> : null}
        <ul className="muted">
          {ROLES.map((r) => (
            <li key={r}>
              {r}: {ROLE_HELP[r]}
            </li>
          ))}
        </ul>
      </section>
      {manager ? (
        <section className="card">
          <h2>Invite someone</h2>
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              invite.mutate();
            }}
          >
            <label>
              Email <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
            </label>
            <label>
              Role{' '}
              <select value={inviteRole} onChange={(e) => setInviteRole(e.target.value as Role)}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={invite.isPending}>
              Create the invitation
            </button>
          </form>
          {invite.error ? <ErrorBox error={invite.error} /> : null}
          {link ? (
            <div className="notice">
              <p>
                {link.mailed
                  ? `The invitation was mailed to ${link.email}. The link is also here, shown only now; it works once, for 7 days.`
                  : `Send this link to ${link.email}; it works once, for 7 days, and is shown only now.`}
              </p>
              <code className="secret-value">{link.url}</code>{' '}
              <CopyButton text={link.url} label="Copy the link" />
            </div>
          ) : null}
          <h3>Open invitations</h3>
          {open?.length === 0 && (
            <p className="muted">None open: an invitation shows here until it is accepted.</p>
          )}
          <ul>
            {(open ?? []).map((i) => (
              <li key={i.id}>
                {i.email} as {i.role}, until {formatWhen(i.expiresAt)}{' '}
                <button type="button" onClick={() => withdraw.mutate(i.id)}>
                  Withdraw the invitation to {i.email}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="card">
        <h2>Approvals</h2>
        <p>
          {settings.data?.settings.approvals === 'required'
            ? 'Required: an editor’s posts are scheduled or published only once an owner or admin approves them.'
            : 'Off: editors schedule and publish their own posts.'}
        </p>
        {manager ? (
          <label>
            Approvals{' '}
            <select
              value={settings.data?.settings.approvals ?? 'off'}
              onChange={(e) => approvals.mutate(e.target.value as 'required' | 'off')}
            >
              <option value="off">off</option>
              <option value="required">required</option>
            </select>
          </label>
        ) : null}
        {approvals.error ? <ErrorBox error={approvals.error} /> : null}
      </section>
      <PasswordCard />
    </div>
  );
}
