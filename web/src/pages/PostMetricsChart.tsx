import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Schemas } from '../api.ts';
import { formatTick, formatWhen } from '../lib/time.ts';

type Snapshot = Schemas['MetricsHistoryResult']['snapshots'][number];

/** The counters a line is drawn for, left axis; impressions (far larger) get the right one. */
const COUNTERS = [
  { key: 'likes', name: 'Likes', color: '#d97706' },
  { key: 'comments', name: 'Comments', color: '#059669' },
  { key: 'shares', name: 'Shares', color: '#7c3aed' },
  { key: 'clicks', name: 'Clicks', color: '#db2777' },
] as const;

/**
 * A post's metric snapshots as lines over the time they were read. A counter the platform
 * never reported for this post (null in every snapshot) gets no line, rather than a line at 0.
 */
export function PostMetricsChart({ snapshots }: { snapshots: Snapshot[] }) {
  const reported = (key: (typeof COUNTERS)[number]['key'] | 'impressions') =>
    snapshots.some((s) => s[key] !== null);
  const first = snapshots[0]!.fetchedAt;
  const span = snapshots[snapshots.length - 1]!.fetchedAt - first;
  const counters = COUNTERS.filter((c) => reported(c.key));
  const impressions = reported('impressions');
  const label = `Metrics of this post at ${snapshots.length} readings, from ${formatWhen(first)} to ${formatWhen(first + span)}`;
  return (
    <div className="chart" role="img" aria-label={label} data-points={snapshots.length}>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={snapshots} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="fetchedAt"
            type="number"
            scale="time"
            domain={['dataMin', 'dataMax']}
            tickFormatter={(at: number) => formatTick(at, span)}
          />
          <YAxis yAxisId="counts" allowDecimals={false} />
          {impressions && <YAxis yAxisId="impressions" orientation="right" allowDecimals={false} />}
          <Tooltip labelFormatter={(at) => formatWhen(Number(at))} />
          <Legend />
          {counters.map((c) => (
            <Line
              key={c.key}
              yAxisId="counts"
              type="monotone"
              dataKey={c.key}
              name={c.name}
              stroke={c.color}
              isAnimationActive={false}
              connectNulls
            />
          ))}
          {impressions && (
            <Line
              yAxisId="impressions"
              type="monotone"
              dataKey="impressions"
              name="Impressions (right axis)"
              stroke="#2563eb"
              isAnimationActive={false}
              connectNulls
            />
          )}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
