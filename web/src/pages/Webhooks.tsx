import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { SecretOnce } from '../components/CopyButton.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { Status } from '../components/Status.tsx';
import { formatWhen } from '../lib/time.ts';
import { ArrivedAtReceiver, DemoReceiverCard, useDemoReceiver } from './WebhookInbox.tsx';
import { WebhookTest } from './WebhookTest.tsx';

type Webhook = Schemas['WebhookEndpoint'];

export function WebhooksPage() {
  const queryClient = useQueryClient();
  const hooks = useQuery({ queryKey: ['webhooks'], queryFn: () => ok(api.GET('/v1/webhooks')) });
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const all = hooks.data?.events ?? [];
  const receiver = useDemoReceiver();
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/v1/webhooks', {
          body: { url, ...(events.length ? { events: events as Webhook['events'] } : {}) },
        }),
      ),
    onSuccess: () => {
      setUrl('');
      setEvents([]);
      queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  return (
    <div>
      <h1>Webhooks</h1>
      <p className="muted">
        Postkit calls your endpoint, signed, when a post is published, fails or is scored, or a channel
        disconnects.
      </p>
      {receiver && (
        <DemoReceiverCard
          url={receiver}
          added={hooks.data?.webhooks.some((w) => w.url === receiver) ?? false}
        />
      )}
      <form
        className="card form"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h2>Add an endpoint</h2>
        <label>
          HTTPS URL{' '}
          <input
            type="url"
            required
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/hooks/postkit"
          />
        </label>
        <fieldset>
          <legend>Events (none ticked = all)</legend>
          {all.map((ev) => (
            <label key={ev} className="check">
              <input
                type="checkbox"
                checked={events.includes(ev)}
                onChange={(e) =>
                  setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))
                }
              />{' '}
              {ev}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="primary" disabled={create.isPending}>
          Add endpoint
        </button>
        {create.isPending && <Working label="Adding…" />}
        <ErrorBox error={create.error} />
        {create.data && <SecretOnce label="Signing secret." value={create.data.secret} />}
      </form>
      <ErrorBox error={hooks.error} />
      {hooks.data?.webhooks.length === 0 && <p className="muted">No endpoints yet.</p>}
      <ul className="cards">
        {hooks.data?.webhooks.map((w) => (
          <WebhookRow key={w.id} hook={w} demoReceiver={w.url === receiver} />
        ))}
      </ul>
    </div>
  );
}

/** One endpoint; the demo's own receiver also shows what arrived there. */
function WebhookRow({ hook, demoReceiver }: { hook: Webhook; demoReceiver: boolean }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const deliveries = useQuery({
    queryKey: ['deliveries', hook.id],
    queryFn: () =>
      ok(
        api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { limit: 20 } } }),
      ),
    enabled: open,
    refetchInterval: open ? 5000 : false,
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/v1/webhooks/{id}', { params: { path: { id: hook.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  return (
    <li className="card">
      <div className="row wrap">
        <code>{hook.url}</code>
        <Status value={hook.status} />
      </div>
      <p className="muted">Events: {hook.events.join(', ')}</p>
      <div className="row wrap">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide deliveries' : 'Show deliveries'}
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => window.confirm('Delete this endpoint? Deliveries stop.') && remove.mutate()}
        >
          Delete
        </button>
      </div>
      <WebhookTest id={hook.id} />
      {demoReceiver && <ArrivedAtReceiver url={hook.url} />}
      <ErrorBox error={remove.error ?? deliveries.error} />
      {open && deliveries.data && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Next attempt</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.deliveries.length === 0 && (
                <tr>
                  <td colSpan={5}>No deliveries yet: they appear when a subscribed event happens.</td>
                </tr>
              )}
              {deliveries.data.deliveries.map((d) => (
                <tr key={d.id}>
                  <td>{d.event}</td>
                  <td>
                    <Status value={d.status} />
                  </td>
                  <td>{d.attempts}</td>
                  <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
                  <td>{d.nextAttemptAt ? formatWhen(d.nextAttemptAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}
