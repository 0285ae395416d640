import { useQuery } from '@tanstack/react-query';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { browserZone, formatWhen } from '../lib/time.ts';
import { Link, navigate } from '../router.tsx';

type Timing = Schemas['TimingInsight'];
type Factor = Schemas['Factor'];

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * The next time, in the browser's zone (the zone the insights were computed in), a slot comes
 * round: a weekday at 09:00, or the start of a 3-hour window ("09:00-12:00"), at least an hour
 * from now so it can still be scheduled.
 */
export function nextSlotTime(slot: string, now = Date.now()): number | null {
  const day = DAYS.indexOf(slot);
  const hour = /^(\d{2}):00-/.exec(slot);
  if (day < 0 && !hour) return null;
  const earliest = now + 3_600_000;
  for (let i = 0; i < 9; i++) {
    const d = new Date(now);
    d.setDate(d.getDate() + i);
    d.setHours(hour ? Number(hour[1]) : 9, 0, 0, 0);
    if (d.getTime() >= earliest && (day < 0 || d.getDay() === day)) return d.getTime();
  }
  return null;
}

/** A multiple as a cell colour: green above the author's median, amber below, grey untested. */
function shade(multiple: number | null): string {
  if (multiple === null) return 'var(--muted-bg, #f1f1f1)';
  const strength = Math.min(1, Math.abs(Math.log(multiple)) / Math.log(2));
  const alpha = (0.15 + 0.65 * strength).toFixed(2);
  return multiple >= 1 ? `rgba(5, 150, 105, ${alpha})` : `rgba(217, 119, 6, ${alpha})`;
}

function SlotStrip({ title, timing, unit }: { title: string; timing: Timing; unit: string }) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      <p>{timing.note}</p>
      <ul className="heat">
        {timing.slots.map((s) => {
          const at = nextSlotTime(s.slot);
          const label = `${s.slot}: ${s.posts} ${s.posts === 1 ? 'post' : 'posts'}${s.multiple === null ? ', too few to compare' : `, ${s.multiple.toFixed(2)}× your median`}${s.standsOut ? ', stands out' : ''}`;
          return (
            <li key={s.slot}>
              <button
                type="button"
                className={`heat-cell ${s.standsOut ? 'stands-out' : ''}`}
                style={{ background: shade(s.multiple) }}
                title={at ? `${label}. Schedule a post for ${formatWhen(at)}.` : label}
                aria-label={at ? `${label}. Schedule a post for ${formatWhen(at)}` : label}
                disabled={at === null}
                onClick={() => at && navigate(`/compose?at=${at}`)}
              >
                <span className="heat-slot">{unit === 'day' ? s.slot.slice(0, 3) : s.slot.slice(0, 5)}</span>
                <span className="heat-value">{s.multiple === null ? '—' : `${s.multiple.toFixed(1)}×`}</span>
                <span className="heat-posts">{s.posts}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <p className="hint">
        Each cell: your median engagement there as a multiple of your overall median, and how many posts it
        rests on. Press one to write a post scheduled for its next slot.
      </p>
    </section>
  );
}

function FactorList({ factors, title }: { factors: Factor[]; title: string }) {
  if (factors.length === 0) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul>
        {factors.map((f) => (
          <li key={f.feature}>
            <strong>{f.label}</strong>: your {f.posts} {f.posts === 1 ? 'post' : 'posts'} with it earned{' '}
            {f.multiple.toFixed(2)}× your median; the {f.withoutPosts} without it, {f.without.toFixed(2)}×{' '}
            <span className="muted">(p = {f.pValue < 0.001 ? '<0.001' : f.pValue.toFixed(3)})</span>.
          </li>
        ))}
      </ul>
    </>
  );
}

/** What works for this author, from their own history, with the evidence behind each claim. */
export function InsightsPage() {
  const zone = browserZone();
  const insights = useQuery({
    queryKey: ['insights', zone],
    queryFn: () => ok(api.GET('/v1/insights', { params: { query: { timezone: zone } } })),
  });
  const d = insights.data;
  return (
    <div>
      <h1>Insights</h1>
      <p className="muted">
        What your own history shows, in {zone}. It comes from the posts on <Link to="/history">History</Link>:
        import more to sharpen it.
      </p>
      {insights.isPending && <Working label="Reading your history…" />}
      <ErrorBox error={insights.error} />
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
          <SlotStrip title="Best days" timing={d.days} unit="day" />
          <SlotStrip title="Best hours" timing={d.hours} unit="hour" />
        </>
      )}
    </div>
  );
}
