import { useQueries, useQuery } from '@tanstack/react-query';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { api, ok } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { formatWhen } from '../lib/time.ts';
import { AnalyticsTrends } from './AnalyticsTrends.tsx';

const WEEK = 7 * 86_400_000;
const WEEKS = 8;

/** Week starts (local midnight, Monday) for the last WEEKS weeks, oldest first. */
export function weekStarts(now = Date.now(), weeks = WEEKS): number[] {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  const monday = d.getTime();
  return Array.from({ length: weeks }, (_, i) => {
    const w = new Date(monday);
    w.setDate(w.getDate() - (weeks - 1 - i) * 7);
    return w.getTime();
  });
}

const n = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toLocaleString());

export function AnalyticsPage() {
  const total = useQuery({ queryKey: ['analytics', 'all'], queryFn: () => ok(api.GET('/v1/analytics')) });
  const starts = weekStarts();
  const weeks = useQueries({
    queries: starts.map((from) => ({
      queryKey: ['analytics', from],
      queryFn: () => ok(api.GET('/v1/analytics', { params: { query: { from, to: from + WEEK } } })),
    })),
  });
  const calibration = useQuery({ queryKey: ['calibration'], queryFn: () => ok(api.GET('/v1/calibration')) });
  const published = useQuery({
    queryKey: ['posts', 'published'],
    queryFn: () => ok(api.GET('/v1/posts', { params: { query: { status: 'published', limit: 20 } } })),
  });
  const metrics = useQueries({
    queries: (published.data?.posts ?? []).map((p) => ({
      queryKey: ['metrics', p.id],
      queryFn: () => ok(api.GET('/v1/posts/{id}/metrics', { params: { path: { id: p.id } } })),
    })),
  });

  const t = total.data?.analytics.totals;
  const reported = total.data?.analytics.reported;
  // A sum over posts whose platform never reported the metric is "no data", not 0 (as in the table).
  const sum = (key: keyof NonNullable<typeof reported>) =>
    reported && reported[key] === 0 ? null : (t?.[key] ?? null);
  const series = starts.map((from, i) => ({
    week: new Date(from).toLocaleDateString(undefined, { day: 'numeric', month: 'short' }),
    impressions: weeks[i]?.data?.analytics.totals.impressions ?? 0,
    engagements: weeks[i]?.data?.analytics.totals.engagements ?? 0,
  }));
  const points = (calibration.data?.calibration ?? []).map((r) => ({
    score: r.score,
    engagements: r.engagements,
  }));
  // How well the score has ranked these posts (present once the API reports it).
  const summary = (
    calibration.data as
      | { summary?: { posts: number; spearman: number | null; pairwiseAccuracy: number | null } }
      | undefined
  )?.summary;

  return (
    <div>
      <h1>Analytics</h1>
      <p className="muted">
        How your published posts did. Metrics are read from the platform regularly after publishing.
      </p>
      <ErrorBox error={total.error ?? calibration.error ?? published.error} />
      {total.isPending && <Working label="Loading totals…" />}
      {t && (
        <dl className="totals">
          {(
            [
              ['Posts measured', t.posts],
              ['Impressions', sum('impressions')],
              ['Likes', sum('likes')],
              ['Comments', sum('comments')],
              ['Shares', sum('shares')],
              ['Clicks', sum('clicks')],
              ['Engagements', t.engagements],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="card">
              <dt>{label}</dt>
              <dd>{n(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {t && reported && Object.values(reported).some((count) => count === 0) && (
        <p className="hint">
          — : no published post has this measured yet, or the platform does not report it.
        </p>
      )}
      <section className="card">
        <h2>Last {WEEKS} weeks, by publish week</h2>
        <div className="chart" role="img" aria-label="Impressions and engagements per week">
          <ResponsiveContainer width="100%" height={240}>
            <BarChart data={series}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="week" />
              <YAxis yAxisId="left" allowDecimals={false} />
              <YAxis yAxisId="right" orientation="right" allowDecimals={false} />
              <Tooltip />
              <Legend />
              <Bar yAxisId="left" dataKey="impressions" fill="#2563eb" name="Impressions (left axis)" />
              <Bar yAxisId="right" dataKey="engagements" fill="#d97706" name="Engagements (right axis)" />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </section>
      <AnalyticsTrends />
      <section className="card">
        <h2>Score against engagement</h2>
        <p className="muted">
          Each dot is a published post with a recorded score and measured engagement (the calibration data).
          If higher scores sit higher, the score predicts your audience.
        </p>
        {summary && summary.spearman !== null && (
          <p>
            Over {summary.posts} posts, the score's ranking agrees with engagement at Spearman{' '}
            <strong>{summary.spearman.toFixed(2)}</strong> (1 is perfect, 0 is chance)
            {summary.pairwiseAccuracy !== null &&
              `; it orders ${Math.round(summary.pairwiseAccuracy * 100)}% of clearly different pairs the right way`}
            .
          </p>
        )}
        {points.length === 0 ? (
          <p className="muted">
            No calibration data yet: press “Record its score” on published posts (Posts page), then wait for
            their metrics.
          </p>
        ) : (
          <div className="chart" role="img" aria-label="Scatter plot of score against engagements">
            <ResponsiveContainer width="100%" height={260}>
              <ScatterChart margin={{ top: 8, right: 16, bottom: 28, left: 16 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis
                  type="number"
                  dataKey="score"
                  name="Score"
                  domain={[0, 100]}
                  label={{ value: 'Recorded score (0-100)', position: 'insideBottom', offset: -16 }}
                />
                <YAxis
                  type="number"
                  dataKey="engagements"
                  name="Engagements"
                  // Centred on the axis: rotated text anchored at its start ran off the chart's top.
                  label={{
                    value: 'Engagements',
                    angle: -90,
                    position: 'insideLeft',
                    offset: -4,
                    style: { textAnchor: 'middle' },
                  }}
                />
                <Tooltip />
                <Scatter data={points} fill="#7c3aed" />
              </ScatterChart>
            </ResponsiveContainer>
          </div>
        )}
      </section>
      <section className="card">
        <h2>Per post</h2>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Post</th>
                <th scope="col">Published</th>
                <th scope="col">Impressions</th>
                <th scope="col">Likes</th>
                <th scope="col">Comments</th>
                <th scope="col">Shares</th>
                <th scope="col">Clicks</th>
              </tr>
            </thead>
            <tbody>
              {(published.data?.posts ?? []).map((p, i) => {
                const m = metrics[i]?.data?.latest;
                return (
                  <tr key={p.id}>
                    <td className="clip-cell">{p.text}</td>
                    <td>{p.publishedAt ? formatWhen(p.publishedAt) : '—'}</td>
                    <td>{n(m?.impressions)}</td>
                    <td>{n(m?.likes)}</td>
                    <td>{n(m?.comments)}</td>
                    <td>{n(m?.shares)}</td>
                    <td>{n(m?.clicks)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <p className="hint">
          — means not measured yet, or not reported by the platform (which differs from 0).
        </p>
      </section>
    </div>
  );
}
