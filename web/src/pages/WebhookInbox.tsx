import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api.ts';
import { SecretOnce } from '../components/CopyButton.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { useMeta } from '../lib/hooks.ts';
import { formatWhen } from '../lib/time.ts';

/** One delivery as the demo's receiver kept it (scripts/lib/webhook-inbox.ts). */
interface Arrived {
  receivedAt: number;
  event: string | null;
  headers: Record<string, string>;
  body: string;
}

/** The receiver `npm run demo` serves on this machine (GET /v1/meta), or null on any other server. */
export function useDemoReceiver(): string | null {
  return useMeta().data?.capabilities.webhookReceiver ?? null;
}

/**
 * The demo's own receiver, offered as an endpoint to try: one click adds it (its signing secret
 * shown once, as for any endpoint); once it is added, its row shows what arrived there.
 */
export function DemoReceiverCard({ url, added }: { url: string; added: boolean }) {
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: () => ok(api.POST('/v1/webhooks', { body: { url } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  return (
    <section className="card" aria-labelledby="demo-receiver">
      <h2 id="demo-receiver">A receiver on this machine</h2>
      <p>
        This demo serves a receiver at <code>{url}</code> that keeps what it receives, so you can watch a
        signed delivery arrive.{' '}
        {added
          ? 'It is added below: press Send test event on it.'
          : 'Add it, then press Send test event on it.'}
      </p>
      {!added && (
        <button type="button" onClick={() => add.mutate()} disabled={add.isPending}>
          Add the demo receiver
        </button>
      )}
      {add.isPending && <Working label="Adding…" />}
      <ErrorBox error={add.error} />
      {add.data && <SecretOnce label="Signing secret." value={add.data.secret} />}
    </section>
  );
}

/** What the demo's receiver got, newest first, read from the receiver itself every two seconds. */
export function ArrivedAtReceiver({ url }: { url: string }) {
  const arrived = useQuery({
    queryKey: ['demo-receiver', url],
    queryFn: async (): Promise<Arrived[]> => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`The demo receiver answered ${res.status}.`);
      return ((await res.json()) as { arrived: Arrived[] }).arrived;
    },
    refetchInterval: 2000,
  });
  const latest = (arrived.data ?? []).slice(0, 5);
  return (
    <section className="arrived" aria-label="What the demo receiver got">
      <h3>What the demo receiver got</h3>
      <ErrorBox error={arrived.error} />
      {arrived.data && latest.length === 0 && <p className="muted">Nothing yet.</p>}
      {latest.length > 0 && (
        <ol>
          {latest.map((d) => (
            <li key={`${d.receivedAt}-${d.headers['x-kit-delivery'] ?? ''}`}>
              <strong>{d.event ?? 'A request without an event name'}</strong>, received{' '}
              {formatWhen(d.receivedAt)}
              {d.headers['x-kit-signature'] ? ', signed' : ', unsigned'}.
              <code className="wrap">{d.body}</code>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
