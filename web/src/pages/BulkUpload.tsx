import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { authHeaders, type Post, type Schemas } from '../api.ts';
import { ErrorBox, Notice, Working } from '../components/ErrorBox.tsx';
import { channelName } from '../lib/channels.ts';
import { ApiError } from '../lib/errors.ts';
import { useChannels } from '../lib/hooks.ts';
import { Link } from '../router.tsx';

type DryRun = Schemas['BulkDryRunResult'];

/** The placeholder file: one row, on the account's first channel by the name a person knows it by. */
const sample = (channel: string) => `text,runAt,channel,firstComment
"Our API now speaks CSV. Upload a file, check it, schedule it.",2030-01-12T09:30:00+01:00,${channel.includes(',') ? `"${channel}"` : channel},
`;

/**
 * POST /v1/posts/bulk-schedule with the CSV as it is (the typed client sends JSON only);
 * `channelId`, when chosen, is the channel of the rows that name none.
 */
async function sendCsv(csv: string, dryRun: boolean, channelId: string): Promise<unknown> {
  const query = new URLSearchParams();
  if (dryRun) query.set('dryRun', 'true');
  if (channelId) query.set('channel', channelId);
  const res = await fetch(`/v1/posts/bulk-schedule${query.size ? `?${query}` : ''}`, {
    method: 'POST',
    headers: { ...authHeaders('POST'), 'content-type': 'text/csv; charset=utf-8' },
    body: csv,
  });
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {}
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/** Downloads GET /v1/posts/export (it needs the bearer key, so a plain link cannot fetch it). */
async function download(format: 'csv' | 'json') {
  const res = await fetch(`/v1/posts/export?format=${format}`, {
    headers: authHeaders('GET'),
  });
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `posts.${format}`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/** The problems of a bad row in words: `runAt: "soon" is not a time…`. */
export function rowProblems(row: DryRun['rows'][number]): string {
  return row.errors.map((e) => `${e.path.replace(/^row \d+\./, '')}: ${e.message}`).join('; ');
}

/**
 * CSV upload: pick or paste a file, check it (a dry run: every row's problems and score, nothing
 * written), then schedule it all at once. Also the export of every post, in CSV or JSON.
 */
export function BulkUploadPage() {
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [report, setReport] = useState<DryRun | null>(null);
  const [scheduled, setScheduled] = useState<Post[] | null>(null);
  const [busy, setBusy] = useState<'check' | 'schedule' | 'export' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const channels = useChannels();
  const own = channels.data?.channels ?? [];
  const [channelId, setChannelId] = useState('');

  const run = async (what: 'check' | 'schedule' | 'export', work: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  // A new file, or another channel for its rows: the last check no longer says what would happen.
  const change = (text: string, name: string | null, channel = channelId) => {
    setCsv(text);
    setFileName(name);
    setChannelId(channel);
    setReport(null);
    setScheduled(null);
  };
  const check = () => run('check', async () => setReport((await sendCsv(csv, true, channelId)) as DryRun));
  const schedule = () =>
    run('schedule', async () => {
      const { posts } = (await sendCsv(csv, false, channelId)) as { posts: Post[] };
      setScheduled(posts);
      setReport(null);
      await queryClient.invalidateQueries({ queryKey: ['posts'] });
    });
  const bad = report?.rows.filter((r) => !r.ok) ?? [];

  return (
    <div>
      <h1>Bulk upload</h1>
      <p className="muted">
        Schedule up to 1,000 posts from a CSV file with a header row: <code>text</code>, <code>runAt</code>{' '}
        (an ISO time with its offset, e.g. <code>2030-01-12T09:30:00+01:00</code>, or epoch milliseconds),{' '}
        <code>channel</code>, and optionally <code>firstComment</code> and <code>mediaIds</code>. Check the
        file first: nothing is scheduled unless every row is valid.
      </p>
      <section className="card" aria-labelledby="bulk-channels">
        <h2 id="bulk-channels">Channels</h2>
        {channels.error ? <ErrorBox error={channels.error} /> : null}
        {channels.data && own.length === 0 && (
          <p>
            Connect a channel on <Link to="/channels">Channels</Link> first: every post goes out on one.
          </p>
        )}
        {own.length > 0 && (
          <>
            <p>
              In the <code>channel</code> column, write a channel as it is named here (the platform in
              brackets is needed only when two of your channels share a name):
            </p>
            <ul>
              {own.map((c) => (
                <li key={c.id}>
                  <code>{channelName(c)}</code>
                </li>
              ))}
            </ul>
            <label>
              Rows without a channel go to{' '}
              <select value={channelId} onChange={(e) => change(csv, fileName, e.target.value)}>
                <option value="">no channel: each row names its own</option>
                {own.map((c) => (
                  <option key={c.id} value={c.id}>
                    {channelName(c)}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
      </section>
      <section className="card">
        <h2>Your file</h2>
        <input
          ref={fileInput}
          type="file"
          accept=".csv,text/csv"
          hidden
          aria-label="CSV file"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (file) change(await file.text(), file.name);
          }}
        />
        <button type="button" onClick={() => fileInput.current?.click()}>
          Choose a CSV file…
        </button>
        {fileName && <span className="hint"> {fileName}</span>}
        <label htmlFor="bulk-csv">Or paste the CSV</label>
        <textarea
          id="bulk-csv"
          rows={8}
          value={csv}
          placeholder={sample(own[0] ? channelName(own[0]) : '@your_channel')}
          onChange={(e) => change(e.target.value, null)}
        />
        <div className="actions">
          <button type="button" disabled={!csv.trim() || busy !== null} onClick={check}>
            Check the file
          </button>
          <button
            type="button"
            className="primary"
            disabled={!report?.valid || busy !== null}
            onClick={schedule}
          >
            {report?.valid
              ? `Schedule ${report.rows.length === 1 ? '1 post' : `${report.rows.length} posts`}`
              : 'Schedule'}
          </button>
        </div>
        {busy === 'check' && <Working label="Checking every row…" />}
        {busy === 'schedule' && <Working label="Scheduling…" />}
        <ErrorBox error={error} />
        {scheduled && (
          <Notice kind="success">
            Scheduled {scheduled.length === 1 ? '1 post' : `${scheduled.length} posts`}. See them on the{' '}
            <Link to="/calendar">calendar</Link> or in <Link to="/posts">Posts</Link>.
          </Notice>
        )}
      </section>
      {report && (
        <section className="card" aria-label="Check results">
          <h2>Check results</h2>
          <p>
            {report.valid
              ? `${report.rows.length === 1 ? 'The row is' : `All ${report.rows.length} rows are`} valid: nothing was scheduled yet.`
              : `${bad.length} of ${report.rows.length} rows ${bad.length === 1 ? 'needs' : 'need'} fixing before the file can be scheduled; nothing was scheduled.`}
          </p>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Status</th>
                  <th scope="col">Score</th>
                  <th scope="col">Problems</th>
                </tr>
              </thead>
              <tbody>
                {report.rows.map((row) => (
                  <tr key={row.row} className={row.ok ? undefined : 'bad-row'}>
                    <td>{row.row}</td>
                    <td>{row.ok ? 'Ready' : 'Needs fixing'}</td>
                    <td>{row.score ?? '—'}</td>
                    <td>{rowProblems(row)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="hint">Rows are numbered as a spreadsheet shows them: the header is row 1.</p>
        </section>
      )}
      <section className="card">
        <h2>Export</h2>
        <p className="muted">
          Every post, newest first. The CSV has the upload’s columns first, so an edited export can be
          uploaded again; text starting with = + - or @ is marked so spreadsheets do not run it as a formula.
        </p>
        <div className="actions">
          <button type="button" disabled={busy !== null} onClick={() => run('export', () => download('csv'))}>
            Download CSV
          </button>
          <button
            type="button"
            disabled={busy !== null}
            onClick={() => run('export', () => download('json'))}
          >
            Download JSON
          </button>
        </div>
      </section>
    </div>
  );
}
