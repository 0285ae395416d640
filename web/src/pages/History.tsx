import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, authHeaders, ok, type Schemas } from '../api.ts';
import { ErrorBox, Notice, Working } from '../components/ErrorBox.tsx';
import { ApiError } from '../lib/errors.ts';
import { formatWhen, relative } from '../lib/time.ts';
import { Link } from '../router.tsx';

type Preview = Schemas['HistoryPreviewResult'];
type Imported = Schemas['HistoryImportResult'];

const EXAMPLE = `text,publishedAt,reactions,comments,shares
"We cut our build time from 40 to 6 minutes. Here is how.",2025-03-14T09:30:00Z,120,14,6`;

/** The CSV as POST /v1/history takes it: checked only (dryRun) or imported. */
async function sendCsv(csv: string, dryRun: boolean): Promise<Preview | Imported> {
  const res = await fetch(`/v1/history${dryRun ? '?dryRun=true' : ''}`, {
    method: 'POST',
    headers: { ...authHeaders('POST'), 'content-type': 'text/csv' },
    body: csv,
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/** Each row's problem, from a refused check: "line 4.likes: Expected a whole number". */
function RowErrors({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || error.details.length === 0) return <ErrorBox error={error} />;
  return (
    <div className="error" role="alert">
      <strong>
        Nothing was imported:{' '}
        {error.details.length === 1 ? 'one row needs' : `${error.details.length} rows need`} fixing.
      </strong>
      <ul>
        {error.details.map((d, i) => (
          <li key={i}>
            <code>{d.path}</code>: {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Past posts with their results, which the personal model and Insights learn from: import a CSV
 * (pasted or from a file), checked and previewed row by row before anything is written; the
 * list of what is there, with delete; and where the personal model stands.
 */
export function HistoryPage() {
  const queryClient = useQueryClient();
  const [csv, setCsv] = useState('');
  const [checked, setChecked] = useState<{ csv: string; preview: Preview } | null>(null);
  const history = useQuery({
    queryKey: ['history'],
    queryFn: () => ok(api.GET('/v1/history', { params: { query: { limit: 100 } } })),
  });
  const model = useQuery({
    queryKey: ['insights', 'model'],
    queryFn: () => ok(api.GET('/v1/insights', { params: { query: { timezone: 'UTC' } } })),
  });
  const check = useMutation({
    mutationFn: () => sendCsv(csv, true) as Promise<Preview>,
    onSuccess: (preview) => setChecked({ csv, preview }),
  });
  const upload = useMutation({
    mutationFn: () => sendCsv(checked!.csv, false) as Promise<Imported>,
    onSuccess: () => {
      setChecked(null);
      setCsv('');
      queryClient.invalidateQueries({ queryKey: ['history'] });
      queryClient.invalidateQueries({ queryKey: ['insights'] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => ok(api.DELETE('/v1/history/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['history'] });
      queryClient.invalidateQueries({ queryKey: ['insights'] });
    },
  });
  const current = checked && checked.csv === csv ? checked.preview : null;
  const pm = model.data?.personalModel;
  return (
    <div>
      <h1>History</h1>
      <p className="muted">
        Your past posts and how they did. Postkit learns what works for you from them: the personal score and{' '}
        <Link to="/insights">Insights</Link>. Posts you publish through Postkit join on their own once their
        metrics arrive.
      </p>
      {pm && (
        <section className="card" aria-label="Personal model">
          <p>
            {pm.fitted
              ? `Your personal model learned from ${pm.basedOn} ${pm.basedOn === 1 ? 'post' : 'posts'} with engagement`
              : 'No personal model yet: it needs at least 10 posts with engagement'}
            {pm.checkedAt ? `; the history was last read ${relative(pm.checkedAt)}` : ''}.
            {pm.refitPending ? ' The history changed since, so it is being fitted again.' : ''}
          </p>
        </section>
      )}
      <section className="card form" aria-labelledby="import-title">
        <h2 id="import-title">Import</h2>
        <p className="hint">
          A CSV with a header row: <code>text</code> and any of <code>publishedAt</code>,{' '}
          <code>platform</code>, <code>media</code>, <code>reactions</code>, <code>comments</code>,{' '}
          <code>shares</code>, <code>impressions</code>, <code>clicks</code> (a platform export's{' '}
          <code>commentary</code>, <code>numLikes</code>, <code>numComments</code>… work too). A text already
          here is updated, not added twice.
        </p>
        <label htmlFor="history-file">CSV file</label>
        <input
          id="history-file"
          type="file"
          accept=".csv,text/csv"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (file) setCsv(await file.text());
          }}
        />
        <label htmlFor="history-csv">Or paste rows</label>
        <textarea
          id="history-csv"
          rows={6}
          dir="auto"
          value={csv}
          onChange={(e) => setCsv(e.target.value)}
          placeholder={EXAMPLE}
        />
        <div className="row wrap">
          <button type="button" onClick={() => check.mutate()} disabled={!csv.trim() || check.isPending}>
            Check and preview
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => upload.mutate()}
            disabled={!current || upload.isPending}
            aria-describedby="import-why"
          >
            {current
              ? `Import ${current.items.length} ${current.items.length === 1 ? 'row' : 'rows'}`
              : 'Import'}
          </button>
          {!current && (
            <span id="import-why" className="hint">
              Check the rows first: nothing is written until you import them.
            </span>
          )}
        </div>
        {(check.isPending || upload.isPending) && (
          <Working label={upload.isPending ? 'Importing…' : 'Checking…'} />
        )}
        <RowErrors error={check.error} />
        <ErrorBox error={upload.error} />
        {upload.data && (
          <Notice kind="success">
            Imported: {upload.data.imported} new, {upload.data.duplicates} updated; {upload.data.total} in
            your history now.
          </Notice>
        )}
        {current && <PreviewTable preview={current} />}
      </section>
      <h2>Your past posts</h2>
      {history.isPending && <Working label="Loading history…" />}
      <ErrorBox error={history.error ?? remove.error} />
      {history.data?.history.length === 0 && <p className="muted">Nothing yet: import a CSV above.</p>}
      {history.data && history.data.history.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Post</th>
                <th scope="col">Published</th>
                <th scope="col">Engagement</th>
                <th scope="col">From</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {history.data.history.map((h) => (
                <tr key={h.id}>
                  <td className="clip" dir="auto">
                    {h.text}
                  </td>
                  <td>{h.publishedAt ? formatWhen(h.publishedAt) : '—'}</td>
                  <td>{h.engagement ?? '—'}</td>
                  <td>{h.source === 'import' ? 'Imported' : 'Published here'}</td>
                  <td>
                    {h.source === 'import' && (
                      <button
                        type="button"
                        className="danger"
                        disabled={remove.isPending}
                        onClick={() =>
                          window.confirm(
                            'Remove this post from your history? The personal model is fitted again without it.',
                          ) && remove.mutate(h.id)
                        }
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function PreviewTable({ preview }: { preview: Preview }) {
  const shown = preview.items.slice(0, 50);
  return (
    <>
      <p>
        <strong>
          All {preview.items.length} {preview.items.length === 1 ? 'row reads' : 'rows read'} correctly:
        </strong>{' '}
        {preview.newEntries} new, {preview.duplicates}{' '}
        {preview.duplicates === 1 ? 'updates an entry' : 'update entries'} already there. Nothing is written
        until you press Import.
      </p>
      <div className="table-wrap">
        <table aria-label="Import preview">
          <thead>
            <tr>
              <th scope="col">Post</th>
              <th scope="col">Published</th>
              <th scope="col">Reactions</th>
              <th scope="col">Comments</th>
              <th scope="col">Shares</th>
              <th scope="col">Import as</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row, i) => (
              <tr key={i}>
                <td className="clip" dir="auto">
                  {row.text}
                </td>
                <td>{row.publishedAt ? formatWhen(row.publishedAt) : '—'}</td>
                <td>{row.reactions ?? '—'}</td>
                <td>{row.comments ?? '—'}</td>
                <td>{row.shares ?? '—'}</td>
                <td>{row.kind === 'new' ? 'New' : 'Update'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {preview.items.length > shown.length && (
        <p className="muted">
          The first {shown.length} of {preview.items.length} rows are shown.
        </p>
      )}
    </>
  );
}
