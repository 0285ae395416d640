import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { ApiError } from '../lib/errors.ts';
import { useMeta } from '../lib/hooks.ts';
import { relative } from '../lib/time.ts';
import { Link } from '../router.tsx';
import { AccountForms } from './SettingsAccount.tsx';

/** The account's request budget, as the API's x-ratelimit-* headers state it on every answer. */
function useBudget() {
  return useQuery({
    queryKey: ['account-budget'],
    queryFn: async () => {
      const { data, error, response } = await api.GET('/v1/account');
      if (error !== undefined || !data) throw new ApiError(response.status, error ?? null);
      const header = (name: string) => {
        const value = response.headers.get(name);
        return value === null ? null : Number(value);
      };
      return {
        whoami: data,
        limit: header('x-ratelimit-limit'),
        remaining: header('x-ratelimit-remaining'),
        reset: header('x-ratelimit-reset'),
      };
    },
  });
}

/**
 * What this server runs and what this account may do: the scoring engine (offline or which
 * model, and where to configure one), storage, the vault, each platform's limits and whether it
 * can publish, the account's email and time zone (changed here), and the request budget.
 */
export function SettingsPage() {
  const meta = useMeta();
  const budget = useBudget();
  const c = meta.data?.capabilities;
  return (
    <div>
      <h1>Settings</h1>
      {(meta.isPending || budget.isPending) && <Working label="Asking the server…" />}
      <ErrorBox error={meta.error ?? budget.error} />
      {budget.data && (
        <section className="card" aria-labelledby="account-title">
          <h2 id="account-title">Your account</h2>
          <AccountForms email={budget.data.whoami.account.email} role={budget.data.whoami.member.role} />
          <dl className="facts">
            <dt>Plan</dt>
            <dd>{budget.data.whoami.account.plan}</dd>
            {budget.data.limit !== null && (
              <>
                <dt>Requests</dt>
                <dd>
                  {budget.data.remaining ?? '—'} of {budget.data.limit} left in this window
                  {budget.data.reset
                    ? `, which renews ${relative(Date.now() + budget.data.reset * 1000)}`
                    : ''}
                  .
                </dd>
              </>
            )}
          </dl>
          <p>
            <Link to="/keys">Manage API keys</Link>
          </p>
        </section>
      )}
      {c && (
        <section className="card" aria-labelledby="engine-title">
          <h2 id="engine-title">Scoring and writing</h2>
          <p>
            <strong>{engineHeading(c)}</strong> {noteAfter(engineHeading(c), c.engineNote)}
          </p>
          <p>
            <Link to="/model">How to configure a language model</Link>
          </p>
        </section>
      )}
      {c && meta.data && (
        <section className="card" aria-labelledby="server-title">
          <h2 id="server-title">This server</h2>
          <dl className="facts">
            <dt>Database</dt>
            <dd>
              {c.database === 'postgres' ? 'PostgreSQL server' : 'Embedded PostgreSQL (PGlite), in ./data'}
            </dd>
            <dt>Cache and limits store</dt>
            <dd>{c.kv === 'redis' ? 'Redis' : 'In this process (one API process)'}</dd>
            <dt>Media storage</dt>
            <dd>{c.mediaStorage === 's3' ? 'S3-compatible object storage' : 'Files on this server'}</dd>
            <dt>Token vault</dt>
            <dd>
              {c.publishing
                ? 'Configured: channel sign-ins are stored encrypted, and channels can publish.'
                : 'Not ready to publish: set KIT_VAULT_KEY and at least one platform’s app credentials (docs/configuration.md).'}
            </dd>
            <dt>Process role</dt>
            <dd>
              {c.role === 'all' ? 'API and background worker' : c.role === 'api' ? 'API only' : 'Worker only'}
            </dd>
            <dt>API version</dt>
            <dd>{meta.data.apiVersion}</dd>
          </dl>
        </section>
      )}
      {meta.data && (
        <section className="card" aria-labelledby="platforms-title">
          <h2 id="platforms-title">Platforms</h2>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Platform</th>
                  <th scope="col">Longest post</th>
                  <th scope="col">Publishing</th>
                </tr>
              </thead>
              <tbody>
                {meta.data.platforms.map((p) => (
                  <tr key={p.id}>
                    <td>{p.id}</td>
                    <td>{p.maxPostLength.toLocaleString('en-US')} characters</td>
                    <td>
                      {p.publishing ? 'Ready: channels can connect and publish' : 'Not configured here'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}

function engineHeading(c: { offline: boolean; model?: string | null; scoringEngine: string }): string {
  return c.offline
    ? 'Offline engine: no language model is configured.'
    : `Language model ${c.model ?? c.scoringEngine} (${c.scoringEngine}).`;
}

/** The server's note without the sentence the heading already says (each line said once). */
function noteAfter(heading: string, note: string): string {
  return note.startsWith(heading) ? note.slice(heading.length).trimStart() : note;
}
