import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { CopyButton } from '../components/CopyButton.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { PasswordCard } from '../components/PasswordCard.tsx';
import { ROLE_HELP, ROLES, type Role } from '../lib/roles.ts';
import { formatWhen } from '../lib/time.ts';

type Member = Schemas['Member'];

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
  const list = members.data?.members ?? [];
  const myId = me.data?.member.id;
  const owners = list.filter((m) => m.role === 'owner').length;
  // What the API allows (docs/teams.md), so nothing is offered that it would refuse: an admin
  // manages members below owner and cannot make an owner; the last owner keeps the role and
  // stays. Removing oneself is not offered either: it would end this session mid-page.
  const mayManage = (m: Member) => manager && (m.role !== 'owner' || role === 'owner');
  const lastOwner = (m: Member) => m.role === 'owner' && owners === 1;
  const roleChoices = (m: Member): Role[] =>
    mayManage(m) && !lastOwner(m) ? ROLES.filter((r) => r !== 'owner' || role === 'owner') : [m.role];
  const removable = (m: Member) => mayManage(m) && !lastOwner(m) && m.id !== myId;
  const anyRemovable = list.some(removable);
  const soleOwner = role === 'owner' && owners === 1;
  return (
    <div>
      <h1>Team</h1>
      {members.error ? <ErrorBox error={members.error} /> : null}
      <section className="card">
        <h2>Members</h2>
        <div className="table-wrap">
          <table className="team-table">
            <thead>
              <tr>
                <th>Member</th>
                <th>Role</th>
                <th>Last active</th>
                {anyRemovable ? <th>Remove</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.map((m) => {
                const name = m.name ?? m.email;
                const roles = roleChoices(m);
                return (
                  <tr key={m.id}>
                    <td>
                      {name}
                      {m.name ? <span className="muted"> {m.email}</span> : null}
                      {m.id === myId ? <span className="muted"> (you)</span> : null}
                    </td>
                    <td data-label="Role">
                      {roles.length > 1 ? (
                        <select
                          aria-label={`Role of ${name}`}
                          value={m.role}
                          onChange={(e) => change.mutate({ id: m.id, role: e.target.value as Role })}
                        >
                          {roles.map((r) => (
                            <option key={r} value={r}>
                              {r}
                            </option>
                          ))}
                        </select>
                      ) : (
                        m.role
                      )}
                    </td>
                    <td data-label="Last active">
                      {m.lastActiveAt === null ? 'never' : formatWhen(m.lastActiveAt)}
                    </td>
                    {anyRemovable ? (
                      <td>
                        {removable(m) ? (
                          <button
                            type="button"
                            aria-label={`Remove ${name}`}
                            onClick={() => remove.mutate(m.id)}
                          >
                            Remove
                          </button>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {soleOwner ? (
          <p className="hint">
            You are the only owner, so your role stays owner: make another member an owner first to change it.
          </p>
        ) : null}
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
                {/* Only an owner invites an owner. */}
                {ROLES.filter((r) => r !== 'owner' || role === 'owner').map((r) => (
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
