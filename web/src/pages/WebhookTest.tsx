import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';

type TestResult = Schemas['WebhookTestResult'];

/** `sha256=<hex HMAC-SHA256(secret, payload)>`, as a receiver computes it (Web Crypto, in this browser). */
export async function hmacSignature(secret: string, payload: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(payload)));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The receiver's signature check, done here with the secret the person pastes (never sent anywhere). */
function SignatureCheck({ result }: { result: TestResult }) {
  const [secret, setSecret] = useState('');
  const [verdict, setVerdict] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    if (!secret.trim()) setVerdict(null);
    else
      hmacSignature(secret.trim(), result.signedPayload).then((sig) => {
        if (live) setVerdict(sig === result.headers['x-kit-signature']);
      });
    return () => {
      live = false;
    };
  }, [secret, result]);
  return (
    <div className="signature-check">
      <label>
        Signing secret, to check the signature here (it stays in this browser){' '}
        <input
          type="password"
          autoComplete="off"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
        />
      </label>
      {verdict === true && (
        <p className="v-ok">
          ✔ The signature matches this secret: a receiver holding it accepts the delivery.
        </p>
      )}
      {verdict === false && (
        <p className="v-error">
          ✖ The signature does not match this secret: check that it is this endpoint’s secret, shown once when
          the endpoint was added.
        </p>
      )}
    </div>
  );
}

/** "Send test event": one signed webhook.test delivery now, and what the receiver answered. */
export function WebhookTest({ id }: { id: string }) {
  const test = useMutation({
    mutationFn: () => ok(api.POST('/v1/webhooks/{id}/test', { params: { path: { id } } })),
  });
  const r = test.data;
  return (
    <div className="webhook-test">
      <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
        Send test event
      </button>
      {test.isPending && <Working label="Sending a test event…" />}
      <ErrorBox error={test.error} />
      {r && (
        <div className={r.delivered ? 'notice success' : 'error'} role="status">
          <p>
            <strong>{r.delivered ? 'Delivered.' : 'Not delivered.'}</strong>{' '}
            {r.statusCode !== null
              ? `Your endpoint answered ${r.statusCode} in ${r.durationMs} ms.`
              : // The network's own words, closed as a sentence before the next one.
                `${r.error ?? 'No answer.'}${/[.!?]$/.test(r.error ?? '.') ? '' : '.'}`}
            {r.delivered ? '' : ' Real events are retried with backoff; this test is not.'}
          </p>
          <dl className="facts">
            {Object.entries(r.headers).map(([name, value]) => (
              <div key={name}>
                <dt>
                  <code>{name}</code>
                </dt>
                <dd>
                  <code className="wrap">{value}</code>
                </dd>
              </div>
            ))}
            <dt>Body</dt>
            <dd>
              <code className="wrap">{r.body}</code>
            </dd>
          </dl>
          <p className="hint">
            The signature is HMAC-SHA256 with the endpoint’s signing secret over <code>x-kit-timestamp</code>,
            a dot and the raw body. A receiver recomputes it, compares in constant time, and refuses
            timestamps older than five minutes.
          </p>
          <SignatureCheck result={r} />
        </div>
      )}
    </div>
  );
}
