import { useQuery } from '@tanstack/react-query';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';

const WEEK = 7 * 86_400_000;
/** The frequency chart covers this many weeks back. */
const TREND_WEEKS = 12;

const LABELS: Record<string, string> = {
  '1h': 'After 1 hour',
  '24h': 'After 24 hours',
  '7d': 'After 7 days',
};

/** One sentence on the decay, or null when no post has been measured long enough. */
export function decaySentence(decay: Schemas['DecayMilestone'][]): string | null {
  const day = decay.find((d) => d.after === '24h');
  if (!day || day.share === null) return null;
  const posts = day.posts === 1 ? '1 post' : `${day.posts} posts`;
  return `A typical post has ${Math.round(day.share * 100)}% of its engagement 24 hours after publishing (median over ${posts} measured that long).`;
}

/** Content decay and posting frequency against engagement (GET /v1/analytics/trends). */
export function AnalyticsTrends() {
  const from = Date.now() - TREND_WEEKS * WEEK;
  const trends = useQuery({
    queryKey: ['analytics', 'trends', Math.floor(from / WEEK)],
    queryFn: () => ok(api.GET('/v1/analytics/trends', { params: { query: { from } } })),
  });
  const decay = trends.data?.trends.decay ?? [];
  const measured = decay.some((d) => d.share !== null);
  const decayData = decay.map((d) => ({
    after: LABELS[d.after] ?? d.after,
    share: d.share === null ? 0 : Math.round(d.share * 100),
    posts: d.posts,
  }));
  const weekly = (trends.data?.trends.weekly ?? []).map((w) => ({
    week: new Date(w.weekStart).toLocaleDateString(undefined, {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    }),
    posts: w.posts,
    perPost: w.engagementsPerPost,
  }));
  const sentence = decaySentence(decay);
  return (
    <>
      <ErrorBox error={trends.error} />
      {trends.isPending && <Working label="Loading trends…" />}
      <section className="card">
        <h2>Content decay</h2>
        <p className="muted">
          How much of a post’s engagement (as measured so far) it has gathered 1 hour, 24 hours and 7 days
          after publishing, for posts of the last {TREND_WEEKS} weeks. A fast decay means a post does its work
          on the first day.
        </p>
        {sentence && <p>{sentence}</p>}
        {trends.data && !measured ? (
          <p className="muted">
            No post has been measured long enough yet: decay needs metrics read at least an hour after
            publishing.
          </p>
        ) : (
          measured && (
            <div
              className="chart"
              role="img"
              aria-label="Share of engagement reached after 1 hour, 24 hours and 7 days"
            >
              <ResponsiveContainer width="100%" height={220}>
                <BarChart data={decayData}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="after" />
                  <YAxis domain={[0, 100]} unit="%" />
                  <Tooltip formatter={(value) => `${value}%`} />
                  <Bar dataKey="share" fill="#0d9488" name="Share of engagement reached" />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )
        )}
      </section>
      <section className="card">
        <h2>Posting frequency against engagement</h2>
        <p className="muted">
          Posts published each week (Monday to Sunday, UTC) beside the engagements each measured post earned.
          If engagement per post drops in busy weeks, posting less often may reach more people per post.
        </p>
        {trends.data && weekly.length === 0 ? (
          <p className="muted">No post has been published in the last {TREND_WEEKS} weeks.</p>
        ) : (
          weekly.length > 0 && (
            <div className="chart" role="img" aria-label="Posts per week and engagements per post">
              <ResponsiveContainer width="100%" height={240}>
                <ComposedChart data={weekly}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="week" />
                  <YAxis yAxisId="left" allowDecimals={false} />
                  <YAxis yAxisId="right" orientation="right" />
                  <Tooltip />
                  <Legend />
                  <Bar yAxisId="left" dataKey="posts" fill="#2563eb" name="Posts (left axis)" />
                  <Line
                    yAxisId="right"
                    dataKey="perPost"
                    stroke="#d97706"
                    connectNulls
                    name="Engagements per post (right axis)"
                  />
                </ComposedChart>
              </ResponsiveContainer>
            </div>
          )
        )}
      </section>
    </>
  );
}
