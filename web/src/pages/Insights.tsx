import { useQuery } from '@tanstack/react-query';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { ZoneHint } from '../components/ZoneHint.tsx';
import { useAccountSettings } from '../lib/hooks.ts';
import { Link } from '../router.tsx';
import { InsightsHeatMap } from './InsightsHeatMap.tsx';

type Factor = Schemas['Factor'];

function FactorList({ factors, title }: { factors: Factor[]; title: string }) {
  if (factors.length === 0) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul>
        {factors.map((f) => (
          <li key={f.feature}>
            {/* The API's own sentence: it names which posts have the feature, with the figures. */}
            <strong>{f.label}</strong>: {f.detail}{' '}
            <span className="muted">(p {f.pValue < 0.001 ? '< 0.001' : `= ${f.pValue.toFixed(3)}`})</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** What works for this author, from their own history, with the evidence behind each claim. */
export function InsightsPage() {
  // Read in the account's time zone (Settings), the API's own default.
  const settings = useAccountSettings();
  const zone = settings.data?.settings.timezone;
  const insights = useQuery({
    queryKey: ['insights', zone],
    enabled: zone !== undefined,
    queryFn: () => ok(api.GET('/v1/insights', { params: { query: { timezone: zone! } } })),
  });
  const d = insights.data;
  return (
    <div>
      <h1>Insights</h1>
      {zone !== undefined && (
        <>
          <p className="muted">
            What your own history shows, in {zone}. It comes from the posts on{' '}
            <Link to="/history">History</Link>: import more to sharpen it.
          </p>
          <ZoneHint zone={zone} />
        </>
      )}
      {insights.isPending && !settings.error && <Working label="Reading your history…" />}
      <ErrorBox error={settings.error ?? insights.error} />
      {d && (
        <>
          <section className="card" aria-label="Evidence">
            <p>
              From {d.basedOn.posts} {d.basedOn.posts === 1 ? 'post' : 'posts'} in your history:{' '}
              {d.basedOn.withEngagement} with engagement, {d.basedOn.withDate} of them dated and{' '}
              {d.basedOn.withTime} with a time of day.
              {d.medianEngagement !== null &&
                ` Your median post earns ${d.medianEngagement} engagements (reactions, comments and shares); every multiple below is against it.`}
            </p>
          </section>
          <section className="card" aria-labelledby="works-title">
            <h2 id="works-title">What works for you</h2>
            <p>{d.factors.note}</p>
            <FactorList factors={d.factors.positive} title="Lifts your posts" />
            <FactorList factors={d.factors.negative} title="Holds them back" />
          </section>
          <InsightsHeatMap insights={d} />
        </>
      )}
    </div>
  );
}
