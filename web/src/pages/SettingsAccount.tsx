import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Notice } from '../components/ErrorBox.tsx';
import { ApiError } from '../lib/errors.ts';
import { useAccountSettings } from '../lib/hooks.ts';
import { browserZone } from '../lib/time.ts';

type Role = Schemas['Member']['role'];

/** Every zone this browser knows, for the time zone field's suggestions (the API checks the name). */
function knownZones(): string[] {
  const intl = Intl as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : [];
}

/**
 * A refusal about the one field of a form (a 400, or the email another account has), said once
 * beside it: the API's message already names the fix, so its per-field detail is not repeated.
 * Any other failure goes to the ErrorBox.
 */
function FieldError({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiError && (error.status === 400 || error.code === 'email_taken'))
    return (
      <p className="error" role="alert">
        {error.message}
      </p>
    );
  return <ErrorBox error={error} />;
}

/**
 * The account's email (the owner changes it) and time zone (an admin or the owner changes it),
 * each a small form that says what it is used for and confirms once it is saved.
 */
export function AccountForms({ email, role }: { email: string; role: Role }) {
  return (
    <>
      <EmailForm email={email} canChange={role === 'owner'} />
      <ZoneForm canChange={role === 'owner' || role === 'admin'} />
    </>
  );
}

function EmailForm({ email, canChange }: { email: string; canChange: boolean }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(email);
  useEffect(() => setValue(email), [email]);
  const save = useMutation({
    mutationFn: (next: string) => ok(api.PATCH('/v1/account', { body: { email: next } })),
    onSuccess: () => {
      // This page's facts and the header's "signed in as" both show the email.
      queryClient.invalidateQueries({ queryKey: ['account-budget'] });
      queryClient.invalidateQueries({ queryKey: ['account'] });
    },
  });
  if (!canChange)
    return (
      <p>
        Email: <strong>{email}</strong>{' '}
        <span className="muted">(only the account’s owner can change it)</span>
      </p>
    );
  const next = value.trim();
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(next);
      }}
    >
      <label>
        Email
        <input
          type="email"
          required
          maxLength={254}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <button type="submit" disabled={save.isPending || next.toLowerCase() === email.toLowerCase()}>
        Save email
      </button>
      {save.isSuccess && next.toLowerCase() === email.toLowerCase() && (
        <Notice kind="success">The account’s email is now {email}.</Notice>
      )}
      <FieldError error={save.error} />
    </form>
  );
}

function ZoneForm({ canChange }: { canChange: boolean }) {
  const queryClient = useQueryClient();
  const settings = useAccountSettings();
  const zone = settings.data?.settings.timezone;
  const here = browserZone();
  const [value, setValue] = useState('');
  useEffect(() => setValue(zone ?? ''), [zone]);
  const zones = useMemo(knownZones, []);
  const save = useMutation({
    mutationFn: (timezone: string) => ok(api.PATCH('/v1/account/settings', { body: { timezone } })),
    onSuccess: (result) => {
      queryClient.setQueryData(['settings'], result);
      // What the zone is the default of: a queue without slots, insights.
      for (const key of ['queue', 'queue-suggest', 'insights'])
        queryClient.invalidateQueries({ queryKey: [key] });
    },
  });
  if (settings.error) return <ErrorBox error={settings.error} />;
  if (!zone) return null;
  const use = 'New queues and Insights use it unless you choose another zone.';
  if (!canChange)
    return (
      <p>
        Time zone: <strong>{zone}</strong>. {use}{' '}
        <span className="muted">(an admin or the owner can change it)</span>
      </p>
    );
  const next = value.trim();
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(next);
      }}
    >
      <label>
        Time zone
        <input
          list="known-zones"
          required
          maxLength={64}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-describedby="zone-use"
        />
      </label>
      <datalist id="known-zones">
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <p id="zone-use" className="hint">
        {use}
      </p>
      <div className="row">
        <button type="submit" disabled={save.isPending || next === zone}>
          Save time zone
        </button>
        {here !== zone && (
          <button type="button" disabled={save.isPending} onClick={() => save.mutate(here)}>
            Use this browser’s zone ({here})
          </button>
        )}
      </div>
      {save.isSuccess && save.data.settings.timezone === zone && (
        <Notice kind="success">The account’s time zone is now {zone}.</Notice>
      )}
      <FieldError error={save.error} />
    </form>
  );
}
